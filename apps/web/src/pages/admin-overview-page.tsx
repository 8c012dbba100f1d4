import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { AdminTabs } from '../features/admin/components/admin-tabs';
import { ToolTasksCard } from '../features/admin/components/tool-tasks';
import { useServerOverview } from '../features/admin/queries';
import { formatBytes, formatDate } from '../lib/format/format';

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card withBorder radius="lg" padding="md">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} mt={4}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" mt={2}>
          {hint}
        </Text>
      )}
    </Card>
  );
}

const DRIVERS = { pglite: 'PGlite (embedded)', postgres: 'PostgreSQL', disk: 'Local disk', s3: 'S3-compatible' };

/** /admin/overview: the server at a glance for whoever runs it. */
export function AdminOverviewPage() {
  const overview = useServerOverview();
  const o = overview.data;
  return (
    <Stack gap="md">
      <AdminTabs />
      <Title order={2}>Server</Title>
      {o && (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
            <Figure
              label="Version"
              value={`Mixroom ${o.version}`}
              hint={`Node ${o.nodeVersion} · running since ${formatDate(o.startedAt)}`}
            />
            <Figure
              label="Users"
              value={o.users.total.toLocaleString()}
              hint={`${o.users.admins} ${o.users.admins === 1 ? 'administrator' : 'administrators'} · ${o.users.disabled} disabled · ${o.users.newThisMonth} new this month`}
            />
            <Figure
              label="Storage used"
              value={formatBytes(o.storage.usedBytes)}
              hint={`${o.storage.files.toLocaleString()} files`}
            />
            <Figure
              label="Jobs"
              value={`${o.queue.queued} queued`}
              hint={
                <>
                  {o.queue.active} running ·{' '}
                  <Text span c={o.queue.failed ? 'red' : 'dimmed'} size="xs" inherit>
                    {o.queue.failed} failed
                  </Text>
                </>
              }
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Card withBorder radius="lg" padding="md">
              <Text fw={700} mb="xs">
                Setup
              </Text>
              <Stack gap={6}>
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    Database
                  </Text>
                  <Text size="sm">{DRIVERS[o.database.driver]}</Text>
                </Group>
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    File storage
                  </Text>
                  <Text size="sm">{DRIVERS[o.storage.driver]}</Text>
                </Group>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" c="dimmed">
                    Sign-in
                  </Text>
                  <Text size="sm" ta="right" style={{ overflowWrap: 'anywhere' }}>
                    {o.identity.mode === 'embedded' ? 'Embedded accounts' : `External issuer ${o.identity.issuer}`}
                  </Text>
                </Group>
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    This node runs
                  </Text>
                  <Group gap={4}>
                    {o.roles.map((r) => (
                      <Badge key={r} variant="light" size="sm">
                        {r}
                      </Badge>
                    ))}
                  </Group>
                </Group>
              </Stack>
            </Card>
            <Card withBorder radius="lg" padding="md">
              <Text fw={700} mb="xs">
                Job queues
              </Text>
              {o.queue.queues.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No jobs waiting, running or failed.
                </Text>
              ) : (
                <Table verticalSpacing={4} data-testid="queues-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Queue</Table.Th>
                      <Table.Th ta="right">Queued</Table.Th>
                      <Table.Th ta="right">Running</Table.Th>
                      <Table.Th ta="right">Failed</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {o.queue.queues.map((q) => (
                      <Table.Tr key={q.name}>
                        <Table.Td>
                          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                            {q.name}
                          </Text>
                        </Table.Td>
                        <Table.Td ta="right">{q.queued}</Table.Td>
                        <Table.Td ta="right">{q.active}</Table.Td>
                        <Table.Td ta="right" c={q.failed ? 'red' : undefined}>
                          {q.failed}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Card>
          </SimpleGrid>
        </>
      )}
      <ToolTasksCard />
    </Stack>
  );
}
