import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The manifest an operator writes beside `<name>.onnx`: what the model expects and returns, so one
 * processor can run models exported by different projects. docs/PROCESSORS-ONNX.md explains every
 * field with examples.
 */

/** Files are 44.1 kHz (processor.ts); nothing resamples for a model trained at another rate. */
export const PROCESSOR_SAMPLE_RATE = 44_100;

const SPECTROGRAM_AXES = ['batch', 'channels', 'bins', 'frames'] as const;
const WAVEFORM_AXES = ['batch', 'channels', 'samples'] as const;
export type SpectrogramAxis = (typeof SPECTROGRAM_AXES)[number] | 'stems';
export type WaveformAxis = (typeof WAVEFORM_AXES)[number] | 'stems';
export type Axis = SpectrogramAxis | WaveformAxis;

const name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" or "-" (at most 64)');
const positiveInt = z.number().int().positive();
const axis = z.enum(['batch', 'channels', 'bins', 'frames', 'samples', 'stems']);

const tensorIn = z.strictObject({
  name: z.string().min(1),
  layout: z.array(axis).min(2),
  /** Spectrogram models: the mixture's magnitude, or its complex values as channels (re L, im L, re R, im R). */
  value: z.enum(['magnitude', 'complex']).default('magnitude'),
  /** The model sees only the lowest N bins (MDX-Net's dim_f); the bins above it get no output. */
  bins: positiveInt.optional(),
  /** A model exported with a fixed number of frames (spectrogram) or samples (waveform): chunks are zero-padded. */
  frames: positiveInt.optional(),
  samples: positiveInt.optional(),
});

const tensorOut = z.strictObject({
  /** One tensor whose layout has a `stems` axis (optional for one stem), or one tensor per stem in `stems` order. */
  name: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  layout: z.array(axis).min(2),
  /** Spectrogram models: a mask of the mixture, a magnitude estimate (mixture phase), or complex values. */
  value: z.enum(['mask', 'magnitude', 'complex']).default('mask'),
});

export const onnxManifestSchema = z
  .strictObject({
    name,
    kind: z.enum(['spectrogram-mask', 'waveform']),
    sampleRate: z.literal(PROCESSOR_SAMPLE_RATE, {
      error: `must be ${PROCESSOR_SAMPLE_RATE} (the processors' files are 44.1 kHz; export the model for it)`,
    }),
    stems: z
      .array(name)
      .min(1)
      .refine((stems) => new Set(stems).size === stems.length, 'stem names must be unique'),
    stft: z
      .strictObject({
        // The processors' FFT (audio/fft.ts) takes powers of two only.
        nFft: positiveInt.min(16).refine((n) => (n & (n - 1)) === 0, 'must be a power of two'),
        hop: positiveInt,
        window: z.enum(['hann', 'sqrt-hann']).default('hann'),
      })
      .optional(),
    chunkSeconds: z.number().positive().max(600),
    overlapSeconds: z.number().nonnegative(),
    /** Samples this close to a chunk's edge are shaped by the edge; they get no weight in the cross-fade. */
    contextSeconds: z.number().nonnegative().optional(),
    input: tensorIn,
    output: tensorOut,
    /** Ratio-of-power-estimates soft mask over the stems (no EM iterations); spectrogram models only. */
    wiener: z.strictObject({ power: z.union([z.literal(1), z.literal(2)]).default(2) }).optional(),
  })
  .superRefine((m, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const spectral = m.kind === 'spectrogram-mask';
    const expected: readonly string[] = spectral ? SPECTROGRAM_AXES : WAVEFORM_AXES;
    checkLayout(m.input.layout, expected, false, (message) => issue(['input', 'layout'], message));
    checkLayout(m.output.layout, expected, outputHasStemsAxis(m), (message) => issue(['output', 'layout'], message));
    const perStem = Array.isArray(m.output.name);
    if (perStem && m.output.name.length !== m.stems.length) {
      issue(['output', 'name'], `lists ${m.output.name.length} tensors for ${m.stems.length} stems`);
    }
    if (spectral) {
      if (!m.stft) issue(['stft'], 'is required for a spectrogram-mask model');
      else if (m.stft.nFft % m.stft.hop !== 0) issue(['stft', 'hop'], 'must divide nFft');
      if (m.stft && m.input.bins !== undefined && m.input.bins > m.stft.nFft / 2 + 1) {
        issue(['input', 'bins'], `must not exceed nFft / 2 + 1 = ${m.stft.nFft / 2 + 1}`);
      }
      if (m.input.samples !== undefined) issue(['input', 'samples'], 'is for waveform models (use frames)');
      if (m.input.value === 'complex' && m.wiener) issue(['wiener'], 'needs magnitude estimates, not complex input');
      if ((m.input.value === 'complex') !== (m.output.value === 'complex')) {
        issue(['output', 'value'], 'is complex exactly when input.value is complex');
      }
    } else {
      if (m.stft) issue(['stft'], 'is for spectrogram-mask models');
      if (m.wiener) issue(['wiener'], 'is for spectrogram-mask models');
      for (const key of ['bins', 'frames'] as const) {
        if (m.input[key] !== undefined) issue(['input', key], 'is for spectrogram-mask models');
      }
    }
    const context = m.contextSeconds ?? (m.stft ? m.stft.nFft / m.sampleRate : 0);
    if (m.chunkSeconds > 0 && m.overlapSeconds > m.chunkSeconds / 2)
      issue(['overlapSeconds'], 'must be at most half of chunkSeconds');
    if (m.overlapSeconds < 2 * context) {
      issue(
        ['overlapSeconds'],
        `must be at least twice the context (${formatSeconds(context)} s, ${m.contextSeconds === undefined ? 'nFft' : 'contextSeconds'}) so the cross-fade skips chunk edges`,
      );
    }
  });

export type OnnxManifest = z.infer<typeof onnxManifestSchema>;

/**
 * One output tensor holding several stems has a `stems` axis; a one-stem model's single output may
 * leave it out, as may outputs listed one per stem.
 */
export function outputHasStemsAxis(m: Pick<OnnxManifest, 'output' | 'stems'>): boolean {
  if (Array.isArray(m.output.name)) return false;
  return m.stems.length > 1 || m.output.layout.includes('stems');
}

function checkLayout(
  layout: readonly string[],
  expected: readonly string[],
  withStems: boolean,
  report: (message: string) => void,
) {
  const want = withStems ? [...expected, 'stems'] : expected;
  const sorted = [...layout].sort().join(',');
  if (sorted !== [...want].sort().join(',')) {
    report(`must list each of ${want.join(', ')} once (got ${layout.join(', ')})`);
  }
}

function formatSeconds(value: number) {
  return Number(value.toFixed(4)).toString();
}

/** A model folder's problem, naming the file and, when it is the manifest's, the field. */
export class OnnxModelError extends Error {
  constructor(
    readonly file: string,
    readonly issues: { field: string; message: string }[],
  ) {
    super(`${file}: ${issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ')}`);
    this.name = 'OnnxModelError';
  }
}

/** Parses a manifest's text; `file` only names it in errors. The name must match the file's. */
export function parseOnnxManifest(text: string, file: string, expectedName?: string): OnnxManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new OnnxModelError(file, [{ field: '', message: `is not JSON (${(error as Error).message})` }]);
  }
  const parsed = onnxManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new OnnxModelError(
      file,
      parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || '(manifest)', message: issue.message })),
    );
  }
  if (expectedName !== undefined && parsed.data.name !== expectedName) {
    throw new OnnxModelError(file, [
      { field: 'name', message: `is "${parsed.data.name}" but the file is named for "${expectedName}"` },
    ]);
  }
  return parsed.data;
}

/** The two files of one model in an operator's folder. */
export function onnxModelFiles(folder: string, modelName: string) {
  return { model: join(folder, `${modelName}.onnx`), manifest: join(folder, `${modelName}.json`) };
}

export async function readOnnxManifest(folder: string, modelName: string): Promise<OnnxManifest> {
  const { manifest } = onnxModelFiles(folder, modelName);
  let text: string;
  try {
    text = await readFile(manifest, 'utf8');
  } catch (error) {
    throw new OnnxModelError(manifest, [{ field: '', message: `cannot be read (${(error as Error).message})` }]);
  }
  return parseOnnxManifest(text, manifest, modelName);
}
