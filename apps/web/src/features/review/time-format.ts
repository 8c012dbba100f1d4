import { toHundredths } from '@mixroom/shared';

/**
 * 1:23.45 or 1:02:03.45: review times to the hundredth, rounded as they are stored, so the playhead,
 * a draft and the posted comment always read the same.
 */
export function formatPrecise(seconds: number): string {
  const all = toHundredths(Math.max(0, seconds));
  const hundredths = all % 100;
  const total = Math.floor(all / 100);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const tail = `${String(s).padStart(2, '0')}.${String(hundredths).padStart(2, '0')}`;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${tail}` : `${m}:${tail}`;
}
