import { ActionIcon, Group, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import type { PeaksFile } from '@mixroom/contracts';
import { barHeights, PeakLevels } from '../../review/peak-levels';
import { formatDuration } from '../../../lib/format/format';

const HEIGHT = 96;
const BAR = 3;
const COLORS = { wave: '#6f62b8', played: '#c9b8ff' };

function draw(canvas: HTMLCanvasElement, levels: PeakLevels, progress: number): void {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  if (width === 0) return;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(HEIGHT * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.scale(ratio, ratio);
  const count = Math.floor(width / BAR);
  const duration = levels.file.durationSeconds || 1;
  const secondsPerBar = duration / count;
  const heights = barHeights(levels.forDensity(1 / secondsPerBar), levels.loudest, 0, secondsPerBar, count);
  const played = progress * count;
  for (let i = 0; i < count; i++) {
    const h = Math.max(1, heights[i]! * (HEIGHT - 4));
    ctx.fillStyle = i < played ? COLORS.played : COLORS.wave;
    ctx.fillRect(i * BAR, (HEIGHT - h) / 2, BAR - 1, h);
  }
}

/**
 * A compact player for one file of a transfer: the waveform comes from the server's peaks (drawn at
 * once, nothing decoded in the browser) and the audio streams from a signed URL with range requests.
 */
export function PeaksPlayer({ peaks, src, name }: { peaks: PeaksFile; src: string; name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const levels = useMemo(() => new PeakLevels(peaks), [peaks]);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  // The first URL stays: a renewed grant must not restart what is playing.
  const [source] = useState(src);
  const duration = peaks.durationSeconds;

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    draw(element, levels, duration ? time / duration : 0);
  }, [levels, time, duration]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    performance.mark('mixroom:waveform-drawn');
    const observer = new ResizeObserver(() =>
      draw(element, levels, audio.current ? audio.current.currentTime / (duration || 1) : 0),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [levels, duration]);

  const seek = (event: PointerEvent<HTMLCanvasElement>) => {
    const media = audio.current;
    if (!media || !duration) return;
    const box = event.currentTarget.getBoundingClientRect();
    media.currentTime = Math.min(duration, Math.max(0, ((event.clientX - box.left) / box.width) * duration));
    setTime(media.currentTime);
  };

  const toggle = () => {
    const media = audio.current;
    if (!media) return;
    if (media.paused) void media.play();
    else media.pause();
  };

  return (
    <div data-testid="transfer-player">
      <canvas
        ref={canvas}
        data-testid="transfer-waveform"
        aria-label={`Waveform of ${name}`}
        role="img"
        onPointerDown={seek}
        style={{ width: '100%', height: HEIGHT, display: 'block', cursor: 'pointer', touchAction: 'none' }}
      />
      <Group justify="space-between" mt="xs" wrap="nowrap">
        <ActionIcon size="lg" radius="xl" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'}>
          {playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
        </ActionIcon>
        <Text size="sm" c="dimmed" ff="monospace">
          {formatDuration(time)} / {formatDuration(duration)}
        </Text>
      </Group>
      <audio
        ref={audio}
        src={source}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
      />
    </div>
  );
}
