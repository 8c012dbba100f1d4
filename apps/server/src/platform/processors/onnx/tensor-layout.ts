import { type Axis } from './onnx-manifest';

/**
 * Moves a tensor between the processor's own axis order and the order a model declares, so one
 * processor serves models that put frames before bins, stems first or last, and so on.
 */

export type AxisSizes = Partial<Record<Axis, number>>;

export function sizesOf(axes: readonly Axis[], sizes: AxisSizes): number[] {
  return axes.map((axis) => {
    const size = sizes[axis];
    if (size === undefined) throw new Error(`no size for axis ${axis}`);
    return size;
  });
}

/** Copies `data`, laid out as `from`, into the order `to` (the same axes, permuted). */
export function permuteAxes(
  data: Float32Array,
  from: readonly Axis[],
  to: readonly Axis[],
  sizes: AxisSizes,
): Float32Array {
  if (from.length === to.length && from.every((axis, i) => axis === to[i])) return data;
  const fromSizes = sizesOf(from, sizes);
  const fromStrides = new Array<number>(from.length);
  let stride = 1;
  for (let i = from.length - 1; i >= 0; i--) {
    fromStrides[i] = stride;
    stride *= fromSizes[i]!;
  }
  if (stride !== data.length) throw new Error(`tensor has ${data.length} values, axes say ${stride}`);
  const toSizes = sizesOf(to, sizes);
  // The source stride of each target axis, and the innermost one separately for the hot loop.
  const strides = to.map((axis) => fromStrides[from.indexOf(axis)]!);
  const rank = to.length;
  const innerSize = toSizes[rank - 1]!;
  const innerStride = strides[rank - 1]!;
  const out = new Float32Array(data.length);
  const index = new Array<number>(rank).fill(0);
  let source = 0;
  for (let target = 0; target < out.length; target += innerSize) {
    for (let i = 0, s = source; i < innerSize; i++, s += innerStride) out[target + i] = data[s]!;
    // Advance the odometer over the outer axes.
    for (let axis = rank - 2; axis >= 0; axis--) {
      index[axis]!++;
      source += strides[axis]!;
      if (index[axis]! < toSizes[axis]!) break;
      source -= strides[axis]! * toSizes[axis]!;
      index[axis] = 0;
    }
  }
  return out;
}
