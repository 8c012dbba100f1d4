/**
 * Just enough of WebAssembly's binary format to write a module of a few numeric functions by hand:
 * one imported memory, the functions, their exports. A kernel is written as bytes
 * through the helpers below instead of compiled from another language, so the repository needs no
 * toolchain and the code that runs is the code that is read.
 */

export const I32 = 0x7f;
export const F64 = 0x7c;
export const V128 = 0x7b;
type ValueType = typeof I32 | typeof F64 | typeof V128;

/** Unsigned LEB128, the format's integers. */
export function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** Signed LEB128, for i32.const. */
export function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

const vector = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (text: string) => vector([...Buffer.from(text, 'utf8')].map((byte) => [byte]));

/** The instructions the kernels use (core opcodes, and SIMD ones behind the 0xfd prefix). */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  tee: (local: number) => [0x22, ...uleb(local)],
  /** Loads and stores: natural alignment as a hint (2^align bytes) and a constant byte offset. */
  i32Load: (offset = 0) => [0x28, 0, ...uleb(offset)],
  f32Load: (offset = 0) => [0x2a, 0, ...uleb(offset)],
  f64Load: (offset = 0) => [0x2b, 3, ...uleb(offset)],
  i32Load16s: (offset = 0) => [0x2e, 0, ...uleb(offset)],
  f64Store: (offset = 0) => [0x39, 3, ...uleb(offset)],
  i32Store: (offset = 0) => [0x36, 2, ...uleb(offset)],
  i32Const: (value: number) => [0x41, ...sleb(value)],
  i32Eqz: [0x45],
  f64Abs: [0x99],
  f64Add: [0xa0],
  f64Max: [0xa5],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32And: [0x71],
  i32Shl: [0x74],
  i32ShrS: [0x75],
  i32ShrU: [0x76],
  f64Mul: [0xa2],
  f64ConvertI32s: [0xb7],
  f64PromoteF32: [0xbb],
  v128Load: (offset = 0) => [0xfd, ...uleb(0x00), 4, ...uleb(offset)],
  v128Store: (offset = 0) => [0xfd, ...uleb(0x0b), 4, ...uleb(offset)],
  f64x2Splat: [0xfd, ...uleb(0x14)],
  f64x2ExtractLane: (lane: number) => [0xfd, ...uleb(0x21), lane],
  f64x2ReplaceLane: (lane: number) => [0xfd, ...uleb(0x22), lane],
  f64x2Ge: [0xfd, ...uleb(0x4c)],
  i64x2Bitmask: [0xfd, ...uleb(0xc4)],
  f64x2Abs: [0xfd, ...uleb(0xec)],
  f64x2Add: [0xfd, ...uleb(0xf0)],
  f64x2Sub: [0xfd, ...uleb(0xf1)],
  f64x2Mul: [0xfd, ...uleb(0xf2)],
  /** pmin/pmax: `b < a ? b : a` and `a < b ? b : a`, one instruction each on x86 (no NaN fix-ups). */
  f64x2Pmin: [0xfd, ...uleb(0xf6)],
  f64x2Pmax: [0xfd, ...uleb(0xf7)],
} as const;

export interface FunctionDefinition {
  exportName: string;
  params: ValueType[];
  results: ValueType[];
  /** Locals after the parameters, in runs of one type. */
  locals: [count: number, type: ValueType][];
  body: number[];
}

/** A module that imports its memory as `env.memory` (at least `minPages` of 64 KiB) and exports `functions`. */
export function writeModule(minPages: number, functions: FunctionDefinition[]): Uint8Array<ArrayBuffer> {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  // One type per function, in order: function i has type i.
  const signature = (f: FunctionDefinition) => [
    0x60,
    ...vector(f.params.map((t) => [t])),
    ...vector(f.results.map((t) => [t])),
  ];
  const type = section(1, vector(functions.map(signature)));
  const memory = section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(minPages)]]));
  const declared = section(3, vector(functions.map((_, index) => uleb(index))));
  const exported = section(7, vector(functions.map((f, index) => [...name(f.exportName), 0x00, ...uleb(index)])));
  const code = section(
    10,
    vector(
      functions.map((f) => {
        const body = [...vector(f.locals.map(([count, t]) => [...uleb(count), t])), ...f.body, ...op.end];
        return [...uleb(body.length), ...body];
      }),
    ),
  );
  return new Uint8Array([...header, ...type, ...memory, ...declared, ...exported, ...code]);
}
