import { Button, Card, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useState } from 'react';

/**
 * The transfer's password: the server keeps only a hash, so it is never shown back; it can be set,
 * changed (typed with show/hide) or removed.
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
  const save = (password: string | null) =>
    void onSave(password).then(() => {
      setEditing(false);
      setValue('');
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
