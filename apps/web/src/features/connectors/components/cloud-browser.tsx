import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  FileButton,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDeviceDesktop, IconFile, IconFileMusic, IconFolder, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import type { Connector, DriveEntry } from '@mixroom/contracts';
import { isAudioExtension } from '@mixroom/shared';
import { formatBytes } from '../../../lib/format/format';
import type { PickedFile } from '../api';
import { CONNECTOR_LABELS, useConnectorFolder, useConnectors } from '../queries';

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '');

/** Which files may be picked: extensions without the dot (['wav', 'mp3']), or 'any' (a transfer takes every file). */
export type AcceptedFiles = readonly string[] | 'any';

const accepts = (accept: AcceptedFiles, name: string) => accept === 'any' || accept.includes(extensionOf(name));

/**
 * The cloud storage browser: Mixroom's own storage first (a file from this computer, uploaded
 * directly), then each linked account, browsed folder by folder with breadcrumbs, sizes and a name
 * filter. Files whose extension is not accepted are shown but can't be picked.
 */
export function CloudBrowser({
  accept,
  picked,
  onPick,
}: {
  accept: AcceptedFiles;
  picked: PickedFile | null;
  onPick: (picked: PickedFile | null) => void;
}) {
  const connectors = useConnectors();
  const linked = connectors.data?.linked ?? [];
  const [tab, setTab] = useState<string>(picked?.source === 'linked' ? picked.connectorId : 'device');
  return (
    <Stack gap="xs">
      <Tabs value={tab} onChange={(value) => setTab(value ?? 'device')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="device" leftSection={<IconDeviceDesktop size={16} />}>
            This computer
          </Tabs.Tab>
          {linked.map((c) => (
            <Tabs.Tab key={c.id} value={c.id}>
              {CONNECTOR_LABELS[c.kind]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="device" pt="sm">
          <Group wrap="nowrap">
            <FileButton
              onChange={(file) => file && onPick({ source: 'device', file, name: file.name, size: file.size })}
              accept={accept === 'any' ? undefined : accept.map((e) => `.${e}`).join(',')}
            >
              {(props) => (
                <Button variant="light" leftSection={<IconFileMusic size={16} />} {...props}>
                  {picked?.source === 'device' ? 'Change file' : 'Choose an audio file'}
                </Button>
              )}
            </FileButton>
            <Text size="sm" truncate style={{ minWidth: 0 }}>
              {picked?.source === 'device' ? picked.name : 'No file selected'}
            </Text>
          </Group>
          {connectors.data && connectors.data.available.length > 0 && linked.length === 0 && (
            <Text size="xs" c="dimmed" mt="sm">
              Link Nextcloud, WebDAV, an S3 bucket, Dropbox or Google Drive in Settings to pick files from them.
            </Text>
          )}
        </Tabs.Panel>
        {linked.map((c) => (
          <Tabs.Panel key={c.id} value={c.id} pt="sm">
            <FolderView connector={c} accept={accept} picked={picked} onPick={onPick} />
          </Tabs.Panel>
        ))}
      </Tabs>
      {picked?.source === 'linked' && (
        <Text size="sm" truncate>
          Selected: <b>{picked.name}</b> ({formatBytes(picked.size)})
        </Text>
      )}
    </Stack>
  );
}

/**
 * One linked account browsed folder by folder. The cloud browser picks a file in it; "Save to…"
 * (no extension accepted, so files only show what is there) follows the open folder with `onFolder`.
 */
export function FolderView({
  connector,
  accept,
  picked,
  onPick,
  onFolder,
}: {
  connector: Connector;
  accept: AcceptedFiles;
  picked: PickedFile | null;
  onPick: (picked: PickedFile | null) => void;
  onFolder?: (path: string) => void;
}) {
  const [path, setPath] = useState('/');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const folder = useConnectorFolder(connector.id, path, debounced);
  const segments = path.split('/').filter(Boolean);
  const open = (next: string) => {
    setSearch('');
    setPath(next);
    onFolder?.(next);
  };
  const isPicked = (entry: DriveEntry) =>
    picked?.source === 'linked' && picked.connectorId === connector.id && picked.path === entry.path;
  return (
    <Stack gap="xs">
      <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap' }}>
        <Anchor size="sm" onClick={() => open('/')} title={connector.accountName}>
          <Text span size="sm" truncate maw={200} display="inline-block" style={{ verticalAlign: 'bottom' }}>
            {connector.accountName}
          </Text>
        </Anchor>
        {segments.map((segment, index) => (
          <Anchor key={index} size="sm" onClick={() => open(`/${segments.slice(0, index + 1).join('/')}`)}>
            <Text span size="sm" truncate maw={160} display="inline-block" style={{ verticalAlign: 'bottom' }}>
              {segment}
            </Text>
          </Anchor>
        ))}
      </Breadcrumbs>
      <TextInput
        size="xs"
        // Dropbox searches below the open folder; the others filter the folder's own entries.
        placeholder={folder.data?.searchable ? 'Search this folder and below by name' : 'Filter this folder by name'}
        leftSection={<IconSearch size={14} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        aria-label="Filter by name"
      />
      <ScrollArea h={260} type="auto" offsetScrollbars>
        {folder.isPending ? (
          <Group justify="center" p="lg">
            <Loader size="sm" />
          </Group>
        ) : folder.isError ? (
          <Alert color="red" title="This folder could not be opened">
            {folder.error.message}
          </Alert>
        ) : folder.data.entries.length === 0 ? (
          <Text size="sm" c="dimmed" p="md" ta="center">
            {debounced ? 'Nothing here matches this name.' : 'This folder is empty.'}
          </Text>
        ) : (
          <Stack gap={2} role="list" aria-busy={folder.isFetching}>
            {folder.data.entries.map((entry) => {
              const pickable = entry.kind === 'folder' || accepts(accept, entry.name);
              const selected = isPicked(entry);
              return (
                <UnstyledButton
                  key={entry.path}
                  role="listitem"
                  disabled={!pickable}
                  onClick={() =>
                    entry.kind === 'folder'
                      ? open(entry.path)
                      : onPick({
                          source: 'linked',
                          connectorId: connector.id,
                          path: entry.path,
                          name: entry.name,
                          size: entry.size ?? 0,
                        })
                  }
                  px="xs"
                  py={6}
                  style={{
                    borderRadius: 6,
                    opacity: pickable ? 1 : 0.45,
                    cursor: pickable ? 'pointer' : 'not-allowed',
                    background: selected ? 'var(--mantine-color-violet-light)' : undefined,
                  }}
                  aria-pressed={entry.kind === 'file' ? selected : undefined}
                  data-entry={entry.name}
                >
                  <Group gap="sm" wrap="nowrap" justify="space-between">
                    <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                      {entry.kind === 'folder' ? (
                        <IconFolder size={18} color="var(--mantine-color-yellow-5)" style={{ flexShrink: 0 }} />
                      ) : isAudioExtension(extensionOf(entry.name)) ? (
                        <IconFileMusic size={18} color="var(--mantine-color-violet-4)" style={{ flexShrink: 0 }} />
                      ) : (
                        <IconFile size={18} style={{ flexShrink: 0 }} />
                      )}
                      <Text size="sm" truncate title={entry.name}>
                        {entry.name}
                      </Text>
                    </Group>
                    {entry.size !== null && (
                      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                        {formatBytes(entry.size)}
                      </Text>
                    )}
                  </Group>
                </UnstyledButton>
              );
            })}
          </Stack>
        )}
      </ScrollArea>
    </Stack>
  );
}
