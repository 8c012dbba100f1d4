import { Progress } from '@mantine/core';
import { useEffect, useState } from 'react';
import { onMeterFrame } from '../../../lib/meter-ticker';

const FLOOR_DB = -60;

/** A level meter that reads `level()` (dBFS) on the shared meter loop; it renders when the half-dB changes. */
export function LevelBar({ level, label }: { level: (() => number) | null; label: string }) {
  const [db, setDb] = useState(FLOOR_DB);
  useEffect(() => {
    if (!level) return;
    return onMeterFrame(() => {
      const next = Math.round(level() * 2) / 2;
      setDb((shown) => (shown === next ? shown : next));
    });
  }, [level]);
  const value = Math.max(0, Math.min(100, ((db - FLOOR_DB) / -FLOOR_DB) * 100));
  return (
    <Progress
      value={value}
      size="lg"
      radius="xl"
      color={db > -3 ? 'red' : db > -12 ? 'yellow' : 'teal'}
      aria-label={label}
      data-level={Math.round(db)}
      data-testid="level-meter"
      transitionDuration={0}
    />
  );
}
