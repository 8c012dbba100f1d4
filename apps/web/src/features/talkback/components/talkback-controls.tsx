import { Badge, Box, Button, Group, Slider, Stack, Text, Tooltip } from '@mantine/core';
import { IconMicrophone, IconMicrophoneOff, IconVideo, IconVideoOff } from '@tabler/icons-react';
import type { TalkbackSnapshot } from '../talkback-engine';
import { DUCK_MIN_DB } from '../talkback-settings';
import { CameraTiles } from './camera-tiles';

interface Props {
  snapshot: TalkbackSnapshot;
  selfId: string | null;
  duckDb: number;
  onMute: (muted: boolean) => void;
  onCamera: (on: boolean) => void;
  nameOf: (userId: string) => string;
  onDuckDb: (db: number) => void;
}

const STATE_LABEL: Record<TalkbackSnapshot['talkState'], string> = {
  new: 'Joining…',
  connecting: 'Connecting…',
  connected: 'On air',
  disconnected: 'Reconnecting…',
  failed: 'Not connected',
  closed: 'Off',
};

/** Talkback: this user's talk mic (mute, speaking), and how far the music dips while others talk. */
export function TalkbackControls({ snapshot, selfId, duckDb, onMute, onCamera, nameOf, onDuckDb }: Props) {
  const speaking = selfId !== null && snapshot.speaking.has(selfId);
  const connected = snapshot.talkState === 'connected';
  return (
    <Stack gap="xs" data-testid="talkback">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Text fw={600}>Talkback</Text>
          <Badge
            size="sm"
            variant="light"
            color={connected ? 'teal' : snapshot.talkState === 'failed' ? 'red' : 'gray'}
            data-testid="talkback-state"
            data-state={snapshot.talkState}
            data-hear-state={snapshot.hearState}
          >
            {STATE_LABEL[snapshot.talkState]}
          </Badge>
        </Group>
        <Tooltip label={speaking ? 'You are speaking' : 'Quiet'}>
          <Box
            aria-label={speaking ? 'You are speaking' : 'You are quiet'}
            data-testid="talkback-self-speaking"
            data-speaking={String(speaking)}
            style={{
              width: 12,
              height: 12,
              borderRadius: 6,
              flex: 'none',
              background: speaking ? 'var(--mantine-color-teal-5)' : 'var(--mantine-color-gray-4)',
              boxShadow: speaking ? '0 0 0 3px var(--mantine-color-teal-1)' : 'none',
            }}
          />
        </Tooltip>
      </Group>
      <Text size="xs" c="dimmed">
        Talk to everyone in the room on your microphone, with echo cancellation and noise suppression. Your music stream
        stays unprocessed.
      </Text>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Button
          size="xs"
          variant={snapshot.muted ? 'filled' : 'light'}
          color={snapshot.muted ? 'red' : 'teal'}
          leftSection={snapshot.muted ? <IconMicrophoneOff size={14} /> : <IconMicrophone size={14} />}
          onClick={() => onMute(!snapshot.muted)}
          aria-pressed={snapshot.muted}
          data-testid="talkback-mute"
        >
          {snapshot.muted ? 'Unmute talkback' : 'Mute talkback'}
        </Button>
        <Button
          size="xs"
          variant={snapshot.camera ? 'filled' : 'default'}
          leftSection={snapshot.camera ? <IconVideo size={14} /> : <IconVideoOff size={14} />}
          onClick={() => onCamera(!snapshot.camera)}
          aria-pressed={snapshot.camera}
          disabled={!connected}
          data-testid="talkback-camera"
        >
          {snapshot.camera ? 'Turn camera off' : 'Turn camera on'}
        </Button>
        <Box style={{ flex: 1, minWidth: 180 }}>
          <Text size="xs" c="dimmed" mb={4} id="talkback-duck-label">
            Dim music while others talk: {duckDb === 0 ? 'off' : `${duckDb} dB`}
          </Text>
          <Slider
            min={DUCK_MIN_DB}
            max={0}
            step={1}
            value={duckDb}
            onChange={onDuckDb}
            label={(v) => `${v} dB`}
            marks={[
              { value: DUCK_MIN_DB, label: `${DUCK_MIN_DB}` },
              { value: -10, label: '-10' },
              { value: 0, label: '0' },
            ]}
            thumbProps={{ 'aria-labelledby': 'talkback-duck-label' }}
            data-testid="talkback-duck"
            mb="md"
          />
        </Box>
      </Group>
      <CameraTiles cameras={snapshot.cameras} selfId={selfId} nameOf={nameOf} />
      {snapshot.error && snapshot.talkState !== 'connected' && (
        <Text size="xs" c="red">
          {snapshot.error}
        </Text>
      )}
    </Stack>
  );
}
