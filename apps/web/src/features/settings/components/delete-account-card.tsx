import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { Me } from '@mixroom/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-context';
import { deleteAccount } from '../api';
import { useAccountMutation } from '../queries';

/**
 * Delete account: typing the e-mail confirms; while a paid subscription runs the server refuses and
 * the dialog offers the subscription management instead. A plan an administrator gave does not
 * block it: the server says what ends with the account, and a second confirmation goes ahead.
 */
export function DeleteAccountCard({ me }: { me: Me }) {
  const { signOut } = useAuth();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<string | null>(null);
  const [granted, setGranted] = useState<string | null>(null);
  const remove = useAccountMutation(deleteAccount, { silent: true });
  const manageUrl =
    me.entitlements.subscriptions.find((s) => s.manageUrl)?.manageUrl ?? me.entitlements.billing.shopUrl ?? null;
  const matches = typed.trim().toLowerCase() === me.email.toLowerCase();
  const submit = (endGrantedPlans = false) =>
    remove.mutate(
      { email: typed, ...(endGrantedPlans ? { endGrantedPlans } : {}) },
      {
        onSuccess: (answer) => signOut({ confirm: false, reason: 'deleted', message: answer.message }),
        onError: (failure) => {
          if (failure instanceof ApiError && failure.code === 'SUBSCRIPTION_ACTIVE') setBlocked(failure.message);
          else if (failure instanceof ApiError && failure.code === 'PLAN_GRANTED') setGranted(failure.message);
          else setError(failure.message);
        },
      },
    );
  return (
    <Card withBorder radius="lg" padding="lg" style={{ borderColor: 'var(--mantine-color-red-9)' }}>
      <Group justify="space-between" wrap="wrap" gap="md">
        <div style={{ flex: 1, minWidth: 240 }}>
          <Group gap="xs">
            <IconAlertTriangle size={20} color="var(--mantine-color-red-5)" />
            <Text fw={700}>Delete account</Text>
          </Group>
          <Text size="sm" c="dimmed">
            Deletes your folders, projects and files, your comments and your account for good. People you shared with
            lose access to them and are told.
          </Text>
        </div>
        <Button
          color="red"
          variant="light"
          onClick={() => {
            setTyped('');
            setError(null);
            setBlocked(null);
            setGranted(null);
            setOpen(true);
          }}
        >
          Delete account
        </Button>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title="Delete account" centered>
        {blocked ? (
          <Stack>
            <Alert color="orange">{blocked}</Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Close
              </Button>
              {manageUrl && (
                <Button component="a" href={manageUrl} target="_blank" rel="noreferrer">
                  Manage subscription
                </Button>
              )}
            </Group>
          </Stack>
        ) : granted ? (
          <Stack>
            <Alert color="orange" title="Your plan ends with your account">
              {granted}
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Keep my account
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => submit(true)}>
                Delete account and plan
              </Button>
            </Group>
          </Stack>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (matches) submit();
            }}
          >
            <Stack>
              <Text size="sm">
                This cannot be undone. Type <b>{me.email}</b> to confirm.
              </Text>
              {error && <Alert color="red">{error}</Alert>}
              <TextInput
                label="Your e-mail"
                value={typed}
                onChange={(event) => setTyped(event.currentTarget.value)}
                autoComplete="off"
                data-autofocus
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
                  Delete my account
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </Card>
  );
}
