import { Avatar, Card, Collapse, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { AdminUser } from '@mixroom/contracts';
import { UserBadges } from './user-badges';
import { UserDetails } from './user-details';

function Field({ label, value, mono = false }: { label: string; value: string; mono?: boolean }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" w={104} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" ff={mono ? 'monospace' : undefined} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Group>
  );
}

/**
 * The user grid on a phone: one card per account with every column of the wide table as a labelled
 * line, so nothing hides off screen; a tap opens the private data as the table's row does.
 */
export function UserCards({
  groups,
  expanded,
  onToggle,
}: {
  groups: { key: string; users: AdminUser[] }[];
  expanded: string | null;
  onToggle: (id: string) => void;
}) {
  return (
    <Stack gap="sm" data-testid="user-cards">
      {groups.map((group) => (
        <Stack key={group.key} gap="sm">
          {group.key && (
            <Text fw={700} size="sm">
              {group.key} ({group.users.length})
            </Text>
          )}
          {group.users.map((user) => (
            <Card key={user.id} withBorder radius="md" padding="sm" data-testid="user-card">
              <UnstyledButton onClick={() => onToggle(user.id)} aria-expanded={expanded === user.id} w="100%">
                <Group wrap="nowrap" gap="sm">
                  <Avatar src={user.photoUrl} name={user.displayName} color="initials" size={36} radius="xl" />
                  <div style={{ flex: 1, minWidth: 0 }}>
                    <Group gap={6} wrap="wrap">
                      <Text fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                        {user.displayName}
                      </Text>
                      <UserBadges user={user} />
                    </Group>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {user.email}
                    </Text>
                  </div>
                  {expanded === user.id ? <IconChevronDown size={18} /> : <IconChevronRight size={18} />}
                </Group>
              </UnstyledButton>
              <Stack gap={2} mt="xs">
                <Field label="uid" value={user.uid} mono />
                <Field label="name" value={user.name || '—'} />
                <Field label="phone number" value={user.phoneNumber ?? '—'} />
                <Field label="providerId" value={user.providerId} />
                <Field label="authProviders" value={user.authProviders.join(', ') || '—'} />
              </Stack>
              <Collapse in={expanded === user.id}>{expanded === user.id && <UserDetails user={user} />}</Collapse>
            </Card>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
