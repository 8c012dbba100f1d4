import {
  ActionIcon,
  Avatar,
  Badge,
  Card,
  Group,
  Pagination,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconSearch } from '@tabler/icons-react';
import { Fragment, useMemo, useState } from 'react';
import type { AdminUserRow } from '@mixroom/contracts';
import { LIMITS } from '@mixroom/shared';
import { UserCards } from '../features/admin/components/user-cards';
import { UserDetails } from '../features/admin/components/user-details';
import { useAdminUsers } from '../features/admin/queries';

type GroupBy = 'none' | 'provider' | 'role';
const COLUMNS = ['photo', 'uid', 'displayName', 'email', 'name', 'phone number', 'providerId', 'authProviders'];

/** /admin/users: every account, searchable, paged (25/50/100), with private data on expand. */
export function AdminUsersPage() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), LIMITS.searchDebounceMs);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(LIMITS.adminPageSizes[0]);
  const [groupBy, setGroupBy] = useState<GroupBy>('none');
  const [expanded, setExpanded] = useState<string | null>(null);
  const query = useAdminUsers({ search: debounced, page, pageSize });
  // Below a tablet's width the eight columns become one card per user.
  const compact = useMediaQuery('(max-width: 48em)') ?? false;
  const toggle = (id: string) => setExpanded((current) => (current === id ? null : id));
  const data = query.data;

  const groups = useMemo(() => {
    const users = data?.users ?? [];
    if (groupBy === 'none') return [{ key: '', users }];
    const keyOf = (u: AdminUserRow) => (groupBy === 'provider' ? u.providerId : u.isAdmin ? 'Administrators' : 'Users');
    const map = new Map<string, AdminUserRow[]>();
    for (const user of users) map.set(keyOf(user), [...(map.get(keyOf(user)) ?? []), user]);
    return [...map].map(([key, list]) => ({ key, users: list }));
  }, [data, groupBy]);

  return (
    <Stack gap="md">
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
          <Group gap="sm">
            <Text size="sm" c="dimmed">
              Group by
            </Text>
            <SegmentedControl
              size="xs"
              value={groupBy}
              onChange={(v) => setGroupBy(v as GroupBy)}
              data={[
                { value: 'none', label: 'None' },
                { value: 'provider', label: 'Provider' },
                { value: 'role', label: 'Role' },
              ]}
            />
          </Group>
        </Group>
      </Card>
      {compact ? (
        data?.users.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No users match “{debounced}”.
          </Text>
        ) : (
          <UserCards groups={groups} expanded={expanded} onToggle={toggle} />
        )
      ) : (
        <Card withBorder radius="lg" padding={0}>
          <ScrollArea type="auto" offsetScrollbars="x">
            <Table highlightOnHover verticalSpacing="sm" miw={900}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40} />
                  {COLUMNS.map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data?.users.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={COLUMNS.length + 1}>
                      <Text c="dimmed" ta="center" py="lg">
                        No users match “{debounced}”.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {groups.map((group) => (
                  <Fragment key={group.key}>
                    {group.key && (
                      <Table.Tr>
                        <Table.Td colSpan={COLUMNS.length + 1} bg="var(--mantine-color-dark-6)">
                          <Text fw={700} size="sm">
                            {group.key} ({group.users.length})
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    )}
                    {group.users.map((user) => (
                      <Fragment key={user.id}>
                        <Table.Tr onClick={() => toggle(user.id)} style={{ cursor: 'pointer' }}>
                          <Table.Td>
                            <ActionIcon
                              variant="subtle"
                              size="sm"
                              aria-label={expanded === user.id ? 'Collapse' : 'Expand'}
                            >
                              {expanded === user.id ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                            </ActionIcon>
                          </Table.Td>
                          <Table.Td>
                            <Avatar
                              src={user.photoUrl}
                              name={user.displayName}
                              color="initials"
                              size={30}
                              radius="xl"
                            />
                          </Table.Td>
                          <Table.Td>
                            <Text size="xs" ff="monospace" c="dimmed" maw={110} truncate>
                              {user.uid}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Group gap={6} wrap="nowrap">
                              <Text size="sm" maw={180} truncate>
                                {user.displayName}
                              </Text>
                              {user.isAdmin && (
                                <Badge size="xs" variant="light">
                                  admin
                                </Badge>
                              )}
                            </Group>
                          </Table.Td>
                          <Table.Td>
                            <Text size="sm" maw={220} truncate>
                              {user.email}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Text size="sm" maw={160} truncate>
                              {user.name}
                            </Text>
                          </Table.Td>
                          <Table.Td>{user.phoneNumber ?? '—'}</Table.Td>
                          <Table.Td>{user.providerId}</Table.Td>
                          <Table.Td>{user.authProviders.join(', ')}</Table.Td>
                        </Table.Tr>
                        {expanded === user.id && (
                          <Table.Tr>
                            <Table.Td colSpan={COLUMNS.length + 1} p={0}>
                              <UserDetails user={user} />
                            </Table.Td>
                          </Table.Tr>
                        )}
                      </Fragment>
                    ))}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Card>
      )}
      <Group justify="space-between">
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
        <Pagination total={Math.max(1, Math.ceil((data?.total ?? 0) / pageSize))} value={page} onChange={setPage} />
      </Group>
    </Stack>
  );
}
