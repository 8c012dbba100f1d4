import { useEffect, useRef } from 'react';
import { meterFraction } from '../audio/level';

/**
 * A live level meter: reads `level()` (dBFS) every animation frame and draws the bar directly, so
 * meters never re-render React. Green to −12 dB, amber to −3 dB, red above.
 */
export function LevelMeter({
  level,
  width = 80,
  height = 6,
  label,
}: {
  level: () => number;
  width?: number | string;
  height?: number;
  label?: string;
}) {
  const bar = useRef<HTMLDivElement>(null);
  const read = useRef(level);
  useEffect(() => {
    read.current = level;
  }, [level]);
  useEffect(() => {
    let frame = 0;
    let shown = 0;
    const tick = () => {
      const db = read.current();
      const target = meterFraction(db);
      // Fast attack, slower release, like a hardware meter.
      shown = target > shown ? target : shown * 0.9 + target * 0.1;
      const el = bar.current;
      if (el) {
        el.style.width = `${(shown * 100).toFixed(1)}%`;
        el.style.background =
          db > -3
            ? 'var(--mantine-color-red-6)'
            : db > -12
              ? 'var(--mantine-color-yellow-5)'
              : 'var(--mantine-color-teal-5)';
        el.dataset.db = db.toFixed(1);
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <div
      role="meter"
      aria-label={label ?? 'Level'}
      aria-valuemin={-60}
      aria-valuemax={0}
      style={{
        width,
        height,
        borderRadius: height / 2,
        background: 'var(--mantine-color-default-border)',
        overflow: 'hidden',
        flex: 'none',
      }}
    >
      <div ref={bar} data-testid="level-bar" style={{ height: '100%', width: 0 }} />
    </div>
  );
}
