import { ActionIcon, Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { emailChangeBody, type Me } from '@mixroom/contracts';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { changeEmail } from '../api';
import { useAccountMutation } from '../queries';

/**
 * The e-mail address, and a change that only happens once the new address confirms it. The current
 * password is asked again, so a session left open can't move the account elsewhere.
 */
export function EmailField({ me }: { me: Me }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ask = useAccountMutation(changeEmail, { silent: true });
  const submit = () => {
    const parsed = emailChangeBody.safeParse({ email: value, currentPassword: password });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please enter a valid e-mail address.');
    ask.mutate(parsed.data, { onSuccess: () => setOpen(false), onError: (failure) => setError(failure.message) });
  };
  return (
    <div>
      <Text size="xs" c="dimmed">
        E-mail
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Text truncate data-testid="email">
          {me.email}
        </Text>
        {me.capabilities.changeEmail && (
          <ActionIcon
            variant="subtle"
            aria-label="Change e-mail"
            onClick={() => {
              setValue('');
              setPassword('');
              setError(null);
              setOpen(true);
            }}
          >
            <IconPencil size={16} />
          </ActionIcon>
        )}
      </Group>
      {me.pendingEmail && (
        <Text size="xs" c="orange.4">
          Waiting for you to confirm {me.pendingEmail}: open the link we sent there.
        </Text>
      )}
      <Modal opened={open} onClose={() => setOpen(false)} title="Change e-mail" centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack>
            <Text size="sm">
              We send a confirmation link to the new address. Your account keeps {me.email} until you open it, and we
              tell {me.email} about the change.
            </Text>
            {error && <Alert color="red">{error}</Alert>}
            <TextInput
              label="New e-mail"
              type="email"
              autoComplete="email"
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              data-autofocus
            />
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={ask.isPending}>
                Send link
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </div>
  );
}
