/** Subpixel widths round differently in layout and in measurement: this much overflow is no overflow. */
const TOLERANCE_PX = 0.5;

/**
 * How many toolbar actions, in order, fit in a row `available` pixels wide with `gap` between
 * them: all when they do; otherwise as many as fit beside the More button that holds the rest.
 */
export function fittingCount(widths: readonly number[], available: number, gap: number, moreWidth: number): number {
  const total = widths.reduce((sum, width, i) => sum + width + (i > 0 ? gap : 0), 0);
  if (total <= available + TOLERANCE_PX) return widths.length;
  let used = moreWidth;
  let count = 0;
  for (const width of widths) {
    if (used + gap + width > available + TOLERANCE_PX) break;
    used += gap + width;
    count++;
  }
  return count;
}
