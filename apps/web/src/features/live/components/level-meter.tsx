import { useEffect, useRef } from 'react';
import { meterFraction } from '../audio/level';
import { onMeterFrame } from '../../../lib/meter-ticker';

/**
 * A live level meter: reads `level()` (dBFS) on the page's shared meter loop (30 Hz) and draws the
 * bar directly, so meters never re-render React. Green to −12 dB, amber to −3 dB, red above.
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
    let shown = 0;
    let drawn = '';
    let color = '';
    let said = '';
    return onMeterFrame(() => {
      const db = read.current();
      const target = meterFraction(db);
      // Fast attack, slower release, like a hardware meter (the release is per 30 Hz frame).
      shown = target > shown ? target : shown * 0.81 + target * 0.19;
      const el = bar.current;
      if (!el) return;
      // Only what changed is written: a scale (no layout), a colour when it crosses a mark.
      const scale = shown.toFixed(3);
      if (scale !== drawn) {
        el.style.transform = `scaleX(${scale})`;
        drawn = scale;
      }
      const text = db.toFixed(1);
      if (text !== said) {
        el.dataset.db = text;
        said = text;
      }
      const next = db > -3 ? 'red-6' : db > -12 ? 'yellow-5' : 'teal-5';
      if (next !== color) {
        el.style.background = `var(--mantine-color-${next})`;
        color = next;
      }
    });
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
      <div
        ref={bar}
        data-testid="level-bar"
        style={{ height: '100%', width: '100%', transform: 'scaleX(0)', transformOrigin: 'left' }}
      />
    </div>
  );
}
