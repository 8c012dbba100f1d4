import { Alert, Button, Group, Modal, Stack, Tabs, Text } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import { useState } from 'react';
import type { Connector, ConnectorTransfer } from '@mixroom/contracts';
import { CONNECTOR_LABELS, followTransfer, useConnectors } from '../queries';
import { FolderView } from './folder-view';

const NO_FILES: readonly string[] = [];
const ignorePick = () => undefined;

/**
 * "Save to…": pick a linked account and a folder in it, then the server copies there in the
 * background (the Activities panel follows the copy; closing this dialog does not stop it). Files
 * in the folders are shown, greyed, so the user sees what is already there.
 */
export function SaveToDialog({
  opened,
  what,
  onClose,
  save,
}: {
  opened: boolean;
  /** What is saved, as the dialog names it: “Album” as a ZIP. */
  what: string;
  onClose: () => void;
  save: (connector: Connector, folder: string) => Promise<ConnectorTransfer>;
}) {
  const linked = useConnectors().data?.linked ?? [];
  const [tab, setTab] = useState<string | null>(null);
  const [folders, setFolders] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = linked.find((c) => c.id === tab) ?? linked[0];
  const folder = current ? (folders[current.id] ?? '/') : '/';

  const close = () => {
    setError(null);
    setFolders({});
    setTab(null);
    onClose();
  };
  const submit = async () => {
    if (!current) return;
    setPending(true);
    setError(null);
    try {
      const transfer = await save(current, folder);
      followTransfer(transfer, `${transfer.fileName} → ${current.accountName}`);
      close();
    } catch (failure) {
      // Said in place, in the server's words: a folder gone meanwhile, rights withdrawn, nothing to save.
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Save to…" size="lg" centered>
      <Stack gap="sm">
        <Text size="sm">
          Save {what} into a folder of a linked account. The server copies it in the background; Activities shows the
          progress.
        </Text>
        {current && (
          <Tabs value={current.id} onChange={(value) => setTab(value)}>
            <Tabs.List>
              {linked.map((c) => (
                <Tabs.Tab key={c.id} value={c.id}>
                  {CONNECTOR_LABELS[c.kind]}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {linked.map((c) => (
              <Tabs.Panel key={c.id} value={c.id} pt="sm">
                <FolderView
                  connector={c}
                  accept={NO_FILES}
                  picked={null}
                  onPick={ignorePick}
                  onFolder={(path) => setFolders((f) => ({ ...f, [c.id]: path }))}
                />
              </Tabs.Panel>
            ))}
          </Tabs>
        )}
        {error && (
          <Alert color="red" title="Not saved">
            {error}
          </Alert>
        )}
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm" c="dimmed" truncate style={{ minWidth: 0, flex: '1 1 12rem' }} title={folder}>
            Into: <b>{folder}</b>
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              leftSection={<IconCloudUpload size={16} />}
              loading={pending}
              disabled={!current}
              onClick={() => void submit()}
            >
              Save here
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
