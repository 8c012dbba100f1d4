import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { passwordResetConfirmBody } from '@mixroom/contracts';
import { checkPasswordStrength, MESSAGES } from '@mixroom/shared';
import { Logo } from '../components/logo';
import { api, ApiError } from '../lib/api-client';

/** The page the password-reset e-mail links to. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordResetConfirmBody.safeParse({ token, password });
    if (!parsed.success) {
      setError(
        parsed.error.issues[0]?.path[0] === 'token'
          ? MESSAGES.passwordResetInvalid
          : (parsed.error.issues[0]?.message ?? null),
      );
      return;
    }
    // The server's rule for new passwords (it also weighs the account's own name and e-mail).
    const strength = checkPasswordStrength(password);
    if (!strength.ok) {
      setError(strength.message);
      return;
    }
    setBusy(true);
    try {
      await api('/api/auth/password-reset/confirm', { method: 'POST', body: parsed.data });
      setDone(true);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : MESSAGES.genericError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder radius="lg" p="xl" w="100%" maw={420}>
        <Stack>
          <Logo to="/public/landing" />
          <Title order={2}>Choose a new password</Title>
          {done ? (
            <>
              <Alert color="teal">{MESSAGES.passwordChanged}</Alert>
              <Button component={Link} to="/public/sign-in">
                Sign in
              </Button>
            </>
          ) : (
            <form onSubmit={(e) => void submit(e)} noValidate>
              <Stack>
                {error && <Alert color="red">{error}</Alert>}
                <PasswordInput
                  label="New password"
                  autoComplete="new-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  required
                />
                <Text size="xs" c="dimmed">
                  At least 8 characters.
                </Text>
                <Button type="submit" loading={busy}>
                  Save password
                </Button>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
