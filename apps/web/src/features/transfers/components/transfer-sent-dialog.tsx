import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCopy } from '@tabler/icons-react';
import { TRANSFER_TEXTS } from '../transfer-rules';
import { copyTransferLink, CopyLinkField } from './copy-link-field';

/** After a transfer went out: its link, to copy. Closing it leads to the history. */
export function TransferSentDialog({ url, onClose }: { url: string | null; onClose: () => void }) {
  return (
    <Modal opened={Boolean(url)} onClose={onClose} title="Success" centered size="lg">
      {url && (
        <Stack>
          <Group gap="sm" wrap="nowrap">
            <IconCircleCheck size={28} color="var(--mantine-color-teal-5)" style={{ flexShrink: 0 }} />
            <Text fw={600}>{TRANSFER_TEXTS.sent}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            Anyone with this link can download the files until the transfer expires.
          </Text>
          <CopyLinkField url={url} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button leftSection={<IconCopy size={16} />} onClick={() => void copyTransferLink(url)}>
              Copy link
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
