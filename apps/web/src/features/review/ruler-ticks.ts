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
/** Distance between a tick and its label's text (the label's CSS offset). */
export const LABEL_PAD_PX = 4;
/** The least free space between two labels' texts. */
const MIN_LABEL_GAP_PX = 8;

export interface RulerTick {
  seconds: number;
  /** Position in the drawn waveform, in pixels from its start (not from the viewport). */
  x: number;
  label: string | null;
  /**
   * Which side of its tick a label sits on: after it, or (for the ruler's last label, where the
   * waveform ends) before it, so the end of the file still carries a time.
   */
  align: 'start' | 'end';
}

/** Estimated width of a label's text in pixels. */
export const labelWidth = (label: string) => label.length * CHAR_PX;

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

/**
 * The label step for a zoom: the smallest whose labels keep a gap between them, or the next one
 * when the smallest would leave the end of the file without a label (a 0:30 file at 24 px/s is
 * labelled every 5 s up to 0:30 rather than every 2 s up to 0:28).
 */
export function labelStep(pxPerSecond: number, duration: number): number {
  const withHours = duration >= 3600;
  const labelPx = labelWidth(formatClock(duration, withHours)) + LABEL_GAP_PX;
  const smallest = STEPS.findIndex((step) => step * pxPerSecond >= labelPx);
  if (smallest === -1) return STEPS[STEPS.length - 1]!;
  const endsLabelled = (step: number) => {
    const seconds = Math.floor(duration / step) * step;
    const label = formatClock(seconds, withHours);
    return placeLabel(label, seconds * pxPerSecond, duration * pxPerSecond, step * pxPerSecond) !== null;
  };
  return STEPS.slice(smallest, smallest + 2).find(endsLabelled) ?? STEPS[smallest]!;
}

/**
 * The ticks of the part of the ruler in view (`from`–`to` seconds): labels every step, minor ticks
 * between them when there is room. Only the visible span is computed, so an hour zoomed in costs
 * the same as a short file.
 *
 * Every label stays inside the ruler and clear of its neighbours, and the ruler ends with a label
 * less than one step from its end: a label whose text would run past the end sits before its tick
 * instead, and if it would touch the label before it there, it is left out (that one is then close
 * enough to the end).
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
  const end = duration * pxPerSecond;
  const first = Math.max(0, Math.floor(Math.max(0, from) / unit));
  const last = Math.floor(Math.min(duration, to) / unit);
  const ticks: RulerTick[] = [];
  for (let i = first; i <= last; i++) {
    // Integer tick indices keep labels exact (no 0.1 + 0.2 drift over an hour).
    const seconds = (i * step) / perLabel;
    const x = seconds * pxPerSecond;
    const placed = i % perLabel === 0 ? placeLabel(formatClock(seconds, withHours), x, end, step * pxPerSecond) : null;
    ticks.push({ seconds, x, label: placed?.label ?? null, align: placed?.align ?? 'start' });
  }
  return ticks;
}

/**
 * Where a label at `x` goes on a ruler `end` pixels long whose labels are `spacing` apart: after
 * its tick when the text fits before the end; otherwise (only the last label can run past the end,
 * as labels are at least a label apart) before its tick when that keeps it clear of the label one
 * step earlier; otherwise nowhere.
 */
function placeLabel(
  label: string,
  x: number,
  end: number,
  spacing: number,
): { label: string; align: 'start' | 'end' } | null {
  const width = labelWidth(label);
  if (x + LABEL_PAD_PX + width <= end) return { label, align: 'start' };
  const previousRight = x - spacing + LABEL_PAD_PX + width;
  const left = x - LABEL_PAD_PX - width;
  return left >= 0 && left - previousRight >= MIN_LABEL_GAP_PX ? { label, align: 'end' } : null;
}
