import { Badge, Box, Button, Center, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconTools } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MESSAGES } from '@mixroom/shared';
import { Logo } from '../components/logo';
import { useAuth } from '../lib/auth/auth-context';

/**
 * An honest placeholder for screens that later work builds: what it will do, that it isn't here yet,
 * and a way back. Public placeholders (outside the signed-in frame) carry the logo themselves.
 */
export function NotAvailablePage({
  feature,
  description,
  standalone = false,
}: {
  feature: string;
  description: string;
  standalone?: boolean;
}) {
  const { user } = useAuth();
  const back =
    standalone && !user
      ? { to: '/public/landing', label: 'Back to Mixroom' }
      : { to: '/groups', label: 'Back to my groups' };
  const card = (
    <Center mih="60vh">
      <Paper withBorder radius="lg" p="xl" maw={480} w="100%">
        <Stack align="center" ta="center" gap="sm">
          <IconTools size={48} stroke={1.3} color="var(--mantine-color-violet-4)" />
          <Title order={2}>{feature}</Title>
          <Text c="dimmed">{description}</Text>
          <Badge variant="light" color="gray" size="lg">
            {MESSAGES.notAvailableYet}
          </Badge>
          <Button component={Link} to={back.to} variant="light" leftSection={<IconArrowLeft size={16} />} mt="sm">
            {back.label}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
  if (!standalone) return card;
  return (
    <Box mih="100vh">
      <Container size="lg" py="md">
        <Group justify="space-between">
          <Logo to={user ? '/groups' : '/public/landing'} />
        </Group>
      </Container>
      <Container size="lg">{card}</Container>
    </Box>
  );
}
