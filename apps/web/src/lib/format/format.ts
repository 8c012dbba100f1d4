import { UNLIMITED } from '@mixroom/shared';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Decimal units, as the spec counts storage (1 MB = 1,000,000 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes === UNLIMITED) return 'Unlimited';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}

export const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export const formatLimit = (value: number, unit = '') => (value === UNLIMITED ? 'Unlimited' : `${value.toLocaleString()}${unit}`);
