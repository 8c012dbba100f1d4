import { ActionIcon, Avatar, Group, Menu, ScrollArea, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconMicrophone, IconSearch, IconStar, IconStarFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { LevelMeter } from './level-meter';

export interface Participant {
  userId: string;
  displayName: string;
  photoUrl: string | null;
  isHost: boolean;
  isEnabled: boolean;
  isOnline: boolean;
  isSelf: boolean;
}

interface PanelProps {
  participants: Participant[];
  /** The viewer is the host: guests' avatars open the co-host menu. */
  hostView: boolean;
  coHostAllowed: boolean;
  level: (participant: Participant) => number;
  onCoHost: (userId: string, enabled: boolean) => void;
  /** Whether the participant talks on the talkback now (voice activity). */
  speaking?: (participant: Participant) => boolean;
  /** The drawer (mobile) shows the count in its own title. */
  hideTitle?: boolean;
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

function Tag({ participant }: { participant: Participant }) {
  if (participant.isHost)
    return (
      <Tooltip label="Host">
        <IconStarFilled size={16} color="var(--mantine-color-yellow-5)" aria-label="Host" />
      </Tooltip>
    );
  if (participant.isEnabled)
    return (
      <Tooltip label="Co-host">
        <IconStar size={16} color="var(--mantine-color-yellow-5)" aria-label="Co-host" />
      </Tooltip>
    );
  return (
    <Tooltip label={participant.isOnline ? 'Online' : 'Offline'}>
      <span
        aria-label={participant.isOnline ? 'Online' : 'Offline'}
        style={{
          display: 'inline-block',
          width: 10,
          height: 10,
          borderRadius: 5,
          background: participant.isOnline ? 'var(--mantine-color-teal-5)' : 'var(--mantine-color-gray-5)',
        }}
      />
    </Tooltip>
  );
}

/** Who is in the room: avatar, name, live level, tags; a search by name; the host's co-host menu. */
export function ParticipantsPanel({
  participants,
  hostView,
  coHostAllowed,
  level,
  onCoHost,
  speaking,
  hideTitle,
}: PanelProps) {
  const [query, setQuery] = useState('');
  const shown = participants.filter((p) => p.displayName.toLowerCase().includes(query.trim().toLowerCase()));
  return (
    <Stack gap="sm" h="100%" data-testid="participants">
      {!hideTitle && <Text fw={600}>Participants ({participants.length})</Text>}
      <TextInput
        size="xs"
        placeholder="Search by name"
        aria-label="Search participants"
        leftSection={<IconSearch size={14} />}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
      />
      <ScrollArea.Autosize mah={480} type="auto">
        <Stack gap={6}>
          {shown.map((p) => {
            const avatar = (
              <Avatar src={p.photoUrl} radius="xl" size={32} color="violet">
                {initials(p.displayName)}
              </Avatar>
            );
            const menu = hostView && !p.isHost && !p.isSelf;
            const talking = speaking?.(p) ?? false;
            return (
              <Group
                key={p.userId}
                gap="sm"
                wrap="nowrap"
                data-testid="participant"
                data-name={p.displayName}
                data-speaking={String(talking)}
              >
                {menu ? (
                  <Menu position="bottom-start" withinPortal>
                    <Menu.Target>
                      <ActionIcon
                        variant="transparent"
                        size={32}
                        radius="xl"
                        aria-label={`Options for ${p.displayName}`}
                      >
                        {avatar}
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item
                        disabled={!coHostAllowed && !p.isEnabled}
                        onClick={() => onCoHost(p.userId, !p.isEnabled)}
                      >
                        {p.isEnabled ? 'Disable Co-Host' : 'Enable Co-Host'}
                      </Menu.Item>
                      {!coHostAllowed && !p.isEnabled && <Menu.Label>Co-hosts need the Studio or Live plan</Menu.Label>}
                    </Menu.Dropdown>
                  </Menu>
                ) : (
                  avatar
                )}
                <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" truncate>
                      {p.displayName}
                      {p.isSelf ? ' (you)' : ''}
                    </Text>
                    <Tag participant={p} />
                    {talking && (
                      <Tooltip label="Speaking">
                        <IconMicrophone
                          size={16}
                          color="var(--mantine-color-teal-6)"
                          aria-label={`${p.displayName} is speaking`}
                        />
                      </Tooltip>
                    )}
                  </Group>
                  <LevelMeter level={() => level(p)} width="100%" height={4} label={`${p.displayName} level`} />
                </Stack>
              </Group>
            );
          })}
          {shown.length === 0 && (
            <Text size="sm" c="dimmed">
              Nobody matches.
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
