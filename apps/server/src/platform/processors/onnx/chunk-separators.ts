import { Stft } from '../audio/stft';
import { type OnnxManifest } from './onnx-manifest';
import { type OnnxModelSession } from './onnx-model-session';
import { softMasksInPlace } from './wiener-filter';

/**
 * Runs a model on one chunk, handled as a signal of its own (zero outside it): planar channels in,
 * planar channels per model stem out, of the chunk's length. The cross-fader discards what the
 * chunk's edges shape.
 */
export interface ChunkSeparator {
  separate(channels: Float32Array[]): Promise<Float32Array[][]>;
}

export function chunkSeparatorFor(manifest: OnnxManifest, session: OnnxModelSession): ChunkSeparator {
  return manifest.kind === 'waveform'
    ? new WaveformChunkSeparator(manifest, session)
    : new SpectrogramChunkSeparator(manifest, session);
}

/** Stereo in the manifest's sense: models see the two channels of the processors' files. */
const CHANNELS = 2;

class WaveformChunkSeparator implements ChunkSeparator {
  constructor(
    private readonly manifest: OnnxManifest,
    private readonly session: OnnxModelSession,
  ) {}

  async separate(channels: Float32Array[]): Promise<Float32Array[][]> {
    const length = channels[0]!.length;
    // A model exported for a fixed length gets the chunk followed by silence.
    const samples = this.manifest.input.samples ?? length;
    if (length > samples) throw new RangeError(`chunk of ${length} samples, model takes ${samples}`);
    const input = new Float32Array(CHANNELS * samples);
    channels.forEach((channel, c) => input.set(channel, c * samples));
    const stems = await this.session.run(input, { channels: CHANNELS, samples }, ['channels', 'samples']);
    return stems.map((stem) =>
      Array.from({ length: CHANNELS }, (_, c) => stem.slice(c * samples, c * samples + length)),
    );
  }
}

class SpectrogramChunkSeparator implements ChunkSeparator {
  private readonly stft: Stft;

  constructor(
    private readonly manifest: OnnxManifest,
    private readonly session: OnnxModelSession,
  ) {
    const stft = manifest.stft!;
    this.stft = new Stft({ size: stft.nFft, hop: stft.hop, window: stft.window });
  }

  async separate(channels: Float32Array[]): Promise<Float32Array[][]> {
    const { stft, manifest } = this;
    const length = channels[0]!.length;
    const frames = stft.frameCount(length);
    const bins = stft.bins;
    const modelBins = manifest.input.bins ?? bins;
    const modelFrames = manifest.input.frames ?? frames;
    if (frames > modelFrames) throw new RangeError(`chunk of ${frames} frames, model takes ${modelFrames}`);

    // The mixture's spectrum, [channel][frame][bin].
    const re = new Float32Array(CHANNELS * frames * bins);
    const im = new Float32Array(CHANNELS * frames * bins);
    for (let c = 0; c < CHANNELS; c++) {
      for (let f = 0; f < frames; f++) {
        const at = (c * frames + f) * bins;
        stft.analyze(channels[c]!, stft.frameStart(f), re.subarray(at, at + bins), im.subarray(at, at + bins));
      }
    }

    // The model's input, canonical [channel, bin, frame]; complex input puts re and im as channels.
    const complex = manifest.input.value === 'complex';
    const modelChannels = complex ? 2 * CHANNELS : CHANNELS;
    const input = new Float32Array(modelChannels * modelBins * modelFrames);
    for (let c = 0; c < CHANNELS; c++) {
      for (let f = 0; f < frames; f++) {
        for (let b = 0; b < modelBins; b++) {
          const x = (c * frames + f) * bins + b;
          if (complex) {
            input[(2 * c * modelBins + b) * modelFrames + f] = re[x]!;
            input[((2 * c + 1) * modelBins + b) * modelFrames + f] = im[x]!;
          } else {
            input[(c * modelBins + b) * modelFrames + f] = Math.hypot(re[x]!, im[x]!);
          }
        }
      }
    }
    const sizes = { channels: modelChannels, bins: modelBins, frames: modelFrames };
    const outputs = await this.session.run(input, sizes, ['channels', 'bins', 'frames']);

    const value = manifest.output.value;
    const masks = !complex && (value === 'mask' || manifest.wiener);
    if (manifest.wiener) {
      // Soft masks from magnitude estimates: a mask times the mixture's magnitude is one.
      if (value === 'mask') multiplyByMagnitudes(outputs, input);
      softMasksInPlace(outputs, manifest.wiener.power);
    }

    const yRe = new Float64Array(bins);
    const yIm = new Float64Array(bins);
    return outputs.map((output) =>
      Array.from({ length: CHANNELS }, (_, c) => {
        const out = new Float32Array(length);
        for (let f = 0; f < frames; f++) {
          for (let b = 0; b < modelBins; b++) {
            const x = (c * frames + f) * bins + b;
            if (complex) {
              yRe[b] = output[(2 * c * modelBins + b) * modelFrames + f]!;
              yIm[b] = output[((2 * c + 1) * modelBins + b) * modelFrames + f]!;
              continue;
            }
            const y = output[(c * modelBins + b) * modelFrames + f]!;
            // A magnitude estimate takes the mixture's phase: scale the mixture by v / |X|.
            const magnitude = masks ? 1 : input[(c * modelBins + b) * modelFrames + f]!;
            const gain = masks ? y : magnitude > 0 ? y / magnitude : 0;
            yRe[b] = gain * re[x]!;
            yIm[b] = gain * im[x]!;
          }
          // Bins above the model's (MDX-Net's cut-off) are silent in every stem.
          stft.synthesize(yRe, yIm, out, stft.frameStart(f));
        }
        return out;
      }),
    );
  }
}

function multiplyByMagnitudes(outputs: Float32Array[], magnitudes: Float32Array) {
  for (const output of outputs) {
    for (let i = 0; i < output.length; i++) output[i]! *= magnitudes[i]!;
  }
}
