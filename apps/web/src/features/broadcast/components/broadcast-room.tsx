import { Badge, Button, Card, Group, Modal, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDoorExit, IconHeadphones, IconLink, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { LIVE_MESSAGES } from '@mixroom/shared';
import { useMemo } from 'react';
import type { LiveSourceKind } from '../../live';
import { useBroadcastSession } from '../hooks/use-broadcast-session';
import { useCountdownLabel } from '../server-clock';
import { LevelBar } from './level-bar';

const SOURCES: { value: LiveSourceKind; label: string }[] = [
  { value: 'input', label: 'Audio input' },
  { value: 'plugin', label: 'Plugin' },
  { value: 'driver', label: 'System Wide' },
];

const PUBLISH_TEXT: Record<string, string> = {
  new: 'Not sending',
  connecting: 'Connecting…',
  connected: 'Sending',
  disconnected: 'Reconnecting…',
  failed: 'Reconnecting…',
  closed: 'Stopped',
};

/**
 * The broadcaster's room: what it sends (source, level, connection), what listeners see (state,
 * countdown, how many listen), and Stop / Go live again, Room Link and Exit.
 */
export function BroadcastRoom({ code }: { code: string }) {
  const session = useBroadcastSession(code);
  const { room, snapshot, engine } = session;
  const label = useCountdownLabel(room?.countdownTime, room?.offset ?? 0);
  const level = useMemo(() => (engine ? () => engine.ownLevel() : null), [engine]);
  const sending = snapshot.publishState !== 'new' && snapshot.publishState !== 'closed';

  return (
    <Stack gap="md" maw={1000}>
      <Modal
        opened={session.phase !== 'in'}
        onClose={() => undefined}
        withCloseButton={false}
        closeOnClickOutside={false}
        closeOnEscape={false}
        centered
        title="Live"
      >
        <Text>{LIVE_MESSAGES.startPrompt}</Text>
        <Group justify="flex-end" mt="md">
          <Button onClick={() => void session.start()} loading={session.phase === 'starting'} data-autofocus>
            Ok
          </Button>
        </Group>
      </Modal>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Title order={2} style={{ wordBreak: 'break-word' }}>
            {room?.title || 'Broadcast'}
          </Title>
          <Text c="dimmed" size="sm">
            Broadcaster room
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconLink size={16} />} onClick={() => void session.copyLink()}>
            Room Link
          </Button>
          <Button
            variant="default"
            color="red"
            leftSection={<IconDoorExit size={16} />}
            onClick={() => void session.exit()}
          >
            Exit
          </Button>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Card withBorder padding="lg" radius="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Text fw={600}>Listeners see</Text>
              {room?.state === 'live' ? (
                <Badge color="red" variant="filled" data-testid="broadcast-state">
                  LIVE
                </Badge>
              ) : (
                <Badge variant="light" data-testid="broadcast-state">
                  {room?.state === 'ended' ? 'Ended' : 'Not started'}
                </Badge>
              )}
            </Group>
            {label && (
              <Text fw={700} size="xl" ff="monospace" data-testid="countdown-label">
                {label}
              </Text>
            )}
            <Group gap={6}>
              <IconHeadphones size={18} />
              <Text size="lg" fw={600} data-testid="listener-count">
                {room?.listeners ?? 0}
              </Text>
              <Text c="dimmed">listening</Text>
            </Group>
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {room?.roomLink}
            </Text>
          </Stack>
        </Card>
        <Card withBorder padding="lg" radius="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Text fw={600}>You send</Text>
              <Text size="sm" c="dimmed" data-testid="publish-state" data-state={snapshot.publishState}>
                {PUBLISH_TEXT[snapshot.publishState]}
              </Text>
            </Group>
            <SegmentedControl
              data={SOURCES}
              value={snapshot.source}
              onChange={(value) => session.setSource(value as LiveSourceKind)}
              fullWidth
            />
            <LevelBar level={level} label="Your level" />
            {sending ? (
              <Button color="red" leftSection={<IconPlayerStop size={16} />} onClick={() => void session.stop()}>
                Stop broadcast
              </Button>
            ) : (
              <Button
                leftSection={<IconPlayerPlay size={16} />}
                disabled={!engine}
                onClick={() => void session.resume()}
              >
                Go live again
              </Button>
            )}
            {snapshot.error && (
              <Text size="xs" c="red">
                {snapshot.error}
              </Text>
            )}
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
