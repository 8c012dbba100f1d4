/**
 * One masking pass over a stretch of stereo audio: analyse the STFT frames a stretch needs, let a
 * masker fill masks for them, and synthesise each masked output over exactly that stretch.
 *
 * Frames sit on the STFT's file-wide grid and the masker sees `context` frames on each side of the
 * frames it must fill, so a mask that only looks that far comes out the same whichever stretch it
 * is computed in: outputs of neighbouring stretches join without a seam, and a chunked run gives
 * the samples a whole-file run would. Arrays are allocated once for the longest stretch.
 */
import type { Stft } from '../audio/stft';

export type Stereo = [Float32Array, Float32Array];

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

/** Per output, per channel, a gain for every bin of the block (same layout as the spectra). */
export type MaskSet<Name extends string> = Record<Name, Stereo>;

/** Fills the masks of frames [from, to) of the block; frames outside are context. */
export type Masker<Name extends string> = (block: StereoBlock, from: number, to: number, masks: MaskSet<Name>) => void;

export class StftStage<Name extends string> {
  private readonly block: StereoBlock;
  private readonly masks: MaskSet<Name>;
  private readonly maxFrames: number;
  /** Values per mask: what a masker's working arrays need to hold. */
  readonly capacity: number;
  private readonly maskedRe: Float32Array;
  private readonly maskedIm: Float32Array;

  constructor(
    private readonly stft: Stft,
    /** Frames the masker looks at on each side of a frame it fills. */
    private readonly context: number,
    private readonly names: readonly Name[],
    sampleRate: number,
    /** The longest stretch `run` will be asked for, in samples. */
    maxSamples: number,
  ) {
    const { bins, hop, size } = stft;
    this.maxFrames = Math.ceil(maxSamples / hop) + size / hop + 2 * context + 2;
    this.capacity = this.maxFrames * bins;
    const spectra = () => ({
      re: new Float32Array(this.maxFrames * bins),
      im: new Float32Array(this.maxFrames * bins),
    });
    this.block = { frames: 0, bins, binHz: sampleRate / size, left: spectra(), right: spectra() };
    this.masks = Object.fromEntries(
      names.map((name) => [name, [new Float32Array(this.maxFrames * bins), new Float32Array(this.maxFrames * bins)]]),
    ) as MaskSet<Name>;
    this.maskedRe = new Float32Array(bins);
    this.maskedIm = new Float32Array(bins);
  }

  /** Frames touching [from, to), widened by the context: [first, last]. */
  private frames(from: number, to: number): [number, number] {
    const { hop, size } = this.stft;
    return [Math.floor(from / hop) - this.context, Math.ceil((to + size - hop) / hop) - 1 + this.context];
  }

  /** The input samples [start, end) that {@link run} needs to output [from, to). */
  inputRange(from: number, to: number): [number, number] {
    const [first, last] = this.frames(from, to);
    return [this.stft.frameStart(first), this.stft.frameStart(last) + this.stft.size];
  }

  /**
   * Outputs over samples [from, to) (a stereo pair per name). `input` holds samples from
   * `inputStart` on and must cover {@link inputRange}.
   */
  run(input: Stereo, inputStart: number, from: number, to: number, masker: Masker<Name>): MaskSet<Name> {
    const { stft, block, masks, context } = this;
    const { bins } = stft;
    const [first, last] = this.frames(from, to);
    block.frames = last - first + 1;
    if (block.frames > this.maxFrames) throw new RangeError('stretch longer than the stage was sized for');
    for (let j = 0; j < block.frames; j++) {
      const at = stft.frameStart(first + j) - inputStart;
      const span = [j * bins, (j + 1) * bins] as const;
      stft.analyze(input[0], at, block.left.re.subarray(...span), block.left.im.subarray(...span));
      stft.analyze(input[1], at, block.right.re.subarray(...span), block.right.im.subarray(...span));
    }
    masker(block, context, block.frames - context, masks);
    const outputs = Object.fromEntries(
      this.names.map((name) => [name, [new Float32Array(to - from), new Float32Array(to - from)]]),
    ) as MaskSet<Name>;
    for (let j = context; j < block.frames - context; j++) {
      const at = stft.frameStart(first + j) - from;
      const offset = j * bins;
      for (const name of this.names) {
        for (const side of [0, 1] as const) {
          const mask = masks[name][side];
          const spectra = side === 0 ? block.left : block.right;
          for (let k = 0; k < bins; k++) {
            this.maskedRe[k] = spectra.re[offset + k]! * mask[offset + k]!;
            this.maskedIm[k] = spectra.im[offset + k]! * mask[offset + k]!;
          }
          stft.synthesize(this.maskedRe, this.maskedIm, outputs[name][side], at);
        }
      }
    }
    return outputs;
  }
}
