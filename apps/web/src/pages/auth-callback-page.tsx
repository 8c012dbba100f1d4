import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../lib/auth/auth-context';

/** Completes the authorization-code flow and returns to the remembered URL, or /groups. */
export function AuthCallbackPage() {
  const { completeSignIn } = useAuth();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    // The code can be exchanged once; StrictMode runs effects twice in development.
    if (started.current) return;
    started.current = true;
    completeSignIn().then(
      (to) => void navigate(to, { replace: true }),
      () => setFailed(true),
    );
  }, [completeSignIn, navigate]);

  return (
    <Center h="100vh">
      {failed ? (
        <Stack align="center">
          <Text>Sign-in could not be completed.</Text>
          <Button component={Link} to="/public/sign-in">
            Try again
          </Button>
        </Stack>
      ) : (
        <Loader color="violet" />
      )}
    </Center>
  );
}
