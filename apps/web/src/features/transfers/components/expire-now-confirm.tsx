import { List, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { TRANSFER_GRACE_DAYS } from '@mixroom/shared';

/**
 * Asks before a live transfer ends early, naming who loses access (the recipients it was mailed to,
 * or anyone holding the link) and whether it can come back (a reload, on plans that have one).
 */
export function confirmExpireNow({
  name,
  recipients,
  canReload,
  onConfirm,
}: {
  name: string;
  recipients: string[];
  canReload: boolean;
  onConfirm: () => void;
}): void {
  modals.openConfirmModal({
    title: 'Expire this transfer now?',
    centered: true,
    children: (
      <Stack gap="xs">
        <Text size="sm">
          “{name}” stops working at once: its link, its files and its downloads.{' '}
          {recipients.length > 0 ? 'These recipients lose access:' : 'Everyone who has the link loses access.'}
        </Text>
        {recipients.length > 0 && (
          <List size="sm" spacing={2} style={{ overflowWrap: 'anywhere' }}>
            {recipients.map((email) => (
              <List.Item key={email}>{email}</List.Item>
            ))}
          </List>
        )}
        {recipients.length > 0 && <Text size="sm">Anyone else who has the link loses access too.</Text>}
        <Text size="sm" c="dimmed">
          {canReload
            ? `You can reload it from My Transfers within ${TRANSFER_GRACE_DAYS} days.`
            : "Your plan can't reload an expired transfer, so this can't be undone."}
        </Text>
      </Stack>
    ),
    labels: { confirm: 'Expire now', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
