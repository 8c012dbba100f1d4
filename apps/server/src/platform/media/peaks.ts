/** Samples per second of the PCM the analyser reads (spec 2 §9: waveform sample rate 8000). */
export const PEAK_SAMPLE_RATE = 8000;
/** Finest level: 100 peaks a second (10 ms), then ÷5 per coarser level. */
const LEVEL_SAMPLES = [80, 400, 2000];

export interface PeakLevel {
  /** PCM samples (at 8 kHz) per peak. */
  samplesPerPeak: number;
  /** Peak amplitude per bin, 0–255 (max |sample|), base64. */
  data: string;
}

export interface PeaksFile {
  version: 1;
  sampleRate: number;
  durationSeconds: number;
  levels: PeakLevel[];
}

/**
 * Folds 16-bit mono PCM into max-|amplitude| bins at several zoom levels while ffmpeg streams it,
 * so memory stays at the size of the result (about 100 bytes per second of audio).
 */
export class PeakAccumulator {
  private readonly bins: number[][] = LEVEL_SAMPLES.map(() => []);
  private readonly current = LEVEL_SAMPLES.map(() => 0);
  private readonly counts = LEVEL_SAMPLES.map(() => 0);
  private leftover: Buffer | null = null;
  private samples = 0;

  push(chunk: Buffer): void {
    const data = this.leftover ? Buffer.concat([this.leftover, chunk]) : chunk;
    const usable = data.length - (data.length % 2);
    this.leftover = usable < data.length ? data.subarray(usable) : null;
    for (let offset = 0; offset < usable; offset += 2) {
      const amplitude = Math.abs(data.readInt16LE(offset));
      this.samples++;
      for (let level = 0; level < LEVEL_SAMPLES.length; level++) {
        if (amplitude > this.current[level]!) this.current[level] = amplitude;
        if (++this.counts[level]! === LEVEL_SAMPLES[level]) this.flush(level);
      }
    }
  }

  private flush(level: number): void {
    this.bins[level]!.push(Math.min(255, Math.round((this.current[level]! / 32768) * 255)));
    this.current[level] = 0;
    this.counts[level] = 0;
  }

  finish(): PeaksFile {
    LEVEL_SAMPLES.forEach((_, level) => this.counts[level]! > 0 && this.flush(level));
    return {
      version: 1,
      sampleRate: PEAK_SAMPLE_RATE,
      durationSeconds: this.samples / PEAK_SAMPLE_RATE,
      levels: LEVEL_SAMPLES.map((samplesPerPeak, level) => ({ samplesPerPeak, data: Buffer.from(this.bins[level]!).toString('base64') })),
    };
  }

  /** The coarsest bins, 0–1, for the thumbnail. */
  coarse(): number[] {
    return (this.bins[LEVEL_SAMPLES.length - 1] ?? []).map((v) => v / 255);
  }
}
