import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconMapQuestion, IconUserX } from '@tabler/icons-react';
import { Link } from 'react-router';

const PAGES = {
  forbidden: { icon: IconLock, title: 'Access denied', text: 'Your account is not allowed to open this page.' },
  unauthorized: { icon: IconUserX, title: 'Not signed in', text: 'Sign in to open this page.' },
  'not-found': { icon: IconMapQuestion, title: 'Page not found', text: 'There is nothing at this address.' },
} as const;

export function StatusPage({ kind }: { kind: keyof typeof PAGES }) {
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
