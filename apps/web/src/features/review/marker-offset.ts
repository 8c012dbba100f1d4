/** The longest session start the server accepts: a day. */
export const MAX_OFFSET_MS = 24 * 3_600_000;

export type OffsetResult = { ms: number; error: null } | { ms: null; error: string };

const fail = (error: string): OffsetResult => ({ ms: null, error });

/**
 * Where the DAW session starts, as a time (h:mm:ss.ms, m:ss.ms or seconds) or as a sample count
 * ("96000 samples" or "96000 smp", at the version's sample rate), in whole milliseconds: the unit
 * the markers are written in. Empty means the session starts at zero.
 */
export function parseOffset(input: string, sampleRate: number | null): OffsetResult {
  const text = input.trim().toLowerCase();
  if (!text) return { ms: 0, error: null };
  const samples = /^(\d+)\s*(samples?|smp)$/.exec(text);
  if (samples) {
    if (!sampleRate) return fail('This version has no known sample rate: enter a time instead.');
    return within(Math.round((Number(samples[1]) / sampleRate) * 1000));
  }
  const time = /^(?:(?:(\d+):)?(\d{1,2}):)?(\d+(?:\.\d{1,3})?)$/.exec(text);
  if (!time) return fail('Enter a time as h:mm:ss.ms (0:00:02.000) or a sample count (96000 samples).');
  const [, hours, minutes, seconds] = time;
  if ((hours !== undefined || minutes !== undefined) && Number(seconds) >= 60) return fail('Seconds must be below 60.');
  if (hours !== undefined && Number(minutes) >= 60) return fail('Minutes must be below 60.');
  const ms = Math.round((Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds)) * 1000);
  return within(ms);
}

const within = (ms: number): OffsetResult =>
  ms > MAX_OFFSET_MS ? fail('The session start can be at most 24 hours.') : { ms, error: null };
