import { ActionIcon, Avatar, Badge, Box, Button, Card, Center, Group, Slider, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconHeadphones, IconPlayerPlayFilled, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { BROADCAST_MESSAGES } from '@mixroom/shared';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { usePublicListening } from '../hooks/use-public-listening';
import { useCountdownLabel } from '../server-clock';
import { LevelBar } from './level-bar';

const STREAM_TEXT: Record<string, string> = {
  new: '',
  connecting: 'Connecting…',
  connected: 'Listening',
  disconnected: 'Reconnecting…',
  failed: 'Reconnecting…',
  closed: 'Stopped',
};

/**
 * The public listening page: title and host, the countdown, a big play button (sound starts only
 * after a click, as browsers' autoplay rules want), level, volume and listeners, and one clear
 * state: not started, live, ended, or no such room.
 */
export function PublicLiveView({ code }: { code: string }) {
  const live = usePublicListening(code);
  const { view, phase, player } = live;
  const label = useCountdownLabel(view?.countdownTime, live.offset);
  const level = useMemo(() => (player ? () => player.level() : null), [player]);

  if (phase === 'gone')
    return (
      <Center mih="60vh" p="md">
        <Card withBorder padding="xl" radius="md" maw={460} data-testid="broadcast-gone">
          <Title order={3}>No such room</Title>
          <Text c="dimmed" mt="xs">
            {BROADCAST_MESSAGES.noSuchRoom}
          </Text>
          <Button
            component={Link}
            to="/public/landing"
            variant="light"
            mt="md"
            leftSection={<IconArrowLeft size={16} />}
          >
            Back to Mixroom
          </Button>
        </Card>
      </Center>
    );

  return (
    <Center mih="70vh" p="md">
      <Card withBorder padding="xl" radius="lg" w="100%" maw={560}>
        <Stack gap="lg" align="center">
          <Group gap="sm" wrap="nowrap" w="100%">
            <Avatar src={view?.host.photoUrl ?? null} radius="xl" size="lg">
              {view?.host.displayName.slice(0, 1) ?? ''}
            </Avatar>
            <Box style={{ minWidth: 0 }}>
              <Title
                order={2}
                size="h3"
                lineClamp={2}
                style={{ wordBreak: 'break-word' }}
                data-testid="broadcast-title"
              >
                {view?.title ?? ' '}
              </Title>
              <Text c="dimmed" size="sm" truncate>
                {view ? `with ${view.host.displayName}` : ' '}
              </Text>
            </Box>
          </Group>
          <Group gap="xs">
            {phase === 'live' && (
              <Badge color="red" variant="filled" size="lg">
                LIVE
              </Badge>
            )}
            <Badge variant="light" size="lg" leftSection={<IconHeadphones size={14} />} data-testid="listener-count">
              {view?.listeners ?? 0} listening
            </Badge>
          </Group>
          {label && (
            <Text fw={700} size="xl" ff="monospace" data-testid="countdown-label">
              {label}
            </Text>
          )}
          <Text size="sm" c="dimmed" data-testid="broadcast-state" data-phase={phase} data-stream={live.streamState}>
            {phase === 'not-started' && BROADCAST_MESSAGES.notStarted}
            {phase === 'ended' && BROADCAST_MESSAGES.ended}
            {phase === 'live' &&
              (player ? STREAM_TEXT[live.streamState] : 'The broadcast is live. Press play to listen.')}
            {phase === 'loading' && 'Loading…'}
          </Text>
          {!player ? (
            <ActionIcon
              size={112}
              radius={56}
              variant="filled"
              aria-label="Play"
              disabled={phase === 'loading' || phase === 'ended'}
              onClick={live.play}
            >
              <IconPlayerPlayFilled size={56} />
            </ActionIcon>
          ) : (
            <Stack gap="sm" w="100%">
              <LevelBar level={level} label="Level" />
              <Group gap="sm" wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={live.volume === 0 ? 'Unmute' : 'Mute'}
                  onClick={() => live.setVolume(live.volume === 0 ? 1 : 0)}
                >
                  {live.volume === 0 ? <IconVolumeOff size={18} /> : <IconVolume size={18} />}
                </ActionIcon>
                <Slider
                  flex={1}
                  min={0}
                  max={1}
                  step={0.01}
                  value={live.volume}
                  onChange={live.setVolume}
                  label={(v) => `${Math.round(v * 100)}%`}
                  aria-label="Volume"
                />
              </Group>
            </Stack>
          )}
        </Stack>
      </Card>
    </Center>
  );
}
