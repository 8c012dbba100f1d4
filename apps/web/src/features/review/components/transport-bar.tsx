import { memo } from 'react';
import { ActionIcon, Group, Slider, Text, Tooltip } from '@mantine/core';
import {
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconRewindBackward15,
  IconRewindForward15,
  IconVolume,
  IconVolumeOff,
  IconZoomIn,
  IconKeyboard,
} from '@tabler/icons-react';
import { PLAYER } from '@mixroom/shared';
import { usePlayer, usePlayerState } from '../hooks/use-player';
import { formatPrecise } from '../time-format';

/** Play/pause, ±15 s, position, volume, rate and zoom: every control of the player. */
export const TransportBar = memo(function TransportBar({ onShortcuts }: { onShortcuts: () => void }) {
  const player = usePlayer();
  const playing = usePlayerState((s) => s.playing);
  const time = usePlayerState((s) => s.currentTime);
  const duration = usePlayerState((s) => s.duration);
  const volume = usePlayerState((s) => s.volume);
  const muted = usePlayerState((s) => s.muted);
  const rate = usePlayerState((s) => s.rate);
  const zoom = usePlayerState((s) => s.zoom);
  const disabled = !player;

  return (
    <div>
      <Slider
        mt="xs"
        aria-label="Seek"
        thumbLabel="Seek"
        min={0}
        max={duration || 1}
        step={0.01}
        value={Math.min(time, duration || 1)}
        label={formatPrecise}
        onChange={(value) => player?.seek(value)}
        disabled={disabled}
        color="violet"
        size="sm"
      />
      <Group justify="space-between" mt="sm" wrap="wrap" gap="sm">
        <Group gap={6} wrap="nowrap">
          <Tooltip label="Back 15 s">
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label="Skip back 15 seconds"
              onClick={() => player?.skip(-PLAYER.skipSeconds)}
              disabled={disabled}
            >
              <IconRewindBackward15 size={22} />
            </ActionIcon>
          </Tooltip>
          <ActionIcon
            variant="filled"
            color="violet"
            radius="xl"
            size={44}
            aria-label={playing ? 'Pause' : 'Play'}
            onClick={() => void player?.playPause()}
            disabled={disabled}
            data-testid="play-pause"
          >
            {playing ? <IconPlayerPauseFilled size={22} /> : <IconPlayerPlayFilled size={22} />}
          </ActionIcon>
          <Tooltip label="Forward 15 s">
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label="Skip forward 15 seconds"
              onClick={() => player?.skip(PLAYER.skipSeconds)}
              disabled={disabled}
            >
              <IconRewindForward15 size={22} />
            </ActionIcon>
          </Tooltip>
          <Text ff="monospace" size="sm" data-testid="current-time" c="#ece8ff" style={{ whiteSpace: 'nowrap' }}>
            {formatPrecise(time)}{' '}
            <Text span c="dimmed" ff="monospace" size="sm">
              / {formatPrecise(duration)}
            </Text>
          </Text>
        </Group>
        <Group gap="md" wrap="wrap">
          <Group gap={6} wrap="nowrap" w={150}>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={muted ? 'Unmute' : 'Mute'}
              onClick={() => player?.setMuted(!muted)}
              disabled={disabled}
            >
              {muted ? <IconVolumeOff size={18} /> : <IconVolume size={18} />}
            </ActionIcon>
            <Slider
              aria-label="Volume"
              thumbLabel="Volume"
              flex={1}
              min={0}
              max={1}
              step={0.01}
              value={muted ? 0 : volume}
              onChange={(v) => player?.setVolume(v)}
              disabled={disabled}
              color="violet"
              size="xs"
              label={(v) => `${Math.round(v * 100)}%`}
            />
          </Group>
          <Group gap={6} wrap="nowrap" w={150}>
            <Text size="xs" c="dimmed" w={34} ta="right" ff="monospace">
              {rate.toFixed(1)}×
            </Text>
            <Slider
              aria-label="Playback rate"
              thumbLabel="Playback rate"
              flex={1}
              min={PLAYER.rateMin}
              max={PLAYER.rateMax}
              step={PLAYER.rateStep}
              value={rate}
              onChange={(v) => player?.setRate(Math.round(v * 10) / 10)}
              disabled={disabled}
              color="violet"
              size="xs"
              label={(v) => `${v.toFixed(1)}×`}
            />
          </Group>
          <Group gap={6} wrap="nowrap" w={150}>
            <IconZoomIn size={16} color="#a9a3c9" />
            <Slider
              aria-label="Zoom"
              thumbLabel="Zoom"
              flex={1}
              min={0}
              max={PLAYER.zoomMax}
              step={1}
              value={zoom}
              onChange={(v) => player?.setZoom(v)}
              disabled={disabled}
              color="violet"
              size="xs"
            />
          </Group>
          <Tooltip label="Keyboard shortcuts (?)">
            <ActionIcon variant="subtle" color="gray" aria-label="Keyboard shortcuts" onClick={onShortcuts}>
              <IconKeyboard size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </div>
  );
});
