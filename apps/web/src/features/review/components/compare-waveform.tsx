import { Text } from '@mantine/core';
import { useEffect, useMemo, useRef, type MouseEvent } from 'react';
import { usePlayer, usePlayerState } from '../hooks/use-player';
import { barHeights, PeakLevels } from '../peak-levels';
import { usePeaks } from '../queries';
import classes from './review.module.css';

const BAR = { width: 2, gap: 1 };
const HEIGHT = 64;

/**
 * B's waveform under A's in A/B mode, drawn from B's server peaks on A's time scale (both play at
 * the same playhead): only the visible stretch is drawn, so an hour zoomed in costs one screen of
 * bars. Bright while B is heard, dimmed while A is. A click seeks both.
 */
export function CompareWaveform({
  versionId,
  label,
  duration,
  active,
}: {
  versionId: string;
  label: string;
  /** A's duration: the time scale both waveforms share. */
  duration: number;
  active: boolean;
}) {
  const player = usePlayer();
  const peaks = usePeaks(versionId, true);
  const levels = useMemo(() => (peaks.data ? new PeakLevels(peaks.data) : null), [peaks.data]);
  const layout = usePlayerState((s) => s.layout);
  const time = usePlayerState((s) => s.currentTime);
  const canvas = useRef<HTMLCanvasElement>(null);
  const viewport = layout.viewport;
  const total = layout.width || viewport;
  const pxPerSecond = duration > 0 ? total / duration : 0;

  useEffect(() => {
    const element = canvas.current;
    if (!element || !levels || !viewport || !pxPerSecond) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.round(viewport * ratio);
    element.height = Math.round(HEIGHT * ratio);
    const ctx = element.getContext('2d');
    if (!ctx) return;
    const stride = BAR.width + BAR.gap;
    const count = Math.ceil(viewport / stride);
    const heights = barHeights(
      levels.forDensity(pxPerSecond / stride),
      levels.loudest,
      layout.scroll / pxPerSecond,
      stride / pxPerSecond,
      count,
    );
    ctx.clearRect(0, 0, element.width, element.height);
    ctx.fillStyle = '#f0a04b';
    const middle = element.height / 2;
    ctx.beginPath();
    for (let bar = 0; bar < count; bar++) {
      const half = Math.max(0.5 * ratio, heights[bar]! * middle);
      ctx.rect(Math.round(bar * stride * ratio), middle - half, BAR.width * ratio, half * 2);
    }
    ctx.fill();
  }, [levels, viewport, pxPerSecond, layout.scroll]);

  const seek = (event: MouseEvent<HTMLDivElement>) => {
    if (!pxPerSecond) return;
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left;
    player?.seek((layout.scroll + x) / pxPerSecond);
  };
  const cursor = time * pxPerSecond - layout.scroll;
  return (
    <div
      className={`${classes.compareWave} ${active ? '' : classes.dimmed}`}
      data-testid="compare-waveform"
      data-active={active}
      onClick={seek}
    >
      <canvas ref={canvas} className={classes.compareCanvas} style={{ height: HEIGHT }} />
      {cursor >= 0 && cursor <= viewport && <div className={classes.compareCursor} style={{ left: cursor }} />}
      <Text className={classes.waveLabel} size="xs" fw={700}>
        {label}
      </Text>
      {peaks.isError && (
        <Text className={classes.laneMessage} size="xs">
          B’s waveform could not be loaded.
        </Text>
      )}
    </div>
  );
}
