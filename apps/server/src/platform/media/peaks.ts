/** Finest level: 100 peaks a second (10 ms), then ÷5 per coarser level (20 and 4 a second). */
const PEAKS_PER_SECOND = 100;
const LEVEL_FACTORS = [1, 5, 25];

export interface PeakLevel {
  /** Audio frames (at `sampleRate`) per peak. */
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

/** Frames per finest bin at a sample rate: 10 ms of audio. */
export const framesPerPeak = (sampleRate: number) => Math.max(1, Math.round(sampleRate / PEAKS_PER_SECOND));

/**
 * The finest bins (0–255) of a file, and everything derived from them: coarser levels as maxima
 * of finer bins, the peaks file the player draws, and the thumbnail's levels.
 */
export class PeakBins {
  constructor(
    readonly finest: Uint8Array,
    readonly sampleRate: number,
    readonly frames: number,
  ) {}

  private levels(): Uint8Array[] {
    const result = [this.finest];
    for (let level = 1; level < LEVEL_FACTORS.length; level++) {
      const factor = LEVEL_FACTORS[level]! / LEVEL_FACTORS[level - 1]!;
      const finer = result[level - 1]!;
      const coarser = new Uint8Array(Math.ceil(finer.length / factor));
      for (let i = 0; i < finer.length; i++)
        if (finer[i]! > coarser[Math.floor(i / factor)]!) coarser[Math.floor(i / factor)] = finer[i]!;
      result.push(coarser);
    }
    return result;
  }

  file(): PeaksFile {
    const per = framesPerPeak(this.sampleRate);
    return {
      version: 1,
      sampleRate: this.sampleRate,
      durationSeconds: this.frames / this.sampleRate,
      levels: this.levels().map((bins, level) => ({
        samplesPerPeak: per * LEVEL_FACTORS[level]!,
        data: Buffer.from(bins).toString('base64'),
      })),
    };
  }

  /** The coarsest bins, 0–1, for the thumbnail. */
  coarse(): number[] {
    return [...(this.levels().at(-1) ?? [])].map((v) => v / 255);
  }
}

/** Grows a byte array of bins without knowing the length up front. */
class BinWriter {
  private bins = new Uint8Array(4096);
  length = 0;

  push(value: number): void {
    if (this.length === this.bins.length) {
      const bigger = new Uint8Array(this.bins.length * 2);
      bigger.set(this.bins);
      this.bins = bigger;
    }
    this.bins[this.length++] = value;
  }

  result(): Uint8Array {
    return this.bins.slice(0, this.length);
  }
}

/**
 * Folds 16-bit mono PCM into max-|amplitude| bins while ffmpeg streams it, so memory stays at the
 * size of the result (about 100 bytes per second of audio).
 */
export class PeakAccumulator {
  private readonly bins = new BinWriter();
  private readonly per: number;
  private current = 0;
  private count = 0;
  private leftover: Buffer | null = null;
  private samples = 0;

  constructor(private readonly sampleRate: number) {
    this.per = framesPerPeak(sampleRate);
  }

  push(chunk: Buffer): void {
    const data = this.leftover ? Buffer.concat([this.leftover, chunk]) : chunk;
    const usable = data.length - (data.length % 2);
    this.leftover = usable < data.length ? Buffer.from(data.subarray(usable)) : null;
    // Aligned copy when needed: Int16Array views need an even byte offset.
    const aligned = data.byteOffset % 2 === 0 ? data : Buffer.from(data);
    const pcm = new Int16Array(aligned.buffer, aligned.byteOffset, usable / 2);
    const per = this.per;
    let { current, count } = this;
    for (let i = 0; i < pcm.length; i++) {
      const value = pcm[i]!;
      const amplitude = value < 0 ? -value : value;
      if (amplitude > current) current = amplitude;
      if (++count === per) {
        this.bins.push(Math.min(255, Math.round((current / 32768) * 255)));
        current = 0;
        count = 0;
      }
    }
    this.current = current;
    this.count = count;
    this.samples += pcm.length;
  }

  finish(): PeakBins {
    if (this.count > 0) this.bins.push(Math.min(255, Math.round((this.current / 32768) * 255)));
    this.count = 0;
    return new PeakBins(this.bins.result(), this.sampleRate, this.samples);
  }
}

export { BinWriter };
