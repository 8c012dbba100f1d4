/**
 * The built-in separator's masks: for every time-frequency bin of a stereo block, which share of
 * each channel goes to vocals, drums and bass (other takes the rest). Three cues, no model:
 *
 * - Centre extraction. A lead vocal is mixed to the centre (the same in both channels) while
 *   guitars, keys and stereo reverb sit elsewhere. From the channels' powers and cross-power,
 *   averaged over a few neighbouring bins and frames, the centre's power is estimated two ways —
 *   the cross-power (what left and right have in common: any uncorrelated ambience drops out) and
 *   the power left once one panned source is explained away (solving L = C + a·S, R = C + b·S from
 *   the three statistics, the mid/side form of the model) — and the smaller is kept, since each
 *   overestimates where the other is exact. Centre power over a channel's power is a ratio (Wiener)
 *   mask. The inter-channel coherence is what makes the two differ.
 * - Harmonic/percussive separation: medians along time (sustained tones survive) and along
 *   frequency (hits survive) of the stereo magnitude, turned into soft masks (H²/(H² + P²)).
 * - Bands: vocals only between ~120 Hz and ~12 kHz (the bass and kick below, cymbal air above
 *   are centred too), bass only below ~200 Hz.
 *
 * vocals = centre · harmonic · voice band; of the rest, drums = percussive, bass = harmonic · low
 * band, and other is what remains, so for every bin the four shares sum to 1 in each channel.
 */
import { medianOverFrequency, medianOverTime } from './median-filter';

export interface MaskSettings {
  /** Half-length, in frames, of the median along time (harmonic). */
  harmonicRadius: number;
  /** Half-length, in bins, of the median along frequency (percussive). */
  percussiveRadius: number;
  /** Half-sizes of the neighbourhood the channel statistics are averaged over. */
  coherenceFrames: number;
  coherenceBins: number;
  /** The centre mask is raised to this power: above 1, bins shared with panned sources give up more. */
  centreSharpness: number;
  /** Voice band: full from `voiceLowHz[1]` to `voiceHighHz[0]`, fading to nothing at the outer edges. */
  voiceLowHz: readonly [number, number];
  voiceHighHz: readonly [number, number];
  /** Bass band: full below `bassHz[0]`, nothing above `bassHz[1]`. */
  bassHz: readonly [number, number];
}

/** Frames of context a mask needs on each side of the frame it is computed for. */
export function maskContextFrames(settings: MaskSettings): number {
  return Math.max(settings.harmonicRadius, settings.coherenceFrames);
}

/** One channel's spectra for a block of frames, `re[frame · bins + bin]`. */
export interface ChannelSpectra {
  re: Float32Array;
  im: Float32Array;
}

export interface StereoBlock {
  frames: number;
  bins: number;
  /** Hz per bin. */
  binHz: number;
  left: ChannelSpectra;
  right: ChannelSpectra;
}

/** Per stem, per channel (left, right), a share in [0, 1] for every bin of the block. */
export interface StemMasks {
  vocals: [Float32Array, Float32Array];
  drums: [Float32Array, Float32Array];
  bass: [Float32Array, Float32Array];
}

export function allocateMasks(size: number): StemMasks {
  const pair = (): [Float32Array, Float32Array] => [new Float32Array(size), new Float32Array(size)];
  return { vocals: pair(), drums: pair(), bass: pair() };
}

/** 0 below `from`, 1 above `to`, a raised-cosine between. */
function rise(hz: number, from: number, to: number): number {
  if (hz <= from) return 0;
  if (hz >= to) return 1;
  return 0.5 - 0.5 * Math.cos((Math.PI * (hz - from)) / (to - from));
}

/**
 * Box average over ±frames, ±bins (cut at the block's edges) of `values` into `out`, for frames
 * [from, to). Separable running sums, so the cost does not grow with the neighbourhood.
 */
function boxAverage(
  values: Float32Array,
  block: StereoBlock,
  frames: number,
  bins: number,
  from: number,
  to: number,
  out: Float32Array,
  scratch: Float64Array,
): void {
  const width = block.bins;
  // Along time first, for every bin of the frames [from, to).
  for (let t = from; t < to; t++) {
    const first = Math.max(0, t - frames);
    const last = Math.min(block.frames - 1, t + frames);
    for (let k = 0; k < width; k++) {
      let sum = 0;
      for (let u = first; u <= last; u++) sum += values[u * width + k]!;
      scratch[k] = sum / (last - first + 1);
    }
    // Then along frequency within the frame.
    let sum = 0;
    let count = 0;
    for (let k = 0; k <= Math.min(width - 1, bins); k++) {
      sum += scratch[k]!;
      count++;
    }
    for (let k = 0; k < width; k++) {
      out[t * width + k] = sum / count;
      const leaving = k - bins;
      const entering = k + bins + 1;
      if (leaving >= 0) {
        sum -= scratch[leaving]!;
        count--;
      }
      if (entering < width) {
        sum += scratch[entering]!;
        count++;
      }
    }
  }
}

/** Working arrays of one block size, kept from block to block. */
export class MaskWorkspace {
  readonly magnitude: Float32Array;
  readonly harmonic: Float32Array;
  readonly percussive: Float32Array;
  readonly powerLeft: Float32Array;
  readonly powerRight: Float32Array;
  readonly crossPower: Float32Array;
  readonly meanLeft: Float32Array;
  readonly meanRight: Float32Array;
  readonly meanCross: Float32Array;
  readonly row: Float64Array;

  constructor(size: number, bins: number) {
    const make = () => new Float32Array(size);
    this.magnitude = make();
    this.harmonic = make();
    this.percussive = make();
    this.powerLeft = make();
    this.powerRight = make();
    this.crossPower = make();
    this.meanLeft = make();
    this.meanRight = make();
    this.meanCross = make();
    this.row = new Float64Array(bins);
  }
}

/**
 * Masks of frames [from, to) of `block` into `masks` (same layout as the spectra). The frames
 * within {@link maskContextFrames} of `from` and `to` must be in the block for the result not to
 * depend on where the block was cut.
 */
export function computeStemMasks(
  block: StereoBlock,
  settings: MaskSettings,
  from: number,
  to: number,
  work: MaskWorkspace,
  masks: StemMasks,
): void {
  const { bins, frames, left, right } = block;
  const shape = { frames, bins };
  const lo = Math.max(0, from - maskContextFrames(settings));
  const hi = Math.min(frames, to + maskContextFrames(settings));
  for (let i = lo * bins; i < hi * bins; i++) {
    const lr = left.re[i]!;
    const li = left.im[i]!;
    const rr = right.re[i]!;
    const ri = right.im[i]!;
    const pl = lr * lr + li * li;
    const pr = rr * rr + ri * ri;
    work.powerLeft[i] = pl;
    work.powerRight[i] = pr;
    work.crossPower[i] = lr * rr + li * ri;
    work.magnitude[i] = Math.sqrt(pl + pr);
  }
  medianOverTime(work.magnitude, shape, settings.harmonicRadius, work.harmonic, from, to);
  medianOverFrequency(work.magnitude, shape, settings.percussiveRadius, work.percussive, from, to);
  const { coherenceFrames: cf, coherenceBins: cb } = settings;
  boxAverage(work.powerLeft, block, cf, cb, from, to, work.meanLeft, work.row);
  boxAverage(work.powerRight, block, cf, cb, from, to, work.meanRight, work.row);
  boxAverage(work.crossPower, block, cf, cb, from, to, work.meanCross, work.row);

  const voice = Float32Array.from({ length: bins }, (_, k) => {
    const hz = k * block.binHz;
    return (
      rise(hz, settings.voiceLowHz[0], settings.voiceLowHz[1]) *
      (1 - rise(hz, settings.voiceHighHz[0], settings.voiceHighHz[1]))
    );
  });
  const low = Float32Array.from(
    { length: bins },
    (_, k) => 1 - rise(k * block.binHz, settings.bassHz[0], settings.bassHz[1]),
  );
  const tiny = 1e-20;
  for (let t = from; t < to; t++) {
    for (let k = 0; k < bins; k++) {
      const i = t * bins + k;
      const h = work.harmonic[i]! ** 2;
      const p = work.percussive[i]! ** 2;
      const harmonicShare = h + p > tiny ? h / (h + p) : 0.5;
      const pl = work.meanLeft[i]!;
      const pr = work.meanRight[i]!;
      const cross = work.meanCross[i]!;
      // E: expected |L − R|² (four times the side power); D: the channels' power difference.
      const side = Math.max(0, pl + pr - 2 * cross);
      const diff = pl - pr;
      const explained = side > tiny ? (pl + pr) / 2 - (side * side + diff * diff) / (4 * side) : cross;
      const centre = Math.max(0, Math.min(cross, explained));
      const centreLeft = pl > tiny ? Math.min(1, centre / pl) ** settings.centreSharpness : 0;
      const centreRight = pr > tiny ? Math.min(1, centre / pr) ** settings.centreSharpness : 0;
      const vocalBase = harmonicShare * voice[k]!;
      const vl = centreLeft * vocalBase;
      const vr = centreRight * vocalBase;
      masks.vocals[0][i] = vl;
      masks.vocals[1][i] = vr;
      masks.drums[0][i] = (1 - vl) * (1 - harmonicShare);
      masks.drums[1][i] = (1 - vr) * (1 - harmonicShare);
      masks.bass[0][i] = (1 - vl) * harmonicShare * low[k]!;
      masks.bass[1][i] = (1 - vr) * harmonicShare * low[k]!;
    }
  }
}
