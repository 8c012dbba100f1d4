import { memo, useMemo } from 'react';
import type { PlayerController } from '../player-controller';
import { usePlayerState } from '../hooks/use-player';
import { rulerTicks } from '../ruler-ticks';
import classes from './review.module.css';

/** How far before the view a tick may sit and still show part of its label, in pixels. */
const LABEL_REACH_PX = 56;

/**
 * The time ruler under the waveform, drawn for the part in view only: it follows zoom and scroll,
 * and its labels keep one clock format, never touch, and run to the end of the file.
 */
export const TimeRuler = memo(function TimeRuler({
  player,
  duration,
}: {
  player: PlayerController | null;
  duration: number;
}) {
  const { width, scroll, viewport } = usePlayerState((s) => s.layout, player);
  const ticks = useMemo(() => {
    if (!width || !viewport) return [];
    const pxPerSecond = width / duration;
    // A tick's label starts at the tick: look one label back so a label half in view still shows.
    return rulerTicks({
      pxPerSecond,
      duration,
      from: (scroll - LABEL_REACH_PX) / pxPerSecond,
      to: (scroll + viewport) / pxPerSecond,
    });
  }, [width, scroll, viewport, duration]);
  return (
    <div className={classes.ruler} data-testid="timeline" aria-hidden>
      {ticks.map((tick) => (
        <div
          key={tick.seconds}
          className={tick.label ? classes.rulerMajor : classes.rulerMinor}
          style={{ transform: `translateX(${tick.x - scroll}px)` }}
        >
          {tick.label && (
            <span
              className={tick.align === 'end' ? classes.rulerLabelEnd : classes.rulerLabel}
              data-testid="ruler-label"
            >
              {tick.label}
            </span>
          )}
        </div>
      ))}
    </div>
  );
});
