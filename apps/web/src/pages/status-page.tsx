import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconMapQuestion, IconUserExclamation, IconUserX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useAuth } from '../lib/auth/auth-context';

const PAGES = {
  forbidden: { icon: IconLock, title: 'Access denied', text: 'Your account is not allowed to open this page.' },
  unauthorized: { icon: IconUserX, title: 'Not signed in', text: 'Sign in to open this page.' },
  'not-found': { icon: IconMapQuestion, title: 'Page not found', text: 'There is nothing at this address.' },
} as const;

/** Someone signed in who still lands on /unauthorized: their account could not be loaded or verified. */
const UNVERIFIED = {
  icon: IconUserExclamation,
  title: 'Your account could not be verified',
  text: 'You are signed in, but Mixroom could not load your account. Sign in again, or try your groups in a moment.',
};

export function StatusPage({ kind }: { kind: keyof typeof PAGES }) {
  const { user, signIn } = useAuth();
  if (kind === 'unauthorized' && user) {
    return (
      <Center mih="70vh" p="lg">
        <Stack align="center" gap="sm" maw={420} ta="center">
          <UNVERIFIED.icon size={56} stroke={1.3} color="var(--mantine-color-violet-4)" />
          <Title order={2}>{UNVERIFIED.title}</Title>
          <Text c="dimmed">{UNVERIFIED.text}</Text>
          <Group mt="sm">
            <Button variant="default" component={Link} to="/groups">
              Back to my groups
            </Button>
            <Button onClick={() => void signIn({ screen: 'signin', returnTo: '/groups' })}>Sign in again</Button>
          </Group>
        </Stack>
      </Center>
    );
  }
  const page = PAGES[kind];
  return (
    <Center mih="70vh" p="lg">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <page.icon size={56} stroke={1.3} color="var(--mantine-color-violet-4)" />
        <Title order={2}>{page.title}</Title>
        <Text c="dimmed">{page.text}</Text>
        <Button component={Link} to={kind === 'unauthorized' ? '/public/sign-in' : '/groups'} mt="sm">
          {kind === 'unauthorized' ? 'Sign in' : 'Back to my groups'}
        </Button>
      </Stack>
    </Center>
  );
}
