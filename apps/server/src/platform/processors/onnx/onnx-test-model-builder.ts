import onnxProto from 'onnx-proto';

/**
 * Builds tiny ONNX models for the tests (no weights can be downloaded here): the ONNX protobuf
 * schema from the `onnx-proto` devDependency, encoded to bytes. Only tests import this file.
 */

// onnx-proto is CommonJS: Node's ESM loader exposes its namespace only on the default export.
const { onnx } = onnxProto;

const FLOAT = 1;
const INT64 = 7;
const ATTR_INT = 2;
const ATTR_INTS = 7;

type Dim = number | string;
type Attribute = { name: string; int: number } | { name: string; ints: number[] };

function valueInfo(name: string, dims: Dim[]): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

function floats(name: string, dims: number[], values: ArrayLike<number>): onnxProto.onnx.ITensorProto {
  return { name, dims, dataType: FLOAT, floatData: Array.from(values) };
}

function int64s(name: string, values: number[]): onnxProto.onnx.ITensorProto {
  return { name, dims: [values.length], dataType: INT64, int64Data: values };
}

function node(opType: string, input: string[], output: string[], attributes: Attribute[] = []) {
  return {
    opType,
    input,
    output,
    name: output.join('+'),
    attribute: attributes.map((a) =>
      'int' in a ? { name: a.name, type: ATTR_INT, i: a.int } : { name: a.name, type: ATTR_INTS, ints: a.ints },
    ),
  };
}

function encodeModel(graph: onnxProto.onnx.IGraphProto): Uint8Array {
  return onnx.ModelProto.encode({
    irVersion: 8,
    producerName: 'mixroom-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  }).finish();
}

/** The per-bin logits of the test models' low-pass mask: sigmoid(sharpness · (cutoff − bin)). */
export function lowPassLogits(bins: number, cutoffBin: number, sharpness: number): Float32Array {
  return Float32Array.from({ length: bins }, (_, bin) => sharpness * (cutoffBin - bin));
}

/**
 * A two-stem model returning magnitude estimates, one output per stem: `bass` = |X|·sigmoid(l),
 * `other` = |X|·sigmoid(−l), input and outputs [batch, channels, bins, frames].
 */
export function buildMagnitudeModel(options: { bins: number; cutoffBin: number; sharpness: number }): Uint8Array {
  const logits = lowPassLogits(options.bins, options.cutoffBin, options.sharpness);
  const layout: Dim[] = ['batch', 2, options.bins, 'frames'];
  return encodeModel({
    name: 'magnitude-split',
    node: [
      node('Sigmoid', ['logits'], ['low']),
      node('Neg', ['logits'], ['negated']),
      node('Sigmoid', ['negated'], ['high']),
      node('Mul', ['mix', 'low'], ['bass']),
      node('Mul', ['mix', 'high'], ['other']),
    ],
    initializer: [floats('logits', [options.bins, 1], logits)],
    input: [valueInfo('mix', layout)],
    output: [valueInfo('bass', layout), valueInfo('other', layout)],
  });
}

/**
 * The same split as masks stacked in one output, with layouts other than the usual order to prove
 * the axis mapping: input [batch, channels, frames, bins], output [stems, batch, channels, frames, bins].
 */
export function buildStackedMaskModel(options: { bins: number; cutoffBin: number; sharpness: number }): Uint8Array {
  const logits = lowPassLogits(options.bins, options.cutoffBin, options.sharpness);
  return encodeModel({
    name: 'stacked-mask',
    node: [
      node('Sigmoid', ['logits'], ['low']),
      node('Neg', ['logits'], ['negated']),
      node('Sigmoid', ['negated'], ['high']),
      // Zero times the input gives the masks the input's shape (and its frame count).
      node('Mul', ['spectrum', 'zero'], ['zeros']),
      node('Add', ['zeros', 'low'], ['lowFull']),
      node('Add', ['zeros', 'high'], ['highFull']),
      node('Unsqueeze', ['lowFull', 'axis0'], ['lowStem']),
      node('Unsqueeze', ['highFull', 'axis0'], ['highStem']),
      node('Concat', ['lowStem', 'highStem'], ['masks'], [{ name: 'axis', int: 0 }]),
    ],
    initializer: [floats('logits', [options.bins], logits), floats('zero', [1], [0]), int64s('axis0', [0])],
    input: [valueInfo('spectrum', ['batch', 2, 'frames', options.bins])],
    output: [valueInfo('masks', [2, 'batch', 2, 'frames', options.bins])],
  });
}

/**
 * An MDX-Net-shaped one-stem model: complex channels (re L, im L, re R, im R) of the lowest `bins`
 * bins for exactly `frames` frames in, the same scaled by sigmoid(l) out, [batch, 4, bins, frames].
 */
export function buildComplexModel(options: {
  bins: number;
  frames: number;
  cutoffBin: number;
  sharpness: number;
}): Uint8Array {
  const logits = lowPassLogits(options.bins, options.cutoffBin, options.sharpness);
  const layout: Dim[] = [1, 4, options.bins, options.frames];
  return encodeModel({
    name: 'complex-gain',
    node: [node('Sigmoid', ['logits'], ['gain']), node('Mul', ['input', 'gain'], ['output'])],
    initializer: [floats('logits', [options.bins, 1], logits)],
    input: [valueInfo('input', layout)],
    output: [valueInfo('output', layout)],
  });
}

/**
 * A two-stem waveform model: stem s of channel c is the channel filtered by `taps[s]` (a Conv with
 * zero padding), output [batch, stems, channels, samples].
 */
export function buildWaveformModel(taps: [number[], number[]]): Uint8Array {
  const k = taps[0].length;
  if (k % 2 !== 1 || taps[1].length !== k) throw new Error('taps: two odd-length filters of one length');
  // Conv weights [out = stem·2 + channel, in = channel, k]: each output hears only its own channel.
  const weights = new Float32Array(4 * 2 * k);
  for (let stem = 0; stem < 2; stem++) {
    for (let channel = 0; channel < 2; channel++) {
      const out = stem * 2 + channel;
      // ONNX's Conv is a correlation: reverse the taps so they act as a convolution.
      for (let i = 0; i < k; i++) weights[(out * 2 + channel) * k + i] = taps[stem]![k - 1 - i]!;
    }
  }
  const half = (k - 1) / 2;
  return encodeModel({
    name: 'waveform-filters',
    node: [
      node(
        'Conv',
        ['wave', 'weights'],
        ['filtered'],
        [
          { name: 'kernel_shape', ints: [k] },
          { name: 'pads', ints: [half, half] },
        ],
      ),
      node('Reshape', ['filtered', 'stemShape'], ['stems']),
    ],
    initializer: [floats('weights', [4, 2, k], weights), int64s('stemShape', [0, 2, 2, -1])],
    input: [valueInfo('wave', ['batch', 2, 'samples'])],
    output: [valueInfo('stems', ['batch', 2, 2, 'samples'])],
  });
}
