import { Badge, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { MESSAGES } from '@mixroom/shared';

/** An honest placeholder for screens that later work builds: what it will do, and that it isn't here yet. */
export function NotAvailablePage({ feature, description }: { feature: string; description: string }) {
  return (
    <Center mih="60vh">
      <Paper withBorder radius="lg" p="xl" maw={480} w="100%">
        <Stack align="center" ta="center" gap="sm">
          <IconTools size={48} stroke={1.3} color="var(--mantine-color-violet-4)" />
          <Title order={2}>{feature}</Title>
          <Text c="dimmed">{description}</Text>
          <Badge variant="light" color="gray" size="lg">
            {MESSAGES.notAvailableYet}
          </Badge>
        </Stack>
      </Paper>
    </Center>
  );
}
