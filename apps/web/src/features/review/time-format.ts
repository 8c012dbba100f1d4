/** 1:23.45 or 1:02:03.45: review times are precise to the hundredth (spec 2 §3). */
export function formatPrecise(seconds: number): string {
  const safe = Math.max(0, seconds);
  const hundredths = Math.floor((safe * 100) % 100);
  const total = Math.floor(safe);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const tail = `${String(s).padStart(2, '0')}.${String(hundredths).padStart(2, '0')}`;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${tail}` : `${m}:${tail}`;
}
