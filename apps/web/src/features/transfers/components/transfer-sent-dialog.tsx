import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCopy } from '@tabler/icons-react';
import { TRANSFER_TEXTS } from '../transfer-rules';
import { copyTransferLink, CopyLinkField } from './copy-link-field';

/** Who was told by e-mail, in a sentence: one or two names, or the first and how many more. */
function mailedTo(recipients: string[]): string {
  if (recipients.length <= 2) return recipients.join(' and ');
  return `${recipients[0]} and ${recipients.length - 1} others`;
}

/** After a transfer went out: its link, to copy. Closing it leads to the history. */
export function TransferSentDialog({
  sent,
  onClose,
}: {
  sent: { url: string; recipients: string[] } | null;
  onClose: () => void;
}) {
  const url = sent?.url;
  return (
    <Modal opened={Boolean(sent)} onClose={onClose} title="Success" centered size="lg">
      {sent && url && (
        <Stack>
          <Group gap="sm" wrap="nowrap">
            <IconCircleCheck size={28} color="var(--mantine-color-teal-5)" style={{ flexShrink: 0 }} />
            <Text fw={600}>{TRANSFER_TEXTS.sent}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            {sent.recipients.length > 0
              ? `An e-mail with the link went to ${mailedTo(sent.recipients)}. The link works for anyone who has it, until the transfer expires.`
              : 'Anyone with this link can download the files until the transfer expires.'}
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
