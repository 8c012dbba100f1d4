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
 * Folds 16-bit mono PCM into max-|amplitude| bins while ffmpeg streams it, so memory stays at the
 * size of the result (about 100 bytes per second of audio). Only the finest level is computed per
 * sample; coarser levels are maxima of finer bins.
 */
export class PeakAccumulator {
  private readonly finest: number[] = [];
  private current = 0;
  private count = 0;
  private leftover: Buffer | null = null;
  private samples = 0;

  push(chunk: Buffer): void {
    const data = this.leftover ? Buffer.concat([this.leftover, chunk]) : chunk;
    const usable = data.length - (data.length % 2);
    this.leftover = usable < data.length ? Buffer.from(data.subarray(usable)) : null;
    // Aligned copy when needed: Int16Array views need an even byte offset.
    const aligned = data.byteOffset % 2 === 0 ? data : Buffer.from(data);
    const pcm = new Int16Array(aligned.buffer, aligned.byteOffset, usable / 2);
    const per = LEVEL_SAMPLES[0]!;
    let { current, count } = this;
    for (let i = 0; i < pcm.length; i++) {
      const value = pcm[i]!;
      const amplitude = value < 0 ? -value : value;
      if (amplitude > current) current = amplitude;
      if (++count === per) {
        this.finest.push(current);
        current = 0;
        count = 0;
      }
    }
    this.current = current;
    this.count = count;
    this.samples += pcm.length;
  }

  private levels(): number[][] {
    const finest = this.count > 0 ? [...this.finest, this.current] : this.finest;
    const result = [finest];
    for (let level = 1; level < LEVEL_SAMPLES.length; level++) {
      const factor = LEVEL_SAMPLES[level]! / LEVEL_SAMPLES[level - 1]!;
      const finer = result[level - 1]!;
      const coarser: number[] = [];
      for (let i = 0; i < finer.length; i += factor) coarser.push(Math.max(...finer.slice(i, i + factor)));
      result.push(coarser);
    }
    return result;
  }

  finish(): PeaksFile {
    const scale = (bins: number[]) => Buffer.from(bins.map((v) => Math.min(255, Math.round((v / 32768) * 255)))).toString('base64');
    return {
      version: 1,
      sampleRate: PEAK_SAMPLE_RATE,
      durationSeconds: this.samples / PEAK_SAMPLE_RATE,
      levels: this.levels().map((bins, level) => ({ samplesPerPeak: LEVEL_SAMPLES[level]!, data: scale(bins) })),
    };
  }

  /** The coarsest bins, 0–1, for the thumbnail. */
  coarse(): number[] {
    return (this.levels().at(-1) ?? []).map((v) => v / 32768);
  }
}
