import type { PeaksFile } from './api';

type PeakLevel = PeaksFile['levels'][number];

/** One resolution of the server's peaks as bytes (0–255 per bin): an hour at 100 bins/s is 360 kB. */
export interface DecodedLevel {
  perSecond: number;
  bins: Uint8Array;
}

const perSecondOf = (file: PeaksFile, level: PeakLevel) => file.sampleRate / level.samplesPerPeak;

/** The coarsest level with at least one bin per bar at this density; the finest when none has. */
export function chooseLevel(file: PeaksFile, barsPerSecond: number): PeakLevel {
  const sorted = [...file.levels].sort((a, b) => perSecondOf(file, a) - perSecondOf(file, b));
  return sorted.find((level) => perSecondOf(file, level) >= barsPerSecond) ?? sorted[sorted.length - 1]!;
}

function decode(file: PeaksFile, level: PeakLevel): DecodedLevel {
  const text = atob(level.data);
  const bins = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bins[i] = text.charCodeAt(i);
  return { perSecond: perSecondOf(file, level), bins };
}

/**
 * The peaks of one version, decoded level by level only when a zoom first needs it, and kept as
 * bytes: the player never holds floats for levels it does not draw.
 */
export class PeakLevels {
  private readonly decoded = new Map<PeakLevel, DecodedLevel>();
  /** Coarser levels are maxima of finer bins, so every level shares the loudest bin. */
  readonly loudest: number;

  constructor(readonly file: PeaksFile) {
    let loudest = 1;
    for (const bin of this.coarsest().bins) if (bin > loudest) loudest = bin;
    this.loudest = loudest;
  }

  forDensity(barsPerSecond: number): DecodedLevel {
    return this.level(chooseLevel(this.file, barsPerSecond));
  }

  coarsest(): DecodedLevel {
    const sorted = [...this.file.levels].sort((a, b) => a.samplesPerPeak - b.samplesPerPeak);
    return this.level(sorted[sorted.length - 1]!);
  }

  private level(level: PeakLevel): DecodedLevel {
    let decoded = this.decoded.get(level);
    if (!decoded) {
      decoded = decode(this.file, level);
      this.decoded.set(level, decoded);
    }
    return decoded;
  }
}

/**
 * Bar heights (0–1 of the loudest bin) for `count` bars starting at `fromSeconds`, each
 * `secondsPerBar` long: every bar takes the maximum of the bins it covers, and at least one.
 */
export function barHeights(
  level: DecodedLevel,
  loudest: number,
  fromSeconds: number,
  secondsPerBar: number,
  count: number,
): Float32Array {
  const heights = new Float32Array(count);
  const { bins, perSecond } = level;
  for (let bar = 0; bar < count; bar++) {
    const start = Math.floor((fromSeconds + bar * secondsPerBar) * perSecond);
    if (start >= bins.length) break;
    const end = Math.min(
      bins.length,
      Math.max(start + 1, Math.floor((fromSeconds + (bar + 1) * secondsPerBar) * perSecond)),
    );
    let peak = 0;
    for (let i = Math.max(0, start); i < end; i++) if (bins[i]! > peak) peak = bins[i]!;
    heights[bar] = peak / loudest;
  }
  return heights;
}
