import { Card, Group, Progress, Stack, Text } from '@mantine/core';
import type { EntitlementsSummary } from '@mixroom/contracts';
import { IconDatabase } from '@tabler/icons-react';
import { formatBytes } from '../../../lib/format/format';

const KIND_LABELS: Record<EntitlementsSummary['storage']['breakdown'][number]['kind'], string> = {
  projects: 'Projects and versions',
  attachments: 'Attachments',
  trash: 'In the trash',
  transfers: 'Transfers',
  incoming: 'Uploads from others in progress',
};

/** Used storage against the plan's limit (used ÷ limit), and what takes it. */
export function StorageCard({ storage }: { storage: EntitlementsSummary['storage'] }) {
  const { usedBytes, limitBytes, breakdown } = storage;
  const percent = limitBytes ? Math.min(100, (usedBytes / limitBytes) * 100) : 0;
  const color = percent >= 90 ? 'red' : percent >= 75 ? 'orange' : 'violet';
  return (
    <Card withBorder radius="lg" padding="lg" h="100%">
      <Group gap="xs" mb="xs">
        <IconDatabase size={20} color="var(--mantine-color-violet-4)" />
        <Text fw={700}>Used storage</Text>
      </Group>
      <Text size="xl" fw={700}>
        {formatBytes(usedBytes)}{' '}
        <Text span c="dimmed" size="md" fw={400}>
          of {limitBytes === null ? 'unlimited' : formatBytes(limitBytes)}
        </Text>
      </Text>
      {limitBytes !== null && (
        <>
          <Progress value={percent} color={color} size="lg" radius="xl" mt="sm" aria-label="Used storage" />
          <Text size="xs" c="dimmed" mt={4}>
            {percent < 1 && usedBytes > 0 ? 'Less than 1%' : `${Math.round(percent)}%`} used
          </Text>
        </>
      )}
      <Stack gap={4} mt="md">
        {breakdown.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing stored yet.
          </Text>
        ) : (
          breakdown.map((use) => (
            <Group key={use.kind} justify="space-between" wrap="nowrap">
              <Text size="sm">{KIND_LABELS[use.kind]}</Text>
              <Text size="sm" c="dimmed">
                {formatBytes(use.bytes)}
              </Text>
            </Group>
          ))
        )}
      </Stack>
    </Card>
  );
}
