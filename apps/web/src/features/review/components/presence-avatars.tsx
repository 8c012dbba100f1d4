import { memo } from 'react';
import { Avatar, Group, Indicator, Text, Tooltip } from '@mantine/core';
import { usePresence } from '../queries';

/** Who else has this version open: a green dot when online, grey when they left or went idle. */
export const PresenceAvatars = memo(function PresenceAvatars({ versionId }: { versionId: string }) {
  const presence = usePresence(versionId);
  const users = presence.data ?? [];
  if (users.length === 0) return null;
  const online = users.filter((u) => u.state === 'online').length;
  return (
    <Group gap="xs" data-testid="presence">
      <Text size="xs" c="dimmed">
        {online} online
      </Text>
      <Avatar.Group spacing="sm">
        {users.slice(0, 8).map((entry) => (
          <Tooltip key={entry.user.id} label={`${entry.user.displayName} · ${entry.state}`}>
            <Indicator
              color={entry.state === 'online' ? 'teal' : 'gray'}
              position="bottom-end"
              size={9}
              offset={4}
              withBorder
            >
              <Avatar
                size={30}
                radius="xl"
                src={entry.user.photoUrl}
                name={entry.user.displayName}
                color="initials"
                data-testid="presence-user"
                data-state={entry.state}
                aria-label={`${entry.user.displayName} is ${entry.state}`}
                style={{ opacity: entry.state === 'online' ? 1 : 0.5 }}
              />
            </Indicator>
          </Tooltip>
        ))}
      </Avatar.Group>
    </Group>
  );
});
