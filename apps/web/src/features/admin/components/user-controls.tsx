import { Button, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { AdminUser } from '@mixroom/contracts';
import { useSetFlags, useSetStatus } from '../queries';
import { Section } from './section';

/** Why a control is off, from the capabilities the server sent: the screen decides nothing itself. */
function removeAdminHint(user: AdminUser): string | null {
  if (!user.isAdmin) return user.capabilities.canMakeAdmin ? null : 'Enable the account first.';
  return user.capabilities.canRemoveAdmin ? null : 'The last administrator stays one.';
}

/** canBroadcast and isAdmin, and the account's status (disabling signs it out everywhere). */
export function UserControls({ user }: { user: AdminUser }) {
  const flags = useSetFlags();
  const status = useSetStatus();
  const adminHint = removeAdminHint(user);
  const confirmDisable = () =>
    modals.openConfirmModal({
      title: `Disable ${user.displayName}?`,
      children: (
        <Text size="sm">
          {user.email} is signed out on every device at once and can&apos;t sign in until the account is enabled again.
          Their files stay where they are.
        </Text>
      ),
      labels: { confirm: 'Disable account', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => status.mutate({ userId: user.id, disabled: true }),
    });
  return (
    <Section title="Access">
      <Stack gap="xs">
        <Switch
          label="canBroadcast"
          checked={user.canBroadcast}
          disabled={flags.isPending}
          onChange={(e) => flags.mutate({ userId: user.id, canBroadcast: e.currentTarget.checked })}
        />
        <Tooltip label={adminHint} disabled={!adminHint} position="top-start">
          <div>
            <Switch
              label="isAdmin"
              checked={user.isAdmin}
              disabled={flags.isPending || Boolean(adminHint)}
              onChange={(e) => flags.mutate({ userId: user.id, isAdmin: e.currentTarget.checked })}
            />
          </div>
        </Tooltip>
        {user.disabled ? (
          <Button
            size="xs"
            variant="light"
            color="teal"
            w="fit-content"
            disabled={!user.capabilities.canEnable}
            loading={status.isPending}
            onClick={() => status.mutate({ userId: user.id, disabled: false })}
          >
            Enable account
          </Button>
        ) : (
          <Tooltip
            label={user.isAdmin ? 'The last administrator stays enabled.' : "You can't disable your own account."}
            disabled={user.capabilities.canDisable}
            position="top-start"
          >
            <Button
              size="xs"
              variant="light"
              color="red"
              w="fit-content"
              disabled={!user.capabilities.canDisable}
              loading={status.isPending}
              onClick={confirmDisable}
            >
              Disable account
            </Button>
          </Tooltip>
        )}
      </Stack>
    </Section>
  );
}
