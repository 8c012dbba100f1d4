import { ActionIcon, Group, Slider, Stack, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import type { PeaksFile } from '@mixroom/contracts';
import { PeakLevels } from '../../review/peak-levels';
import { formatDuration } from '../../../lib/format/format';
import { PeakMeter } from './peak-meter';

const COLORS = { wave: '#6f62b8', progress: '#c9b8ff', cursor: '#e9e4ff' };

/** The server's peaks as 0–1 values at about a thousand bars over the file, what wavesurfer draws without decoding. */
function peaksOf(file: PeaksFile): number[] {
  const levels = new PeakLevels(file);
  const bins = levels.forDensity(1000 / Math.max(1, file.durationSeconds)).bins;
  return Array.from(bins, (v) => v / levels.loudest);
}

/** Decoding rate of a local preview (the spec's waveform sample rate) and the bars kept. */
const PREVIEW_RATE = 8000;
const PREVIEW_BARS = 3000;

/**
 * Decodes a local file in the browser (Web Audio, resampled to 8 kHz) into one row of peaks: the
 * page may not fetch its own blob URLs (the CSP's connect-src), so wavesurfer gets peaks, not a URL to decode.
 */
async function decodeLocally(file: File): Promise<{ peaks: number[]; duration: number }> {
  const context = new OfflineAudioContext({ numberOfChannels: 2, length: 1, sampleRate: PREVIEW_RATE });
  const buffer = await context.decodeAudioData(await file.arrayBuffer());
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
  const bars = Math.max(1, Math.min(PREVIEW_BARS, buffer.length));
  const size = buffer.length / bars;
  const peaks = new Array<number>(bars).fill(0);
  for (let bar = 0; bar < bars; bar++) {
    const end = Math.min(buffer.length, Math.floor((bar + 1) * size));
    let peak = 0;
    for (const data of channels)
      for (let i = Math.floor(bar * size); i < end; i++) peak = Math.max(peak, Math.abs(data[i]!));
    peaks[bar] = peak;
  }
  return { peaks, duration: buffer.duration };
}

/**
 * A waveform with its player: play/pause, mute, a seek slider and a volume slider (0–100 mapped to
 * 0–1). The waveform comes from the server's peaks when given (nothing decoded), or from a local
 * file decoded in the browser (a preview before upload). With `meter` the playing audio feeds a peak
 * meter; only for same-origin sources (a local file), where analysing the element is allowed.
 */
export function WaveformPlayer({
  src,
  peaks,
  file,
  name,
  height = 96,
  meter = false,
  testId = 'tools-player',
}: {
  src: string;
  peaks?: PeaksFile | null | undefined;
  /** The local file behind a blob `src`, decoded here for its waveform. */
  file?: File | null | undefined;
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
    const offError = ws.on('error', (error) => console.warn('waveform', error));
    let cancelled = false;
    if (file)
      void decodeLocally(file)
        .then((local) => (cancelled ? undefined : ws.load(src, [local.peaks], local.duration)))
        .catch((error: unknown) => console.warn('waveform', error));
    else void ws.load(src, peaks ? [peaksOf(peaks)] : undefined, peaks?.durationSeconds).catch(() => undefined);
    return () => {
      cancelled = true;
      offReady();
      offTime();
      offPlay();
      offPause();
      offFinish();
      offError();
      ws.destroy();
      surfer.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the height is applied below without a rebuild
  }, [src, peaks, file]);

  useEffect(() => surfer.current?.setOptions({ height }), [height]);

  useEffect(() => {
    if (audio.current) audio.current.volume = volume / 100;
  }, [volume]);
  // Muted is the element's own state: only the user's click on the button changes it (nothing
  // writes it on mount or when the source changes), and the button shows what the element says.
  useEffect(() => {
    const media = audio.current;
    if (!media) return;
    const follow = () => setMuted(media.muted);
    media.addEventListener('volumechange', follow);
    return () => media.removeEventListener('volumechange', follow);
  }, []);
  const toggleMute = () => {
    if (audio.current) audio.current.muted = !audio.current.muted;
  };

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
          onClick={toggleMute}
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
