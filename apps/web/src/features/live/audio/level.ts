/** Levels in dBFS from an analyser's time-domain data (RMS over the last buffer). */
export const SILENCE_DB = -120;

export function rmsDb(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  const rms = Math.sqrt(sum / Math.max(1, samples.length));
  return rms > 0 ? Math.max(SILENCE_DB, 20 * Math.log10(rms)) : SILENCE_DB;
}

/** Reads an analyser's level now. */
export function analyserDb(analyser: AnalyserNode, buffer?: Float32Array<ArrayBuffer>): number {
  const data = buffer ?? new Float32Array(analyser.fftSize);
  analyser.getFloatTimeDomainData(data);
  return rmsDb(data);
}

/** 0..1 for a meter drawn from −60 dB to 0 dB. */
export function meterFraction(db: number): number {
  return Math.max(0, Math.min(1, (db + 60) / 60));
}

/**
 * Auto Mute's decision: the average of the recent levels above the threshold (−90 dB) means sound,
 * so the microphone mutes; quiet unmutes. `levels` is a sliding window of recent readings.
 */
export function autoMuteShouldMute(levels: number[], thresholdDb: number): boolean {
  if (levels.length === 0) return false;
  const average = levels.reduce((a, b) => a + b, 0) / levels.length;
  return average > thresholdDb;
}
