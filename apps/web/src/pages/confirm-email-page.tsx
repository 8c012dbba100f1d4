import { Alert, Button, Center, Loader, Paper, Stack, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { confirmEmail } from '../features/settings/api';
import { Logo } from '../components/logo';

/** The page the confirmation mail links to: the address changes once this page has loaded. */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<{ ok: boolean; message: string } | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    confirmEmail(token).then(
      (answer) => setState({ ok: true, message: `${answer.message} You now sign in with ${answer.email}.` }),
      (error: unknown) =>
        setState({ ok: false, message: error instanceof Error ? error.message : 'Something went wrong.' }),
    );
  }, [token]);
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder radius="lg" p="xl" w="100%" maw={420}>
        <Stack>
          <Logo to="/public/landing" />
          <Title order={2}>Confirm your e-mail</Title>
          {!state ? (
            <Loader />
          ) : (
            <>
              <Alert color={state.ok ? 'teal' : 'red'}>{state.message}</Alert>
              <Button component={Link} to="/settings">
                Go to settings
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
