import {
  Badge,
  Card,
  Group,
  Pagination,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LIMITS } from '@mixroom/shared';
import { AdminTabs } from '../features/admin/components/admin-tabs';
import { ACTION_LABELS, AuditChange } from '../features/admin/components/audit-change';
import { useAuditLog } from '../features/admin/queries';

const when = (iso: string) => new Date(iso).toLocaleString();

/** /admin/audit: every administrator action, newest first, filtered by who acted and on whom. */
export function AdminAuditPage() {
  const [params, setParams] = useSearchParams();
  const [actor, setActor] = useState(params.get('actor') ?? '');
  const [target, setTarget] = useState(params.get('target') ?? '');
  const [filters] = useDebouncedValue({ actor: actor.trim(), target: target.trim() }, LIMITS.searchDebounceMs);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(LIMITS.adminPageSizes[0]);
  const log = useAuditLog({ ...filters, page, pageSize });
  const compact = useMediaQuery('(max-width: 999px)') ?? false;
  const entries = log.data?.entries ?? [];
  const filter = (key: 'actor' | 'target', value: string) => {
    (key === 'actor' ? setActor : setTarget)(value);
    setPage(1);
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="md">
      <AdminTabs />
      <Title order={2}>Audit log ({log.data?.total ?? 0})</Title>
      <Card withBorder radius="lg" padding="md">
        <Group gap="sm" wrap="wrap">
          <TextInput
            label="Administrator"
            placeholder="uid or e-mail"
            value={actor}
            onChange={(e) => filter('actor', e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
          <TextInput
            label="Account"
            placeholder="uid or e-mail"
            value={target}
            onChange={(e) => filter('target', e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
        </Group>
      </Card>
      {entries.length === 0 && log.data && (
        <Text c="dimmed" ta="center" py="lg">
          No administrator actions{filters.actor || filters.target ? ' match these filters' : ' yet'}.
        </Text>
      )}
      {compact ? (
        <Stack gap="sm" data-testid="audit-cards">
          {entries.map((e) => (
            <Card key={e.id} withBorder radius="md" padding="sm" data-testid="audit-entry">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Badge variant="light">{ACTION_LABELS[e.action]}</Badge>
                <Text size="xs" c="dimmed">
                  {when(e.at)}
                </Text>
              </Group>
              <Text size="sm" mt={6} style={{ overflowWrap: 'anywhere' }}>
                {e.actor.label} → {e.target.label}
              </Text>
              <AuditChange entry={e} />
            </Card>
          ))}
        </Stack>
      ) : (
        entries.length > 0 && (
          <Card withBorder radius="lg" padding={0}>
            <ScrollArea type="auto" offsetScrollbars="x">
              <Table verticalSpacing="sm" miw={900} data-testid="audit-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Administrator</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th>Account</Table.Th>
                    <Table.Th>Before → after</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {entries.map((e) => (
                    <Table.Tr key={e.id} data-testid="audit-entry">
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {when(e.at)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{e.actor.label}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light">{ACTION_LABELS[e.action]}</Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{e.target.label}</Text>
                      </Table.Td>
                      <Table.Td>
                        <AuditChange entry={e} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Card>
        )
      )}
      <Group justify="space-between" wrap="wrap-reverse" gap="sm">
        <Select
          w={110}
          aria-label="Page size"
          value={String(pageSize)}
          onChange={(v) => {
            setPageSize(Number(v));
            setPage(1);
          }}
          data={LIMITS.adminPageSizes.map((n) => String(n))}
          allowDeselect={false}
        />
        <Pagination
          size="sm"
          siblings={compact ? 0 : 1}
          total={Math.max(1, Math.ceil((log.data?.total ?? 0) / pageSize))}
          value={page}
          onChange={setPage}
        />
      </Group>
    </Stack>
  );
}
