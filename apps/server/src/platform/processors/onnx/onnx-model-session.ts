import { access } from 'node:fs/promises';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { type Axis, OnnxModelError, type OnnxManifest, outputHasStemsAxis } from './onnx-manifest';
import { type AxisSizes, permuteAxes, sizesOf } from './tensor-layout';

/**
 * One model's ONNX Runtime session (CPU), created once and reused for every chunk. It speaks the
 * processor's canonical axis order and converts to and from the layouts the manifest declares:
 * input [channels, bins, frames] or [channels, samples]; output [stems, channels, bins, frames]
 * or [stems, channels, samples].
 */
export class OnnxModelSession {
  private constructor(
    private readonly session: InferenceSession,
    private readonly manifest: OnnxManifest,
    private readonly file: string,
  ) {}

  /** `threads`: ONNX Runtime's intra-op threads (1 by default: tasks run side by side on few cores). */
  static async load(file: string, manifest: OnnxManifest, threads = 1): Promise<OnnxModelSession> {
    try {
      await access(file);
    } catch {
      throw new OnnxModelError(file, [{ field: '', message: 'is missing: put the model beside its manifest' }]);
    }
    let session: InferenceSession;
    try {
      session = await InferenceSession.create(file, {
        executionProviders: ['cpu'],
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      });
    } catch (error) {
      throw new OnnxModelError(file, [{ field: '', message: `cannot be loaded (${(error as Error).message})` }]);
    }
    const missing = (field: string, wanted: string[], present: readonly string[]) => {
      const absent = wanted.filter((name) => !present.includes(name));
      return absent.length === 0
        ? []
        : [{ field, message: `names ${absent.join(', ')}; the model has ${present.join(', ') || 'none'}` }];
    };
    const issues = [
      ...missing('input.name', [manifest.input.name], session.inputNames),
      ...missing('output.name', outputNames(manifest), session.outputNames),
    ];
    if (issues.length > 0) {
      await session.release();
      throw new OnnxModelError(`${file} (manifest)`, issues);
    }
    return new OnnxModelSession(session, manifest, file);
  }

  /**
   * Runs the model on one chunk. `input` is in canonical order with `sizes` (channels, bins,
   * frames or samples); returns the stems in canonical order, one Float32Array per stem.
   */
  async run(input: Float32Array, sizes: AxisSizes, canonicalIn: readonly Axis[]): Promise<Float32Array[]> {
    const { manifest } = this;
    const inLayout = manifest.input.layout as Axis[];
    const withBatch = { ...sizes, batch: 1 };
    const fed = permuteAxes(input, ['batch', ...canonicalIn], inLayout, withBatch);
    const feeds = { [manifest.input.name]: new Tensor('float32', fed, sizesOf(inLayout, withBatch)) };
    const results = await this.session.run(feeds);
    const outLayout = manifest.output.layout as Axis[];
    const stems = manifest.stems.length;
    if (!outputHasStemsAxis(manifest)) {
      return outputNames(manifest).map((name) => {
        const tensor = results[name]!;
        const data = this.checked(name, tensor, outLayout, withBatch);
        return permuteAxes(data, outLayout, ['batch', ...canonicalIn], withBatch);
      });
    }
    const name = outputNames(manifest)[0]!;
    const all = { ...withBatch, stems };
    const data = this.checked(name, results[name]!, outLayout, all);
    const canonical = permuteAxes(data, outLayout, ['stems', 'batch', ...canonicalIn], all);
    const perStem = canonical.length / stems;
    return Array.from({ length: stems }, (_, s) => canonical.subarray(s * perStem, (s + 1) * perStem));
  }

  async release() {
    await this.session.release();
  }

  /** The output's dims must be what the layout says for this chunk, else the manifest is wrong. */
  private checked(name: string, tensor: Tensor, layout: Axis[], sizes: AxisSizes): Float32Array {
    const expected = sizesOf(layout, sizes);
    if (tensor.type !== 'float32' || tensor.dims.join(',') !== expected.join(',')) {
      throw new OnnxModelError(`${this.file} (manifest)`, [
        {
          field: 'output.layout',
          message: `says [${layout.join(', ')}] = [${expected.join(', ')}] but "${name}" is ${tensor.type} [${tensor.dims.join(', ')}]`,
        },
      ]);
    }
    return tensor.data as Float32Array;
  }
}

export function outputNames(manifest: OnnxManifest): string[] {
  return Array.isArray(manifest.output.name) ? manifest.output.name : [manifest.output.name];
}
