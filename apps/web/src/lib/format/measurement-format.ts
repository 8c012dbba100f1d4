/** What the web shows for a measurement that doesn't exist (a silent file's true peak). */
export const ABSENT = '—';

/** A measured figure with its unit, to `digits` decimals, or "—" when there is none. */
export function formatMeasure(value: number | null | undefined, unit: string, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? ABSENT : `${value.toFixed(digits)} ${unit}`;
}
