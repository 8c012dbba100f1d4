import { memo } from 'react';
import { Avatar, Group, Indicator, Text, Tooltip } from '@mantine/core';
import { usePresenceUsers } from '../hooks/use-presence';

/** Who has this version open right now: gone the moment they close the tab or go idle. */
export const PresenceAvatars = memo(function PresenceAvatars({
  projectId,
  versionId,
}: {
  projectId: string;
  versionId: string;
}) {
  const users = usePresenceUsers(projectId, versionId);
  if (users.length === 0) return null;
  return (
    <Group gap="xs" data-testid="presence">
      <Text size="xs" c="dimmed">
        {users.length} online
      </Text>
      <Avatar.Group spacing="sm">
        {users.slice(0, 8).map((user) => (
          <Tooltip key={user.id} label={`${user.displayName} · online`}>
            <Indicator color="teal" position="bottom-end" size={9} offset={4} withBorder>
              <Avatar
                size={30}
                radius="xl"
                src={user.photoUrl}
                name={user.displayName}
                color="initials"
                data-testid="presence-user"
                data-state="online"
                aria-label={`${user.displayName} is online`}
              />
            </Indicator>
          </Tooltip>
        ))}
      </Avatar.Group>
    </Group>
  );
});
