/** Ducking ramps (time constants, s): ~95 % of the dip within 3 × 15 ms, back within 3 × 120 ms. */
const DUCK_ATTACK_S = 0.015;
const DUCK_RELEASE_S = 0.12;

/**
 * Ducks what `gain` carries by `depthDb` (≤ 0) while someone else talks, or lets it back (null), on
 * short ramps like a console's talkback dim: a fast attack so the first word is heard over the
 * music, a slower release so the music does not pump between words.
 */
export function rampDuck(gain: GainNode, context: BaseAudioContext, depthDb: number | null): void {
  const target = depthDb === null ? 1 : 10 ** (Math.min(0, depthDb) / 20);
  const timeConstant = depthDb === null ? DUCK_RELEASE_S : DUCK_ATTACK_S;
  gain.gain.cancelScheduledValues(context.currentTime);
  gain.gain.setTargetAtTime(target, context.currentTime, timeConstant);
}
