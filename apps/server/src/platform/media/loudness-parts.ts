import type { PcmFormat } from './loudness-meter';

/** A part's filters start this many 100 ms segments early, so they have settled when it starts. */
const LEAD_SEGMENTS = 10;
/** Below this many segments (30 s) a part is not worth a thread of its own. */
const MIN_PART_SEGMENTS = 300;

/** The bytes one meter reads, and which of its 100 ms segments are its own. */
export interface WavRange {
  bytes: { path: string; start: number; length: number };
  keep: { first: number; count: number; continues: boolean };
}

/**
 * Splits a PCM WAV's samples into up to `parts` ranges, on 100 ms segment boundaries, that meters on
 * separate threads can measure apart and `joinSegments` puts back together with the same result as
 * one meter over the whole file:
 * - each part but the first reads 1 s before its start and keeps no segment of it: the K-weighting
 *   filters' memory of earlier samples decays far below a double's precision within that second
 *   (their slowest pole, the 38 Hz high-pass, loses 1e-12 in about 0.1 s);
 * - the true-peak interpolation reaches 16 samples to either side: a part interpolates the
 *   intervals next to its first samples from its lead-in, and leaves those next to its last samples
 *   to the next part, which reads them in its lead-in (so they are not padded with silence);
 * - the true-peak gate of a later part starts from its own loudest sample, lower than the whole
 *   file's so far, so it interpolates at least what one meter would.
 */
export function splitForMeters(
  format: PcmFormat,
  file: { path: string; start: number; length: number },
  parts: number,
): WavRange[] {
  const frameBytes = (format.bitsPerSample / 8) * format.channels;
  const segmentFrames = Math.round(format.sampleRate / 10);
  const frames = Math.floor(file.length / frameBytes);
  const segments = Math.floor(frames / segmentFrames);
  const count = Math.max(1, Math.min(Math.floor(parts), Math.floor(segments / MIN_PART_SEGMENTS)));
  const ranges: WavRange[] = [];
  for (let part = 0; part < count; part++) {
    const first = Math.floor((part * segments) / count);
    const last = part === count - 1;
    const end = last ? segments : Math.floor(((part + 1) * segments) / count);
    const lead = Math.min(LEAD_SEGMENTS, first);
    const from = (first - lead) * segmentFrames;
    const to = last ? frames : end * segmentFrames;
    ranges.push({
      bytes: { path: file.path, start: file.start + from * frameBytes, length: (to - from) * frameBytes },
      keep: { first: lead, count: end - first, continues: !last },
    });
  }
  return ranges;
}
