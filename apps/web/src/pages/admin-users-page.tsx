import { Card, Group, Pagination, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { AdminUser } from '@mixroom/contracts';
import { LIMITS } from '@mixroom/shared';
import { AdminTabs } from '../features/admin/components/admin-tabs';
import { UserCards } from '../features/admin/components/user-cards';
import { UsersTable } from '../features/admin/components/users-table';
import { useAdminUsers } from '../features/admin/queries';

/** What the group panel can group the shown page by. */
const GROUPINGS: { value: string; label: string; key: ((u: AdminUser) => string) | null }[] = [
  { value: 'none', label: 'No grouping', key: null },
  { value: 'providerId', label: 'providerId', key: (u) => u.providerId },
  { value: 'authProviders', label: 'authProviders', key: (u) => u.authProviders.join(', ') || '—' },
  { value: 'role', label: 'Role', key: (u) => (u.isAdmin ? 'Administrators' : 'Users') },
  { value: 'status', label: 'Status', key: (u) => (u.disabled ? 'Disabled' : 'Enabled') },
];

/** /admin/users: every account, searched and paged on the server (25/50/100), private data on expand. */
export function AdminUsersPage() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), LIMITS.searchDebounceMs);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(LIMITS.adminPageSizes[0]);
  const [groupBy, setGroupBy] = useState('none');
  const [expanded, setExpanded] = useState<string | null>(null);
  const query = useAdminUsers({ search: debounced, page, pageSize });
  // Below 1000 px the eight columns become one card per account.
  const compact = useMediaQuery('(max-width: 999px)') ?? false;
  const toggle = (id: string) => setExpanded((current) => (current === id ? null : id));
  const data = query.data;

  const groups = useMemo(() => {
    const users = data?.users ?? [];
    const keyOf = GROUPINGS.find((g) => g.value === groupBy)?.key;
    if (!keyOf) return [{ key: '', users }];
    const map = new Map<string, AdminUser[]>();
    for (const user of users) map.set(keyOf(user), [...(map.get(keyOf(user)) ?? []), user]);
    return [...map].map(([key, list]) => ({ key, users: list }));
  }, [data, groupBy]);
  const empty = data?.users.length === 0 ? (debounced ? `No users match “${debounced}”.` : 'No users yet.') : null;

  return (
    <Stack gap="md">
      <AdminTabs />
      <Title order={2}>User Management ({data?.total ?? 0})</Title>
      <Card withBorder radius="lg" padding="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <TextInput
            leftSection={<IconSearch size={16} />}
            placeholder="Search by name, e-mail or uid"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
            w={{ base: '100%', sm: 320 }}
            aria-label="Search users"
          />
          <Select
            w={{ base: '100%', sm: 220 }}
            aria-label="Group by"
            leftSection={
              <Text size="xs" c="dimmed" pl={8}>
                Group
              </Text>
            }
            leftSectionWidth={56}
            value={groupBy}
            onChange={(v) => setGroupBy(v ?? 'none')}
            data={GROUPINGS.map((g) => ({ value: g.value, label: g.label }))}
            allowDeselect={false}
          />
        </Group>
      </Card>
      {compact ? (
        empty ? (
          <Text c="dimmed" ta="center" py="lg">
            {empty}
          </Text>
        ) : (
          <UserCards groups={groups} expanded={expanded} onToggle={toggle} />
        )
      ) : (
        <UsersTable groups={groups} expanded={expanded} onToggle={toggle} empty={empty} />
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
          total={Math.max(1, Math.ceil((data?.total ?? 0) / pageSize))}
          value={page}
          onChange={setPage}
        />
      </Group>
    </Stack>
  );
}
