import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowsSplit, IconHistory, IconMicrophone2 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { TOOLS_CREDIT_COST } from '@mixroom/shared';
import { useToolsOverview } from '../features/tools/queries';

const TOOLS = [
  {
    to: '/tools/revoice',
    title: 'Voice Conversion',
    text: 'Replace the voice in a recording with one of six voice presets.',
    icon: IconMicrophone2,
  },
  {
    to: '/tools/stemseparation',
    title: 'Stem Separation',
    text: 'Split a mix into voice and music, or into voice, drums, bass and the rest.',
    icon: IconArrowsSplit,
  },
];

/** /tools: the two tools and the task history. */
export function ToolsPage() {
  const overview = useToolsOverview().data;
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={2}>Tools</Title>
          <Text c="dimmed" size="sm">
            Each task uses {TOOLS_CREDIT_COST} credits
            {overview ? ` · ${overview.credits.remaining} remaining` : ''}.
          </Text>
        </Stack>
        <Button component={Link} to="/tools/history" variant="light" leftSection={<IconHistory size={16} />}>
          My Tasks
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {TOOLS.map(({ to, title, text, icon: Icon }) => (
          <Card
            key={to}
            component={Link}
            to={to}
            withBorder
            radius="md"
            padding="lg"
            data-testid={`tool-card-${to.split('/').pop()}`}
          >
            <Stack gap="sm">
              <ThemeIcon size={44} radius="md" variant="light" color="violet">
                <Icon size={26} />
              </ThemeIcon>
              <Title order={3}>{title}</Title>
              <Text c="dimmed" size="sm">
                {text}
              </Text>
              <Text size="sm" c="violet.4" fw={500}>
                Open →
              </Text>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
