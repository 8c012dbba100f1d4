import { Avatar, Badge, Card, Group, Text } from '@mantine/core';
import type { Me } from '@mixroom/contracts';
import { formatDate } from '../../../lib/format/format';

/** Who is signed in: picture (or initials), display name, e-mail. */
export function ProfileCard({ me }: { me: Me }) {
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group wrap="nowrap">
        <Avatar src={me.photoUrl} name={me.displayName} color="initials" size={64} radius="xl" />
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={700} size="lg" truncate>
              {me.displayName}
            </Text>
            {me.isAdmin && <Badge variant="light">Administrator</Badge>}
          </Group>
          <Text c="dimmed" truncate>
            {me.email}
          </Text>
          <Text size="xs" c="dimmed">
            Member since {formatDate(me.createdAt)}
          </Text>
        </div>
      </Group>
    </Card>
  );
}
