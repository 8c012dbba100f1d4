import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { TRANSFER_TEXTS } from '../transfer-rules';
import { copyTransferLink, CopyLinkField } from './copy-link-field';
import { copyTransferPassword } from './copy-password';

/** Who was told by e-mail, in a sentence: one or two names, or the first and how many more. */
function mailedTo(recipients: string[]): string {
  if (recipients.length <= 2) return recipients.join(' and ');
  return `${recipients[0]} and ${recipients.length - 1} others`;
}

/** Who can open the link, in a sentence: anyone who has it, or, with a password, only those who also have that. */
function whoCanOpen(sent: { recipients: string[]; password: string | null }): string {
  const mailed = sent.recipients.length > 0 ? `An e-mail with the link went to ${mailedTo(sent.recipients)}. ` : '';
  if (sent.password)
    return `${mailed}Recipients need the password to open it, until the transfer expires. The password is not in any e-mail: give it to them another way.`;
  if (mailed) return `${mailed}The link works for anyone who has it, until the transfer expires.`;
  return 'Anyone with this link can download the files until the transfer expires.';
}

/** After a transfer went out: its link (and its password, when it has one) to copy. Closing it leads to the history. */
export function TransferSentDialog({
  sent,
  onClose,
}: {
  sent: { url: string; recipients: string[]; password: string | null } | null;
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
            {whoCanOpen(sent)}
          </Text>
          <CopyLinkField url={url} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            {sent.password && (
              <Button
                variant="light"
                leftSection={<IconKey size={16} />}
                onClick={() => sent.password && void copyTransferPassword(sent.password)}
              >
                Copy the password
              </Button>
            )}
            <Button leftSection={<IconCopy size={16} />} onClick={() => void copyTransferLink(url)}>
              Copy link
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
