/**
 * The built-in separator's masks. Three cues, no model:
 *
 * - Centre extraction. A lead vocal is mixed to the centre (the same in both channels) while
 *   guitars, keys and stereo reverb sit elsewhere. From the channels' powers and cross-power,
 *   averaged over a few neighbouring bins and frames, the centre's power is estimated two ways —
 *   the cross-power (what left and right have in common: uncorrelated ambience drops out) and the
 *   power left once one panned source is explained away (solving L = C + a·S, R = C + b·S from the
 *   three statistics: the mid/side form of the model) — and the smaller is kept, since each
 *   overestimates exactly where the other is right. The inter-channel coherence is what makes them
 *   differ. Centre power over a channel's power is a ratio (Wiener) mask.
 * - Harmonic/percussive separation by median filtering: along time, sustained tones survive; along
 *   frequency, hits do. H²/(H² + P²) is the harmonic share. It runs at two resolutions. With short
 *   frames (23 ms) a voice is steady next to the drums' hits, so the percussive share there is the
 *   drums. With long frames (93 ms) a voice's vibrato and glides smear across bins while bass notes,
 *   keys and pads hold still, so there the steady share tells them from the voice.
 * - Bands: vocals between ~150 Hz and ~14 kHz (fading in up to 300 Hz, where a bass line's
 *   harmonics still are), bass below ~200 Hz.
 *
 * Transient stage (short frames, on the mixture): drums = percussive share. Stable stage (long
 * frames, on the mixture less the drums): vocals = centre · voice band · (1 − a part of the steady
 * share); bass = steady share · low band, less what the vocals took. Other is what remains, so in
 * every bin the shares of the four stems add up to 1.
 */
import { medianOverFrequency, medianOverTime } from './median-filter';
import type { MaskSet, StereoBlock } from './stft-stage';

export interface StageSettings {
  /** STFT frame length and hop, in samples. */
  fftSize: number;
  hop: number;
  /** Half-length, in frames, of the median along time (harmonic). */
  harmonicRadius: number;
  /** Half-length, in bins, of the median along frequency (percussive). */
  percussiveRadius: number;
  /** Half-sizes of the neighbourhood the channel statistics are averaged over. */
  coherenceFrames: number;
  coherenceBins: number;
}

export interface BandSettings {
  /** Voice band: full from `voiceLowHz[1]` to `voiceHighHz[0]`, fading to nothing at the outer edges. */
  voiceLowHz: readonly [number, number];
  voiceHighHz: readonly [number, number];
  /** Bass band: full below `bassHz[0]`, nothing above `bassHz[1]`. */
  bassHz: readonly [number, number];
  /** Share of the stable, centred voice band given to vocals (held notes vs centred pads and bass). */
  stableVocalWeight: number;
}

/** Frames of context a stage's masks need on each side of the frame they are computed for. */
export function stageContextFrames(settings: StageSettings): number {
  return Math.max(settings.harmonicRadius, settings.coherenceFrames);
}

/** 0 below `from`, 1 above `to`, a raised cosine between. */
function rise(hz: number, from: number, to: number): number {
  if (hz <= from) return 0;
  if (hz >= to) return 1;
  return 0.5 - 0.5 * Math.cos((Math.PI * (hz - from)) / (to - from));
}

function voiceBand(block: StereoBlock, bands: BandSettings): Float32Array {
  return Float32Array.from({ length: block.bins }, (_, k) => {
    const hz = k * block.binHz;
    return rise(hz, ...bands.voiceLowHz) * (1 - rise(hz, ...bands.voiceHighHz));
  });
}

/**
 * Box average over ±frames, ±bins (cut at the block's edges) of `values` into `out`, for frames
 * [from, to): along time, then a running sum along frequency.
 */
function boxAverage(
  values: Float32Array,
  block: StereoBlock,
  frames: number,
  bins: number,
  from: number,
  to: number,
  out: Float32Array,
  row: Float64Array,
): void {
  const width = block.bins;
  for (let t = from; t < to; t++) {
    const first = Math.max(0, t - frames);
    const last = Math.min(block.frames - 1, t + frames);
    for (let k = 0; k < width; k++) {
      let sum = 0;
      for (let u = first; u <= last; u++) sum += values[u * width + k]!;
      row[k] = sum / (last - first + 1);
    }
    let sum = 0;
    let count = 0;
    for (let k = 0; k <= Math.min(width - 1, bins); k++, count++) sum += row[k]!;
    for (let k = 0; k < width; k++) {
      out[t * width + k] = sum / count;
      if (k - bins >= 0) {
        sum -= row[k - bins]!;
        count--;
      }
      if (k + bins + 1 < width) {
        sum += row[k + bins + 1]!;
        count++;
      }
    }
  }
}

/**
 * Per-bin cues of a block: the harmonic share and each channel's centre mask, for frames
 * [from, to). Arrays are sized once and reused from block to block.
 */
export class SpectralCues {
  readonly harmonicShare: Float32Array;
  readonly centreLeft: Float32Array;
  readonly centreRight: Float32Array;
  private readonly magnitude: Float32Array;
  private readonly harmonic: Float32Array;
  private readonly percussive: Float32Array;
  private readonly power: [Float32Array, Float32Array, Float32Array];
  private readonly mean: [Float32Array, Float32Array, Float32Array];
  private readonly row: Float64Array;

  constructor(size: number, bins: number) {
    const make = () => new Float32Array(size);
    this.harmonicShare = make();
    this.centreLeft = make();
    this.centreRight = make();
    this.magnitude = make();
    this.harmonic = make();
    this.percussive = make();
    this.power = [make(), make(), make()];
    this.mean = [make(), make(), make()];
    this.row = new Float64Array(bins);
  }

  /** Fills the cues of frames [from, to); the centre masks only when `centre` (they cost a third). */
  compute(block: StereoBlock, settings: StageSettings, from: number, to: number, centre = true): void {
    const { bins, frames, left, right } = block;
    const context = stageContextFrames(settings);
    const [powerLeft, powerRight, cross] = this.power;
    for (let i = Math.max(0, from - context) * bins; i < Math.min(frames, to + context) * bins; i++) {
      const lr = left.re[i]!;
      const li = left.im[i]!;
      const rr = right.re[i]!;
      const ri = right.im[i]!;
      powerLeft[i] = lr * lr + li * li;
      powerRight[i] = rr * rr + ri * ri;
      cross[i] = lr * rr + li * ri;
      this.magnitude[i] = Math.sqrt(powerLeft[i]! + powerRight[i]!);
    }
    medianOverTime(this.magnitude, block, settings.harmonicRadius, this.harmonic, from, to);
    medianOverFrequency(this.magnitude, block, settings.percussiveRadius, this.percussive, from, to);
    for (let n = 0; n < (centre ? 3 : 0); n++) {
      boxAverage(
        this.power[n]!,
        block,
        settings.coherenceFrames,
        settings.coherenceBins,
        from,
        to,
        this.mean[n]!,
        this.row,
      );
    }
    const [meanLeft, meanRight, meanCross] = this.mean;
    const tiny = 1e-20;
    for (let i = from * bins; i < to * bins; i++) {
      const h = this.harmonic[i]! ** 2;
      const p = this.percussive[i]! ** 2;
      this.harmonicShare[i] = h + p > tiny ? h / (h + p) : 0.5;
      if (!centre) continue;
      const pl = meanLeft[i]!;
      const pr = meanRight[i]!;
      const shared = meanCross[i]!;
      // Four times the side power, and the channels' power difference.
      const side = Math.max(0, pl + pr - 2 * shared);
      const difference = pl - pr;
      const explained = side > tiny ? (pl + pr) / 2 - (side * side + difference * difference) / (4 * side) : shared;
      const centrePower = Math.max(0, Math.min(shared, explained));
      this.centreLeft[i] = pl > tiny ? Math.min(1, centrePower / pl) : 0;
      this.centreRight[i] = pr > tiny ? Math.min(1, centrePower / pr) : 0;
    }
  }
}

export type TransientOutput = 'drums';
export const TRANSIENT_OUTPUTS: readonly TransientOutput[] = ['drums'];

/** Masks of the transient stage (short frames, on the mixture): drums are the percussive share. */
export function transientMasks(
  block: StereoBlock,
  from: number,
  to: number,
  masks: MaskSet<TransientOutput>,
  cues: SpectralCues,
  stage: StageSettings,
): void {
  cues.compute(block, stage, from, to, false);
  for (let i = from * block.bins; i < to * block.bins; i++) {
    masks.drums[0][i] = 1 - cues.harmonicShare[i]!;
    masks.drums[1][i] = 1 - cues.harmonicShare[i]!;
  }
}

export type StableOutput = 'vocals' | 'bass';
export const STABLE_OUTPUTS: readonly StableOutput[] = ['vocals', 'bass'];

/**
 * Masks of the stable stage (long frames, on what the drums leave): vocals are the centre of the
 * voice band, less part of what is steady there (a voice glides and wavers; bass harmonics and
 * centred pads hold still); bass is the steady low band the vocals did not take.
 */
export function stableMasks(
  block: StereoBlock,
  from: number,
  to: number,
  masks: MaskSet<StableOutput>,
  cues: SpectralCues,
  stage: StageSettings,
  bands: BandSettings,
): void {
  cues.compute(block, stage, from, to);
  const voice = voiceBand(block, bands);
  const low = Float32Array.from({ length: block.bins }, (_, k) => 1 - rise(k * block.binHz, ...bands.bassHz));
  for (let t = from; t < to; t++) {
    for (let k = 0; k < block.bins; k++) {
      const i = t * block.bins + k;
      const stable = cues.harmonicShare[i]!;
      const voiced = voice[k]! * (1 - (1 - bands.stableVocalWeight) * stable);
      const vocalLeft = cues.centreLeft[i]! * voiced;
      const vocalRight = cues.centreRight[i]! * voiced;
      masks.vocals[0][i] = vocalLeft;
      masks.vocals[1][i] = vocalRight;
      masks.bass[0][i] = stable * low[k]! * (1 - vocalLeft);
      masks.bass[1][i] = stable * low[k]! * (1 - vocalRight);
    }
  }
}
