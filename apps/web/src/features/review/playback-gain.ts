import { appliedGain, LOUDNESS_TARGETS } from '@mixroom/shared';
import type { Version } from '@mixroom/contracts';

type Loudness = Version['loudness'];

/** "Original" plays the file as it is; the others as that platform's normalisation would. */
export const PLATFORMS = ['Original', ...LOUDNESS_TARGETS.map((t) => t.platform)] as const;
export type PlatformChoice = (typeof PLATFORMS)[number];

export const dbToGain = (db: number) => 10 ** (db / 20);

/**
 * The gain a platform applies to a version, from its measured loudness and true peak, with that
 * platform's rule for quiet masters (see appliedGain). Original, or an unmeasured file, plays as is.
 */
export function platformGain(platform: PlatformChoice, loudness: Loudness): number {
  const target = LOUDNESS_TARGETS.find((t) => t.platform === platform);
  if (!target || loudness?.integrated == null) return 0;
  // Without a true peak the headroom is unknown: no boost is counted on it.
  return appliedGain(target.platform, loudness.integrated, loudness.truePeak ?? -1, target.lufs);
}

/**
 * The gain (dB) each side of a comparison plays with: first the platform's normalisation, then,
 * when matching, B moved to A's loudness as heard, so a louder bounce cannot win by being louder.
 * Without a measured loudness on both sides there is nothing to match.
 */
export function playbackGains(options: { platform: PlatformChoice; match: boolean; a: Loudness; b: Loudness }): {
  a: number;
  b: number;
} {
  const a = platformGain(options.platform, options.a);
  const b = platformGain(options.platform, options.b);
  const loudnessA = options.a?.integrated;
  const loudnessB = options.b?.integrated;
  if (!options.match || loudnessA == null || loudnessB == null) return { a, b };
  const heardA = loudnessA + a;
  const heardB = loudnessB + b;
  return { a, b: round(b + heardA - heardB) };
}

const round = (db: number) => Math.round(db * 100) / 100;

/** A gain as people read it: "+1.5 dB", "−2.3 dB" (a real minus sign), "0.0 dB". */
export function formatGain(db: number): string {
  if (Math.abs(db) < 0.05) return '0.0 dB';
  return `${db > 0 ? '+' : '−'}${Math.abs(db).toFixed(1)} dB`;
}
