import { ActionIcon, Avatar, Card, Group, ScrollArea, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Fragment } from 'react';
import type { AdminUser } from '@mixroom/contracts';
import { UserBadges } from './user-badges';
import { UserDetails } from './user-details';
import classes from './users-table.module.css';

/** The grid's columns, named as the screen names them. */
export const COLUMNS = ['photo', 'uid', 'displayName', 'email', 'name', 'phone number', 'providerId', 'authProviders'];

/** The wide grid: one row per account, grouped when asked, a row opens its private data. */
export function UsersTable({
  groups,
  expanded,
  onToggle,
  empty,
}: {
  groups: { key: string; users: AdminUser[] }[];
  expanded: string | null;
  onToggle: (id: string) => void;
  empty: string | null;
}) {
  const span = COLUMNS.length + 1;
  return (
    <Card withBorder radius="lg" padding={0} className={classes.frame}>
      <ScrollArea type="auto" offsetScrollbars="x">
        <Table highlightOnHover verticalSpacing="sm" horizontalSpacing={8} miw={900} data-testid="users-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40} />
              {COLUMNS.map((c) => (
                <Table.Th key={c} style={{ whiteSpace: 'nowrap' }}>
                  {c}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {empty && (
              <Table.Tr>
                <Table.Td colSpan={span}>
                  <Text c="dimmed" ta="center" py="lg">
                    {empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {groups.map((group) => (
              <Fragment key={group.key}>
                {group.key && (
                  <Table.Tr>
                    <Table.Td colSpan={span} bg="var(--mantine-color-dark-6)">
                      <Text fw={700} size="sm">
                        {group.key} ({group.users.length})
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {group.users.map((user) => (
                  <Fragment key={user.id}>
                    <Table.Tr
                      onClick={() => onToggle(user.id)}
                      style={{ cursor: 'pointer', opacity: user.disabled ? 0.6 : 1 }}
                      data-testid="user-row"
                    >
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          size="sm"
                          aria-label={expanded === user.id ? 'Collapse' : 'Expand'}
                          aria-expanded={expanded === user.id}
                        >
                          {expanded === user.id ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td>
                        <Avatar src={user.photoUrl} name={user.displayName} color="initials" size={30} radius="xl" />
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" ff="monospace" c="dimmed" maw={80} truncate title={user.uid}>
                          {user.uid}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {/* Each child at its own width: capped at half the row, a long name pushed the badge out. */}
                        <Group gap={6} wrap="nowrap" preventGrowOverflow={false}>
                          <Text size="sm" className={classes.whole}>
                            {user.displayName}
                          </Text>
                          <UserBadges user={user} />
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" maw={220} truncate>
                          {user.email}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" className={classes.whole}>
                          {user.name}
                        </Text>
                      </Table.Td>
                      <Table.Td>{user.phoneNumber ?? '—'}</Table.Td>
                      <Table.Td>{user.providerId}</Table.Td>
                      <Table.Td>{user.authProviders.join(', ')}</Table.Td>
                    </Table.Tr>
                    {expanded === user.id && (
                      <Table.Tr>
                        <Table.Td colSpan={span} p={0}>
                          <div className={classes.details}>
                            <div className={classes.detailsPinned}>
                              <UserDetails user={user} />
                            </div>
                          </div>
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
  );
}
