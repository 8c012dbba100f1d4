/** Voice activity from a level: above this (dBFS RMS) is speech on a processed microphone. */
export const SPEAKING_DB = -50;
/** Speech keeps "speaking" on this long after its last loud frame, so gaps between words don't flicker. */
export const SPEAKING_HANG_MS = 400;

/** Speaking or not, from levels read over time: a threshold with a hang time. */
export class SpeakingDetector {
  private lastLoudMs = Number.NEGATIVE_INFINITY;

  update(levelDb: number, nowMs: number): boolean {
    if (levelDb > SPEAKING_DB) this.lastLoudMs = nowMs;
    return nowMs - this.lastLoudMs <= SPEAKING_HANG_MS;
  }

  reset(): void {
    this.lastLoudMs = Number.NEGATIVE_INFINITY;
  }
}
