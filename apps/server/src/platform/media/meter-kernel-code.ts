import { TRUE_PEAK_TAPS } from './true-peak';
import { F64, I32, V128, op, writeModule, type FunctionDefinition } from './wasm-writer';

/**
 * The code of the loudness meter's kernel (see meter-kernel.ts), and the layout of its memory.
 *
 * The inner loop in WebAssembly SIMD: it decodes interleaved PCM into the true-peak
 * meter's windows, widens the segment's extremes, notes the samples that reach the true-peak
 * gate, and runs the K-weighting with both channels in the two lanes of one f64x2 (a mono stream
 * fills both lanes with its one channel and reads lane 0).
 *
 * Why: in JavaScript the two filters cost 18 multiplications and additions a channel per frame, and
 * V8 emits them one double at a time, so the meter was bound by arithmetic throughput (and the decode
 * took as long again in loops of its own). Two lanes halve the arithmetic, and the decode fills the
 * slots the filters' recursion leaves idle. Both biquads are in direct form I with the feedback
 * product of the newest output subtracted last, so each frame waits on one multiply and one subtract
 * of the previous one; every lane computes exactly what the scalar reference in the tests computes.
 *
 * The true peak's interpolation runs here too (`peakOf`), over the intervals the true-peak meter
 * picked: each of the three points between two samples is a 32-tap dot product, two taps a lane,
 * two sums per point so the additions overlap.
 */

/** Byte addresses in the kernel's memory. Coefficients: b0, b1, b2, a1, a2 (shelf), h1, h2 (high-pass), scale. */
export const COEFFICIENTS = 0;
/** Filter state as f64x2 (left, right): x1, x2, y1, y2, z1, z2; then the running sum of z² per lane. */
export const STATE = 64;
export const STATE_VALUES = 12;
const SUM = STATE + STATE_VALUES * 8;
/** Per channel (i32): how many candidates the true-peak meter holds. */
export const COUNTS = SUM + 16;
/** The largest sample since the last reset (left, right), then the smallest. */
export const EXTREMES = 192;
/** The true-peak interpolation's three phase kernels, TRUE_PEAK_TAPS each. */
export const PHASE_KERNELS = 256;
export const WINDOWS = PHASE_KERNELS + 3 * TRUE_PEAK_TAPS * 8;
/** Interleaved bytes are copied here before each run; the tail pads the 3-byte samples' 4-byte loads. */
export const STAGE_BYTES = 256 * 1024;
export const STAGE_PAD = 16;

// Locals: the parameters, then the v128, f64 and i32 locals in the order `locals` declares them.
const [SRC, COUNT, DST_LEFT, DST_RIGHT, AT, GATE, CANDIDATES_LEFT, CANDIDATES_RIGHT] = [0, 1, 2, 3, 4, 5, 6, 7];
const [B0, B1, B2, A1, A2, H1, H2, GATE_LANES] = [8, 9, 10, 11, 12, 13, 14, 15];
const [X1, X2, Y1, Y2, Z1, Z2, SUM_LANES, HIGH, LOW, X, Y, Z] = [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27];
const [X_LEFT, X_RIGHT, SCALE] = [28, 29, 30];
const [COUNT_LEFT, COUNT_RIGHT, PASSED] = [31, 32, 33];

export type SampleKind = 's16' | 's24' | 's32' | 'f32';

/** One channel's sample at byte `offset` of the frame at SRC, as a float in [−1, 1). */
function readSample(kind: SampleKind, offset: number): number[] {
  const src = op.get(SRC);
  if (kind === 'f32') return [...src, ...op.f32Load(offset), ...op.f64PromoteF32];
  // prettier-ignore
  const integer =
    kind === 's16'
      ? [...src, ...op.i32Load16s(offset)]
      : kind === 's32'
        ? [...src, ...op.i32Load(offset)]
        : // The 3 bytes in the low bits of a 4-byte load, sign-extended by shifting up and back.
          [...src, ...op.i32Load(offset), ...op.i32Const(8), ...op.i32Shl, ...op.i32Const(8), ...op.i32ShrS];
  return [...integer, ...op.f64ConvertI32s, ...op.get(SCALE), ...op.f64Mul];
}

const SAMPLE_BYTES: Record<SampleKind, number> = { s16: 2, s24: 3, s32: 4, f32: 4 };

function kernel(kind: SampleKind, channels: 1 | 2): FunctionDefinition {
  const sampleBytes = SAMPLE_BYTES[kind];
  const zero = op.i32Const(0);
  const splat = (local: number, index: number) => [
    ...zero,
    ...op.f64Load(COEFFICIENTS + 8 * index),
    ...op.f64x2Splat,
    ...op.set(local),
  ];
  const stateLocals = [X1, X2, Y1, Y2, Z1, Z2, SUM_LANES];
  const advance = (local: number, by: number) => [...op.get(local), ...op.i32Const(by), ...op.i32Add, ...op.set(local)];
  // prettier-ignore
  const prologue = [
    ...[B0, B1, B2, A1, A2, H1, H2].flatMap((local, index) => splat(local, index)),
    ...zero, ...op.f64Load(COEFFICIENTS + 56), ...op.set(SCALE),
    ...stateLocals.flatMap((local, index) => [...zero, ...op.v128Load(STATE + 16 * index), ...op.set(local)]),
    ...zero, ...op.v128Load(EXTREMES), ...op.set(HIGH),
    ...zero, ...op.v128Load(EXTREMES + 16), ...op.set(LOW),
    ...op.get(GATE), ...op.f64x2Splat, ...op.set(GATE_LANES),
    ...zero, ...op.i32Load(COUNTS), ...op.set(COUNT_LEFT),
    ...zero, ...op.i32Load(COUNTS + 4), ...op.set(COUNT_RIGHT),
  ];
  // prettier-ignore
  const decode =
    channels === 2
      ? [
          ...readSample(kind, 0), ...op.set(X_LEFT),
          ...readSample(kind, sampleBytes), ...op.set(X_RIGHT),
          ...op.get(X_LEFT), ...op.f64x2Splat, ...op.get(X_RIGHT), ...op.f64x2ReplaceLane(1), ...op.set(X),
          ...op.get(DST_LEFT), ...op.get(X_LEFT), ...op.f64Store(),
          ...op.get(DST_RIGHT), ...op.get(X_RIGHT), ...op.f64Store(),
        ]
      : [
          ...readSample(kind, 0), ...op.set(X_LEFT),
          ...op.get(X_LEFT), ...op.f64x2Splat, ...op.set(X),
          ...op.get(DST_LEFT), ...op.get(X_LEFT), ...op.f64Store(),
        ];
  // A candidate's position is stored at its channel's next slot whether or not it passed; the count
  // moves on only when it did (no branch to mispredict on noisy audio).
  // prettier-ignore
  const note = (count: number, candidates: number, bit: number[]) => [
    ...op.get(count), ...op.i32Const(2), ...op.i32Shl, ...op.get(candidates), ...op.i32Add, ...op.get(AT), ...op.i32Store(),
    ...op.get(count), ...op.get(PASSED), ...bit, ...op.i32Add, ...op.set(count),
  ];
  // prettier-ignore
  const gate = [
    ...op.get(X), ...op.f64x2Abs, ...op.get(GATE_LANES), ...op.f64x2Ge, ...op.i64x2Bitmask, ...op.set(PASSED),
    ...note(COUNT_LEFT, CANDIDATES_LEFT, [...op.i32Const(1), ...op.i32And]),
    ...(channels === 2 ? note(COUNT_RIGHT, CANDIDATES_RIGHT, [...op.i32Const(1), ...op.i32ShrU]) : []),
  ];
  const mul = (a: number, b: number) => [...op.get(a), ...op.get(b), ...op.f64x2Mul];
  // prettier-ignore
  const filter = [
    ...op.get(HIGH), ...op.get(X), ...op.f64x2Pmax, ...op.set(HIGH),
    ...op.get(LOW), ...op.get(X), ...op.f64x2Pmin, ...op.set(LOW),
    // Shelf: y = ((b0·x + b1·x1) + b2·x2 − a2·y2) − a1·y1.
    ...mul(B0, X), ...mul(B1, X1), ...op.f64x2Add, ...mul(B2, X2), ...op.f64x2Add,
    ...mul(A2, Y2), ...op.f64x2Sub, ...mul(A1, Y1), ...op.f64x2Sub, ...op.set(Y),
    // High-pass (b = 1, −2, 1): z = ((y − (y1 + y1)) + y2 − h2·z2) − h1·z1.
    ...op.get(Y), ...op.get(Y1), ...op.get(Y1), ...op.f64x2Add, ...op.f64x2Sub, ...op.get(Y2), ...op.f64x2Add,
    ...mul(H2, Z2), ...op.f64x2Sub, ...mul(H1, Z1), ...op.f64x2Sub, ...op.tee(Z),
    ...op.get(Z), ...op.f64x2Mul, ...op.get(SUM_LANES), ...op.f64x2Add, ...op.set(SUM_LANES),
    ...[[X1, X2], [X, X1], [Y1, Y2], [Y, Y1], [Z1, Z2], [Z, Z1]].flatMap(([from, to]) => [...op.get(from!), ...op.set(to!)]),
  ];
  // prettier-ignore
  const step = [
    ...advance(SRC, sampleBytes * channels),
    ...advance(AT, 1),
    ...advance(DST_LEFT, 8),
    ...(channels === 2 ? advance(DST_RIGHT, 8) : []),
    ...op.get(COUNT), ...op.i32Const(1), ...op.i32Sub, ...op.tee(COUNT), ...op.brIf(0),
  ];
  // prettier-ignore
  const epilogue = [
    ...stateLocals.flatMap((local, index) => [...zero, ...op.get(local), ...op.v128Store(STATE + 16 * index)]),
    ...zero, ...op.get(HIGH), ...op.v128Store(EXTREMES),
    ...zero, ...op.get(LOW), ...op.v128Store(EXTREMES + 16),
    ...zero, ...op.get(COUNT_LEFT), ...op.i32Store(COUNTS),
    ...zero, ...op.get(COUNT_RIGHT), ...op.i32Store(COUNTS + 4),
  ];
  // prettier-ignore
  return {
    exportName: `${kind}x${channels}`,
    params: [I32, I32, I32, I32, I32, F64, I32, I32],
    results: [],
    locals: [[20, V128], [3, F64], [3, I32]],
    body: [
      ...prologue,
      ...op.block, ...op.get(COUNT), ...op.i32Eqz, ...op.brIf(0),
      ...op.loop, ...decode, ...gate, ...filter, ...step, ...op.end,
      ...op.end,
      ...epilogue,
    ],
  };
}

// peakOf(window, intervals, count, peak) → peak: parameters, then locals.
const [WINDOW, INTERVALS, INTERVAL_COUNT, PEAK] = [0, 1, 2, 3];
const SUMS = [4, 5, 6, 7, 8, 9];
const [PAIR, TAPS_AT] = [10, 11];

/** The largest of `peak` and |each interpolated point| over `count` interval starts (window positions, i32). */
function peakOf(): FunctionDefinition {
  const zero = op.i32Const(0);
  const pairs = TRUE_PEAK_TAPS / 2;
  // Taps m − 15 … m + 16 for the interval from sample m: the first pair at byte 8·(m − 15).
  // prettier-ignore
  const address = [
    ...op.get(INTERVALS), ...op.i32Load(), ...op.i32Const(1 - TRUE_PEAK_TAPS / 2), ...op.i32Add,
    ...op.i32Const(3), ...op.i32Shl, ...op.get(WINDOW), ...op.i32Add, ...op.set(TAPS_AT),
  ];
  const products = Array.from({ length: pairs }, (_, pair) => [
    ...op.get(TAPS_AT),
    ...op.v128Load(16 * pair),
    ...op.set(PAIR),
    ...[0, 1, 2].flatMap((phase) => {
      const sum = SUMS[2 * phase + (pair % 2)]!;
      const product = [
        ...op.get(PAIR),
        ...zero,
        ...op.v128Load(PHASE_KERNELS + phase * TRUE_PEAK_TAPS * 8 + 16 * pair),
        ...op.f64x2Mul,
      ];
      return pair < 2 ? [...product, ...op.set(sum)] : [...op.get(sum), ...product, ...op.f64x2Add, ...op.set(sum)];
    }),
  ]).flat();
  // Per point: both sums lane by lane, then the two lanes; |that| against the peak so far.
  // prettier-ignore
  const reduce = [0, 1, 2].flatMap((phase) => [
    ...op.get(SUMS[2 * phase]!), ...op.get(SUMS[2 * phase + 1]!), ...op.f64x2Add, ...op.set(PAIR),
    ...op.get(PAIR), ...op.f64x2ExtractLane(0), ...op.get(PAIR), ...op.f64x2ExtractLane(1), ...op.f64Add,
    ...op.f64Abs, ...op.get(PEAK), ...op.f64Max, ...op.set(PEAK),
  ]);
  // prettier-ignore
  const step = [
    ...op.get(INTERVALS), ...op.i32Const(4), ...op.i32Add, ...op.set(INTERVALS),
    ...op.get(INTERVAL_COUNT), ...op.i32Const(1), ...op.i32Sub, ...op.tee(INTERVAL_COUNT), ...op.brIf(0),
  ];
  // prettier-ignore
  return {
    exportName: 'peakOf',
    params: [I32, I32, I32, F64],
    results: [F64],
    locals: [[7, V128], [1, I32]],
    body: [
      ...op.block, ...op.get(INTERVAL_COUNT), ...op.i32Eqz, ...op.brIf(0),
      ...op.loop, ...address, ...products, ...reduce, ...step, ...op.end,
      ...op.end,
      ...op.get(PEAK),
    ],
  };
}

const KINDS: SampleKind[] = ['s16', 's24', 's32', 'f32'];
let compiled: WebAssembly.Module | null = null;
/** Compiled once per thread, on first use: a few kilobytes, so synchronously. */
export function meterModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(
    writeModule(1, [...KINDS.flatMap((kind) => [kernel(kind, 1), kernel(kind, 2)]), peakOf()]),
  );
  return compiled;
}
