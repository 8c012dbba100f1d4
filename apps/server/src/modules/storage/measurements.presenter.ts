import type { Version } from '@mixroom/contracts';

/** A stored figure as the API gives it: a finite number, or null for one that doesn't exist. */
const figure = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * A version's loudness as stored (JSON written by the media job, possibly by an older one) in the
 * response's shape. Rows measured before silence was understood hold null where ebur128 said
 * −inf; whatever a row holds, one odd version must not make a whole listing fail its schema.
 */
export function presentLoudness(stored: unknown): Version['loudness'] {
  const value = record(stored);
  if (!value) return null;
  return { integrated: figure(value.integrated), truePeak: figure(value.truePeak), range: figure(value.range) };
}

/** The probed stream facts as stored, or null when the row holds something else. */
export function presentMedia(stored: unknown): Version['media'] {
  const value = record(stored);
  if (!value) return null;
  const channels = figure(value.channels);
  const sampleRate = figure(value.sampleRate);
  if (channels === null || sampleRate === null) return null;
  return {
    format: typeof value.format === 'string' ? value.format : 'unknown',
    codec: typeof value.codec === 'string' ? value.codec : 'unknown',
    channels,
    sampleRate,
    bitDepth: figure(value.bitDepth),
    bitRate: figure(value.bitRate),
  };
}

/** A length that is not a positive, finite number of seconds is no length. */
export function presentDuration(stored: number | null): number | null {
  return stored !== null && Number.isFinite(stored) && stored > 0 ? stored : null;
}
