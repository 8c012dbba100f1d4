import { Button, FileButton, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconDeviceDesktop, IconFileMusic } from '@tabler/icons-react';
import { useState } from 'react';
import { formatBytes } from '../../../lib/format/format';
import type { PickedFile } from '../api';
import type { AcceptedFiles } from '../folder-view-rules';
import { CONNECTOR_LABELS, useConnectors } from '../queries';
import { FolderView } from './folder-view';

export type { AcceptedFiles } from '../folder-view-rules';

/**
 * The cloud storage browser: Mixroom's own storage first (a file from this computer, uploaded
 * directly), then each linked account, browsed folder by folder with breadcrumbs, sizes and a search
 * (of the whole account where the provider offers one, else of the open folder). Files whose
 * extension is not accepted are shown but can't be picked.
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
