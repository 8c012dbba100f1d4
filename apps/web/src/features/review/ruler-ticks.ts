/** Label spacings a ruler may use, in seconds: whole seconds, then the steps people count in. */
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400];
/** How many minor ticks split each step (so 30 s shows 5 s ticks, a minute 10 s ticks). */
const DIVISIONS: Record<number, number> = {
  1: 4,
  2: 4,
  5: 5,
  10: 5,
  15: 3,
  30: 6,
  60: 6,
  120: 4,
  300: 5,
  600: 5,
  900: 3,
  1800: 6,
  3600: 6,
  7200: 4,
  14_400: 4,
};
/** Minor ticks closer than this are left out: they would read as a grey band. */
const MIN_MINOR_PX = 6;
/** Width of one label's character at the ruler's font, and the free space kept around a label. */
const CHAR_PX = 7;
const LABEL_GAP_PX = 16;

export interface RulerTick {
  seconds: number;
  /** Position in the drawn waveform, in pixels from its start (not from the viewport). */
  x: number;
  label: string | null;
}

/**
 * One clock format for a whole file, so labels never mix "30" with "1:30": h:mm:ss from an hour
 * on, m:ss below. Labels sit on whole seconds.
 */
export function formatClock(seconds: number, withHours: boolean): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return withHours ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${Math.floor(total / 60)}:${s}`;
}

/** The label step for a zoom: the smallest whose labels keep a gap between them. */
export function labelStep(pxPerSecond: number, duration: number): number {
  const withHours = duration >= 3600;
  const labelPx = formatClock(duration, withHours).length * CHAR_PX + LABEL_GAP_PX;
  return STEPS.find((step) => step * pxPerSecond >= labelPx) ?? STEPS[STEPS.length - 1]!;
}

/**
 * The ticks of the part of the ruler in view (`from`–`to` seconds): labels every step, minor ticks
 * between them when there is room. Only the visible span is computed, so an hour zoomed in costs
 * the same as a short file.
 */
export function rulerTicks({
  pxPerSecond,
  duration,
  from,
  to,
}: {
  pxPerSecond: number;
  duration: number;
  from: number;
  to: number;
}): RulerTick[] {
  if (!(pxPerSecond > 0) || !(duration > 0)) return [];
  const withHours = duration >= 3600;
  const step = labelStep(pxPerSecond, duration);
  const divisions = DIVISIONS[step] ?? 1;
  const minor = step / divisions;
  const perLabel = minor * pxPerSecond >= MIN_MINOR_PX ? divisions : 1;
  const unit = step / perLabel;
  const first = Math.max(0, Math.floor(Math.max(0, from) / unit));
  const last = Math.floor(Math.min(duration, to) / unit);
  const ticks: RulerTick[] = [];
  for (let i = first; i <= last; i++) {
    // Integer tick indices keep labels exact (no 0.1 + 0.2 drift over an hour).
    const seconds = (i * step) / perLabel;
    ticks.push({
      seconds,
      x: seconds * pxPerSecond,
      label: i % perLabel === 0 ? formatClock(seconds, withHours) : null,
    });
  }
  return ticks;
}
