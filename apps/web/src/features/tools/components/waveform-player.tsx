import { ActionIcon, Group, Slider, Stack, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import type { PeaksFile } from '@mixroom/contracts';
import { PeakLevels } from '../../review/peak-levels';
import { formatDuration } from '../../../lib/format/format';
import { PeakMeter } from './peak-meter';

const COLORS = { wave: '#6f62b8', progress: '#c9b8ff', cursor: '#e9e4ff' };

/** The coarsest level of the server's peaks as 0–1 values, what wavesurfer draws without decoding. */
function peaksOf(file: PeaksFile): number[] {
  const coarse = new PeakLevels(file).coarsest().bins;
  return Array.from(coarse, (v) => v / 255);
}

/**
 * A waveform with its player: play/pause, mute, a seek slider and a volume slider (0–100 mapped to
 * 0–1). The waveform comes from the server's peaks when given (nothing decoded), else wavesurfer
 * decodes the file itself (a local file before upload). With `meter` the playing audio feeds a peak
 * meter; only for same-origin sources (a local file), where analysing the element is allowed.
 */
export function WaveformPlayer({
  src,
  peaks,
  name,
  height = 96,
  meter = false,
  testId = 'tools-player',
}: {
  src: string;
  peaks?: PeaksFile | null | undefined;
  name: string;
  height?: number;
  meter?: boolean;
  testId?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(peaks?.durationSeconds ?? 0);
  const [muted, setMuted] = useState(false);
  const [volume, setVolume] = useState(100);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const element = container.current;
    const media = audio.current;
    if (!element || !media) return;
    setReady(false);
    const ws = WaveSurfer.create({
      container: element,
      media,
      height,
      waveColor: COLORS.wave,
      progressColor: COLORS.progress,
      cursorColor: COLORS.cursor,
      cursorWidth: 2,
      barWidth: 2,
      barGap: 1,
      dragToSeek: true,
      ...(peaks ? { peaks: [peaksOf(peaks)], duration: peaks.durationSeconds } : {}),
    });
    surfer.current = ws;
    const offReady = ws.on('ready', (d) => {
      setDuration(d);
      setReady(true);
    });
    const offTime = ws.on('timeupdate', (t) => setTime(t));
    const offPlay = ws.on('play', () => setPlaying(true));
    const offPause = ws.on('pause', () => setPlaying(false));
    const offFinish = ws.on('finish', () => setPlaying(false));
    void ws.load(src, peaks ? [peaksOf(peaks)] : undefined, peaks?.durationSeconds).catch(() => undefined);
    return () => {
      offReady();
      offTime();
      offPlay();
      offPause();
      offFinish();
      ws.destroy();
      surfer.current = null;
    };
  }, [src, peaks, height]);

  useEffect(() => {
    if (audio.current) audio.current.volume = volume / 100;
  }, [volume]);
  useEffect(() => {
    if (audio.current) audio.current.muted = muted;
  }, [muted]);

  const toggle = () => void surfer.current?.playPause();
  const seek = (seconds: number) => {
    surfer.current?.setTime(seconds);
    setTime(seconds);
  };

  return (
    <Stack gap="xs" data-testid={testId} data-ready={ready ? 'true' : 'false'}>
      <div
        ref={container}
        data-testid={`${testId}-waveform`}
        role="img"
        aria-label={`Waveform of ${name}`}
        style={{ width: '100%', minHeight: height }}
      />
      {meter && <PeakMeter media={audio} />}
      <Group gap="sm" wrap="nowrap">
        <ActionIcon size="lg" radius="xl" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'}>
          {playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
        </ActionIcon>
        <ActionIcon
          size="lg"
          variant="subtle"
          onClick={() => setMuted((m) => !m)}
          aria-label={muted ? 'Unmute' : 'Mute'}
          aria-pressed={muted}
        >
          {muted ? <IconVolumeOff size={18} /> : <IconVolume size={18} />}
        </ActionIcon>
        <Slider
          aria-label="Seek"
          style={{ flex: 1 }}
          min={0}
          max={Math.max(duration, 0.01)}
          step={0.01}
          value={Math.min(time, duration)}
          onChange={seek}
          label={(v) => formatDuration(v)}
          size="sm"
        />
        <Text size="sm" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid={`${testId}-time`}>
          {formatDuration(time)} / {formatDuration(duration)}
        </Text>
        <Slider
          aria-label="Volume"
          w={90}
          min={0}
          max={100}
          value={volume}
          onChange={setVolume}
          size="sm"
          visibleFrom="xs"
        />
      </Group>
      <audio ref={audio} preload="metadata" />
    </Stack>
  );
}
