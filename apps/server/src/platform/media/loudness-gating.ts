import type { Loudness } from './ffmpeg';

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const RANGE_RELATIVE_GATE_LU = -20;
/** Gating blocks are 400 ms long and start every 100 ms; short-term windows (the range's) are 3 s. */
const SEGMENTS_PER_BLOCK = 4;
const SEGMENTS_PER_SHORT_TERM = 30;

const loudnessOf = (power: number) => -0.691 + 10 * Math.log10(power);
const powerOf = (loudness: number) => 10 ** ((loudness + 0.691) / 10);
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * What a meter measured over a stream or one part of it: the K-weighted mean square of each complete
 * 100 ms segment (channels summed), and the largest true-peak value (linear, 1 = full scale).
 */
export interface MeteredSegments {
  powers: Float64Array;
  truePeak: number;
}

/** The parts of one file, metered apart, in order: their segments end to end, the larger peak. */
export function joinSegments(parts: MeteredSegments[]): MeteredSegments {
  const powers = new Float64Array(parts.reduce((sum, part) => sum + part.powers.length, 0));
  let at = 0;
  for (const part of parts) {
    powers.set(part.powers, at);
    at += part.powers.length;
  }
  return { powers, truePeak: Math.max(0, ...parts.map((part) => part.truePeak)) };
}

/**
 * Integrated loudness by BS.1770's gating: 400 ms blocks every 100 ms, gated at −70 LUFS and then
 * at 10 LU below the mean of those kept. The range by EBU Tech 3342: 3 s windows every 100 ms,
 * gated at −70 LUFS and 20 LU below their mean, from the 10th to the 95th percentile. Null for
 * what silence leaves undefined.
 */
export function gatedLoudness({ powers, truePeak }: MeteredSegments): Loudness {
  const integrated = integratedOf(powers);
  return {
    integrated,
    truePeak: truePeak > 0 ? 20 * Math.log10(truePeak) : null,
    // No loudness, no range: the same blocks fail the same gate.
    range: integrated === null ? null : rangeOf(powers),
  };
}

function integratedOf(powers: Float64Array): number | null {
  const blocks = windowPowers(powers, SEGMENTS_PER_BLOCK).filter((p) => p > 0 && loudnessOf(p) >= ABSOLUTE_GATE_LUFS);
  if (blocks.length === 0) return null;
  const gate = powerOf(loudnessOf(mean(blocks)) + RELATIVE_GATE_LU);
  const kept = blocks.filter((p) => p >= gate);
  return loudnessOf(mean(kept));
}

function rangeOf(powers: Float64Array): number | null {
  const windows = windowPowers(powers, SEGMENTS_PER_SHORT_TERM).filter(
    (p) => p > 0 && loudnessOf(p) >= ABSOLUTE_GATE_LUFS,
  );
  if (windows.length === 0) return null;
  const gate = loudnessOf(mean(windows)) + RANGE_RELATIVE_GATE_LU;
  const kept = windows
    .map(loudnessOf)
    .filter((l) => l >= gate)
    .sort((a, b) => a - b);
  if (kept.length === 0) return 0;
  const at = (percent: number) => kept[Math.max(0, Math.round((percent / 100) * kept.length) - 1)]!;
  return at(95) - at(10);
}

/** Mean power of every window of `span` segments that ends on a segment boundary (100 ms apart). */
function windowPowers(powers: Float64Array, span: number): number[] {
  const result: number[] = [];
  let sum = 0;
  for (let i = 0; i < powers.length; i++) {
    sum += powers[i]!;
    if (i >= span) sum -= powers[i - span]!;
    // Summing and subtracting drifts by ~1e-16 of the largest power: far below any gate's reach.
    if (i >= span - 1) result.push(Math.max(0, sum) / span);
  }
  return result;
}
