import { Alert, Anchor, Breadcrumbs, Group, Loader, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { isAudioExtension } from '@mixroom/shared';
import type { Connector, DriveEntry } from '@mixroom/contracts';
import type { PickedFile } from '../api';
import {
  accepts,
  crumbsOf,
  extensionOf,
  folderOf,
  isChosen,
  movedIndex,
  searchTexts,
  type AcceptedFiles,
} from '../folder-view-rules';
import { CONNECTOR_LABELS, useConnectorDurations, useConnectorFolder } from '../queries';
import { FolderEntryRow } from './folder-entry-row';
import { PreviewBar } from './preview-bar';

/**
 * One linked account browsed folder by folder, as a list box: the cloud browser picks a file in it;
 * a transfer chooses several (`chosen`: every chosen file is highlighted and marked selected);
 * "Save to…" (no extension accepted) follows the open folder with `onFolder`. Where the provider
 * searches, the search covers the whole account and each hit shows the folder it is in, which a
 * click (or → on the hit) opens; elsewhere the box filters the open folder and says so.
 * Keys: ↑ ↓ Home End move between entries, Enter or Space picks a file or opens a folder, P
 * listens to an audio file (the preview under the list, streamed by the server from the provider).
 */
export function FolderView({
  connector,
  accept,
  picked,
  chosen,
  onPick,
  onFolder,
}: {
  connector: Connector;
  accept: AcceptedFiles;
  picked: PickedFile | null;
  /** The paths chosen in this account when several files may be chosen; each click toggles one. */
  chosen?: readonly string[];
  onPick: (picked: PickedFile | null) => void;
  onFolder?: (path: string) => void;
}) {
  const [path, setPath] = useState('/');
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const [previewing, setPreviewing] = useState<DriveEntry | null>(null);
  const [heard, setHeard] = useState<Record<string, number>>({});
  const list = useRef<HTMLDivElement>(null);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const folder = useConnectorFolder(connector.id, path, debounced);
  const provider = CONNECTOR_LABELS[connector.kind];
  const texts = searchTexts(folder.data?.searchable ?? false, provider);
  const hits = folder.data?.scope === 'account';
  const entries = folder.data?.entries ?? [];
  const declared = useConnectorDurations(connector.id, entries).data?.durations;
  // The header's length where it says one; else what a preview's player found.
  const durationOf = (path: string) => declared?.[path] ?? heard[path];
  const focused = Math.min(active, Math.max(entries.length - 1, 0));
  const open = (next: string) => {
    setSearch('');
    setActive(0);
    setPath(next);
    onFolder?.(next);
  };
  const activate = (entry: DriveEntry) => {
    if (entry.kind === 'folder') return open(entry.path);
    if (!accepts(accept, entry.name)) return;
    onPick({ source: 'linked', connectorId: connector.id, path: entry.path, name: entry.name, size: entry.size ?? 0 });
  };
  const onListKey = (event: KeyboardEvent) => {
    const next = movedIndex(event.key, focused, entries.length);
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    list.current?.querySelectorAll<HTMLElement>('[role="option"]')[next]?.focus();
  };
  const crumbs = crumbsOf(path);
  return (
    <Stack gap="xs">
      <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap' }}>
        <Anchor size="sm" onClick={() => open('/')} title={connector.accountName}>
          <Text span size="sm" truncate maw={200} display="inline-block" style={{ verticalAlign: 'bottom' }}>
            {connector.accountName}
          </Text>
        </Anchor>
        {crumbs.map((segment, index) => (
          <Anchor key={index} size="sm" onClick={() => open(`/${crumbs.slice(0, index + 1).join('/')}`)}>
            <Text span size="sm" truncate maw={160} display="inline-block" style={{ verticalAlign: 'bottom' }}>
              {segment}
            </Text>
          </Anchor>
        ))}
      </Breadcrumbs>
      <TextInput
        size="xs"
        placeholder={texts.placeholder}
        leftSection={<IconSearch size={14} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        aria-label={texts.label}
        description={search.trim() && texts.note ? texts.note : undefined}
        inputWrapperOrder={['input', 'description']}
      />
      {hits && (
        <Text size="xs" c="dimmed" aria-live="polite">
          {folder.data?.truncated
            ? `The first ${entries.length} matches in all of ${provider}. Type more of the name to narrow them.`
            : `${entries.length} ${entries.length === 1 ? 'match' : 'matches'} in all of ${provider}.`}
        </Text>
      )}
      <ScrollArea h={260} type="auto" offsetScrollbars>
        {folder.isPending ? (
          <Group justify="center" p="lg">
            <Loader size="sm" />
          </Group>
        ) : folder.isError ? (
          <Alert color="red" title={debounced ? 'The search could not be made' : 'This folder could not be opened'}>
            {folder.error.message}
          </Alert>
        ) : entries.length === 0 ? (
          <Text size="sm" c="dimmed" p="md" ta="center">
            {!debounced
              ? 'This folder is empty.'
              : hits && connector.kind === 'gdrive'
                ? 'Nothing matches. Google Drive matches the start of each word of a name.'
                : 'Nothing here matches this name.'}
          </Text>
        ) : (
          <Stack
            ref={list}
            gap={2}
            p={2}
            role="listbox"
            aria-label={hits ? `Matches in ${provider}` : `Files in ${crumbs.at(-1) ?? connector.accountName}`}
            aria-multiselectable={chosen ? true : undefined}
            aria-busy={folder.isFetching}
            onKeyDown={onListKey}
          >
            {entries.map((entry, index) => (
              <FolderEntryRow
                key={entry.path}
                entry={entry}
                pickable={entry.kind === 'folder' || accepts(accept, entry.name)}
                selected={
                  entry.kind === 'file' &&
                  isChosen(entry.path, connector.id, {
                    chosen,
                    picked: picked?.source === 'linked' ? picked : null,
                  })
                }
                tabbable={index === focused}
                where={hits ? crumbsOf(folderOf(entry.path)) : null}
                onFocus={() => setActive(index)}
                onActivate={() => {
                  setActive(index);
                  activate(entry);
                }}
                onOpenFolder={() => open(folderOf(entry.path))}
                onPreview={
                  entry.kind === 'file' && isAudioExtension(extensionOf(entry.name))
                    ? () => setPreviewing(entry)
                    : undefined
                }
                previewing={previewing?.path === entry.path}
                duration={durationOf(entry.path)}
              />
            ))}
          </Stack>
        )}
      </ScrollArea>
      {previewing && (
        <PreviewBar
          key={previewing.path}
          connectorId={connector.id}
          path={previewing.path}
          name={previewing.name}
          onDuration={(seconds) => setHeard((known) => ({ ...known, [previewing.path]: seconds }))}
          onClose={() => setPreviewing(null)}
        />
      )}
    </Stack>
  );
}
