import { ActionIcon, Button, Card, Code, Group, PasswordInput, Stack, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconEye, IconEyeOff, IconLock, IconLockOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { copyTransferPassword } from './copy-password';

/**
 * The transfer's password: the server keeps only a one-way hash, so a password set earlier is
 * never shown back (see docs/TRANSFERS.md). It can be set, changed (typed with show/hide) or
 * removed; the one just set stays on this page to show, hide and copy for the recipients.
 */
export function PasswordCard({
  hasPassword,
  allowed,
  saving,
  onSave,
}: {
  hasPassword: boolean;
  allowed: boolean;
  saving: boolean;
  onSave: (password: string | null) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [justSet, setJustSet] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const save = (password: string | null) =>
    void onSave(password).then(() => {
      setEditing(false);
      setValue('');
      setJustSet(password);
      setRevealed(false);
    });
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap">
            {hasPassword ? <IconLock size={16} /> : <IconLockOpen size={16} />}
            <Text fw={600}>Password</Text>
          </Group>
          {!editing && (
            <Button size="xs" variant="light" disabled={!allowed} onClick={() => setEditing(true)}>
              {hasPassword ? 'Change' : 'Set a password'}
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {hasPassword
            ? 'Recipients need the password to open the link.'
            : allowed
              ? 'Anyone with the link can open it.'
              : 'Password protection comes with the Essential and Studio plans.'}
        </Text>
        {hasPassword && justSet ? (
          <Group gap="xs" wrap="nowrap" data-testid="password-just-set">
            <Code style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
              {revealed ? justSet : '•'.repeat(Math.min(justSet.length, 16))}
            </Code>
            <Tooltip label={revealed ? 'Hide the password' : 'Show the password'}>
              <ActionIcon
                variant="subtle"
                aria-label={revealed ? 'Hide the password' : 'Show the password'}
                onClick={() => setRevealed((r) => !r)}
              >
                {revealed ? <IconEyeOff size={16} /> : <IconEye size={16} />}
              </ActionIcon>
            </Tooltip>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconCopy size={14} />}
              onClick={() => void copyTransferPassword(justSet)}
            >
              Copy the password
            </Button>
          </Group>
        ) : (
          hasPassword && (
            <Text size="xs" c="dimmed">
              A password set earlier can’t be shown again: Mixroom keeps only a one-way hash of it. Change it to set one
              you can copy.
            </Text>
          )
        )}
        {editing && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (value) save(value);
            }}
          >
            <Stack gap="xs">
              <PasswordInput
                label="New password"
                autoComplete="new-password"
                value={value}
                autoFocus
                onChange={(e) => setValue(e.currentTarget.value)}
              />
              <Group gap="xs" justify="flex-end">
                {hasPassword && (
                  <Button variant="subtle" color="red" size="xs" disabled={saving} onClick={() => save(null)}>
                    Remove password
                  </Button>
                )}
                <Button variant="default" size="xs" onClick={() => setEditing(false)}>
                  Cancel
                </Button>
                <Button type="submit" size="xs" loading={saving} disabled={!value}>
                  Save password
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}
