import { Alert, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { MESSAGES } from '@mixroom/shared';
import { Navigate, useSearchParams } from 'react-router';
import { Logo } from '../components/logo';
import { useAuth } from '../lib/auth/auth-context';

/** /public/sign-in: where the login guard sends visitors; it starts the OIDC flow. */
export function SignInPage() {
  const { user, signIn } = useAuth();
  const [params] = useSearchParams();
  const disabled = params.get('reason') === 'disabled';
  if (user) return <Navigate to="/groups" replace />;
  return (
    <Center
      mih="100vh"
      p="md"
      style={{ background: 'radial-gradient(circle at 30% 20%, rgba(151,117,250,.18), transparent 60%)' }}
    >
      <Paper withBorder radius="lg" p="xl" w="100%" maw={420} shadow="xl">
        <Stack gap="lg">
          <Logo to="/public/landing" />
          {disabled && (
            <Alert color="red" variant="light" icon={<IconLock size={18} />} title="Account disabled">
              {MESSAGES.accountDisabled}
            </Alert>
          )}
          <div>
            <Title order={2}>Welcome back</Title>
            <Text c="dimmed" size="sm">
              Sign in to open your projects, versions and comments.
            </Text>
          </div>
          <Button size="md" onClick={() => void signIn({ screen: 'signin' })}>
            Sign in
          </Button>
          <Button size="md" variant="default" onClick={() => void signIn({ screen: 'signup' })}>
            Create an account
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
