import { Avatar, Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { VoiceId } from '@mixroom/contracts';
import { useVoices } from '../queries';

/** The six voices as cards: image (or an initial), name, description, Choose and the selected badge. */
export function VoiceCards({ value, onChange }: { value: VoiceId; onChange: (voice: VoiceId) => void }) {
  const voices = useVoices();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" data-testid="tools-voices">
      {(voices.data ?? []).map((voice) => {
        const selected = voice.id === value;
        return (
          <Card
            key={voice.id}
            withBorder
            radius="md"
            padding="sm"
            data-testid={`voice-${voice.id}`}
            style={selected ? { borderColor: 'var(--mantine-color-violet-5)' } : undefined}
          >
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <Avatar src={voice.imageUrl} radius="xl" size="lg" color="violet" alt={voice.name}>
                {voice.name.slice(0, 1).toUpperCase()}
              </Avatar>
              <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                <Group gap={6} justify="space-between" wrap="nowrap">
                  <Text fw={600}>{voice.name}</Text>
                  {selected && (
                    <Badge size="sm" color="violet" variant="filled">
                      Selected
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {voice.description}
                </Text>
                {!/not a clone/i.test(voice.description) && (
                  <Text size="xs" c="dimmed" fs="italic">
                    Voice preset, not a clone.
                  </Text>
                )}
                <Button
                  size="compact-sm"
                  variant={selected ? 'filled' : 'light'}
                  onClick={() => onChange(voice.id)}
                  aria-pressed={selected}
                  mt={4}
                  style={{ alignSelf: 'flex-start' }}
                >
                  Choose
                </Button>
              </Stack>
            </Group>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
