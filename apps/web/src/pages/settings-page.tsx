import { Avatar, Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { PLANS } from '@mixroom/shared';
import { useMe } from '../features/users/queries';
import { PushCard } from '../features/users/components/push-card';
import { formatBytes, formatDate, formatLimit } from '../lib/format/format';

/** /settings: profile, plans in force and the limits they add up to (the merged-plan rule). */
export function SettingsPage() {
  const me = useMe().data;
  if (!me) return null;
  const { limits } = me;
  const active = me.plans.filter((p) => p.active);
  const rows: [string, string][] = [
    ['Storage', formatBytes(limits.storageMb * 1_000_000)],
    ['Largest transfer', formatBytes(limits.transferMaxBytes)],
    ['Transfers per month', formatLimit(limits.transfersPerMonth)],
    ['Transfer expiry choices', `${limits.transferDurationDays.join(', ')} days`],
    ['Transfer passwords', limits.transferPassword ? 'Yes' : 'No'],
    ['Live guests per room', formatLimit(limits.liveGuests)],
    ['Live session length', limits.liveMaxDurationMs < 0 ? 'Unlimited' : `${limits.liveMaxDurationMs / 60_000} min`],
    ['Live recording and broadcast', limits.liveRecording ? 'Yes' : 'No'],
    ['AI credits per month', String(limits.creditsPerMonth)],
  ];
  return (
    <Stack gap="lg" maw={960}>
      <Title order={2}>Settings</Title>
      <Card withBorder radius="lg" padding="lg">
        <Group>
          <Avatar src={me.photoUrl} name={me.displayName} color="initials" size={64} radius="xl" />
          <div>
            <Group gap="xs">
              <Text fw={700} size="lg">
                {me.displayName}
              </Text>
              {me.isAdmin && <Badge variant="light">Administrator</Badge>}
            </Group>
            <Text c="dimmed">{me.email}</Text>
            <Text size="xs" c="dimmed">
              Member since {formatDate(me.createdAt)}
            </Text>
          </div>
        </Group>
      </Card>
      <PushCard />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder radius="lg" padding="lg">
          <Text fw={700} mb="sm">
            Your plans
          </Text>
          <Stack gap="xs">
            <Group justify="space-between">
              <Text>{PLANS.FREE.name}</Text>
              <Badge color="teal" variant="light">
                Active
              </Badge>
            </Group>
            {active.map((grant) => (
              <Group key={grant.id} justify="space-between">
                <Text>{PLANS[grant.sku].name}</Text>
                <Badge color="teal" variant="light">
                  {grant.endsAt ? `Active until ${formatDate(grant.endsAt)}` : 'Active'}
                </Badge>
              </Group>
            ))}
            <Text size="xs" c="dimmed" mt="sm">
              Plans on this server are assigned by an administrator.
            </Text>
          </Stack>
        </Card>
        <Card withBorder radius="lg" padding="lg">
          <Text fw={700} mb="sm">
            What your plans allow
          </Text>
          <Table withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Td c="dimmed">{label}</Table.Td>
                  <Table.Td ta="right">{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
