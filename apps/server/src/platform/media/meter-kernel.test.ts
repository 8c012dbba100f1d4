import { describe, expect, it } from 'vitest';
import { kWeighting } from './k-weighting';
import { MeterKernel } from './meter-kernel';
import type { PcmFormat } from './loudness-meter';
import { PHASE_KERNEL_TAPS, TRUE_PEAK_TAPS } from './true-peak';

/** A deterministic generator (xorshift32), so a failure names the same bytes every run. */
function randomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/**
 * PCM of every format with what breaks a decoder: the most negative integer, full scale, zero, −0.0
 * (float), and otherwise noise. Float samples are random magnitudes below 1, not random bit patterns
 * (a random pattern is sometimes NaN, which no WAV holds).
 */
function testSignal(format: PcmFormat, frames: number): Buffer {
  const sampleBytes = format.bitsPerSample / 8;
  const samples = frames * format.channels;
  if (format.float) {
    const noise = randomBytes(samples * 4, 7);
    const data = Buffer.alloc(samples * 4);
    for (let i = 0; i < samples; i++) data.writeFloatLE((noise.readInt32LE(i * 4) / 2 ** 31) * 0.999, i * 4);
    data.writeFloatLE(-0, 0);
    data.writeFloatLE(-1, 4);
    data.writeFloatLE(1, 8);
    return data;
  }
  const data = randomBytes(samples * sampleBytes, 11);
  // Sample 1 is the most negative value (0x80…00), sample 2 the largest (0x7f…ff), sample 3 zero.
  data.fill(0, sampleBytes, 2 * sampleBytes);
  data[2 * sampleBytes - 1] = 0x80;
  data.fill(0xff, 2 * sampleBytes, 3 * sampleBytes);
  data[3 * sampleBytes - 1] = 0x7f;
  data.fill(0, 3 * sampleBytes, 4 * sampleBytes);
  return data;
}

/** The same decode the old JavaScript decoders did: integers scaled by division, floats widened. */
function referenceSample(format: PcmFormat, data: Buffer, byte: number): number {
  if (format.float) return data.readFloatLE(byte);
  if (format.bitsPerSample === 16) return data.readInt16LE(byte) / 32768;
  if (format.bitsPerSample === 24) return data.readIntLE(byte, 3) / 8388608;
  return data.readInt32LE(byte) / 2147483648;
}

/**
 * The kernel's arithmetic, one channel at a time in scalar JavaScript, in the same order: direct
 * form I, the newest output's feedback product subtracted last. Extremes are kept per stretch of
 * `stretchFrames` (the kernel's are reset between them); candidates are the samples with |x| ≥ `gate`.
 */
function reference(format: PcmFormat, data: Buffer, frames: number, stretchFrames: number, gate: number) {
  const [shelf, pass] = kWeighting(format.sampleRate);
  const sampleBytes = format.bitsPerSample / 8;
  const samples: number[][] = [];
  const sums: number[] = [];
  const extremes: [number, number][][] = [];
  const candidates: number[][] = [];
  for (let c = 0; c < format.channels; c++) {
    let [x1, x2, y1, y2, z1, z2, sum] = [0, 0, 0, 0, 0, 0, 0];
    const channel: number[] = [];
    const stretches: [number, number][] = [];
    const passed: number[] = [];
    for (let i = 0; i < frames; i++) {
      const x = referenceSample(format, data, (i * format.channels + c) * sampleBytes);
      channel.push(x);
      if (Math.abs(x) >= gate) passed.push(i);
      if (i % stretchFrames === 0) stretches.push([0, 0]);
      const stretch = stretches.at(-1)!;
      if (stretch[0] < x) stretch[0] = x;
      if (x < stretch[1]) stretch[1] = x;
      const y = shelf.b0 * x + shelf.b1 * x1 + shelf.b2 * x2 - shelf.a2 * y2 - shelf.a1 * y1;
      const z = y - (y1 + y1) + y2 - pass.a2 * z2 - pass.a1 * z1;
      sum += z * z;
      [x2, x1, y2, y1, z2, z1] = [x1, x, y1, y, z1, z];
    }
    samples.push(channel);
    sums.push(sum);
    extremes.push(stretches);
    candidates.push(passed);
  }
  return { samples, sum: sums.reduce((a, b) => a + b, 0), extremes, candidates };
}

/** |H(e^iω)|² of the K-weighting's two stages at `frequency`, from their coefficients. */
function powerGain(sampleRate: number, frequency: number): number {
  const w = (2 * Math.PI * frequency) / sampleRate;
  // |c0 + c1·e^−iω + c2·e^−2iω|²
  const magnitude = (c0: number, c1: number, c2: number) =>
    (c0 + c1 * Math.cos(w) + c2 * Math.cos(2 * w)) ** 2 + (c1 * Math.sin(w) + c2 * Math.sin(2 * w)) ** 2;
  return kWeighting(sampleRate).reduce(
    (gain, { b0, b1, b2, a1, a2 }) => (gain * magnitude(b0, b1, b2)) / magnitude(1, a1, a2),
    1,
  );
}

const FORMATS: PcmFormat[] = [16, 24, 32].flatMap((bitsPerSample) =>
  [1, 2].map((channels) => ({ channels, sampleRate: 48000, bitsPerSample, float: false })),
);
FORMATS.push({ channels: 1, sampleRate: 96000, bitsPerSample: 32, float: true });
FORMATS.push({ channels: 2, sampleRate: 44100, bitsPerSample: 32, float: true });

describe('the K-weighting kernel (WebAssembly SIMD)', () => {
  for (const format of FORMATS) {
    const label = `${format.float ? 'float' : 'integer'} ${format.bitsPerSample}-bit, ${format.channels === 2 ? 'stereo' : 'mono'}`;
    it(`${label}: decodes, keeps the extremes, notes the gate's candidates and K-weights exactly as the scalar reference`, () => {
      const frames = 3000;
      const stretchFrames = 997;
      const gate = 0.75;
      const data = testSignal(format, frames);
      const kernel = new MeterKernel(format, kWeighting(format.sampleRate), frames);
      const bytesPerFrame = (format.bitsPerSample / 8) * format.channels;
      const extremes: number[][][] = Array.from({ length: format.channels }, () => []);
      // Staged in two uneven pieces, decoded in uneven runs that never cross a stretch's end.
      for (const [first, count] of [
        [0, 1234],
        [1234, frames - 1234],
      ] as const) {
        kernel.stageBytes(data, first * bytesPerFrame, count);
        for (let done = 0; done < count;) {
          const frame = first + done;
          const take = Math.min(count - done, stretchFrames - (frame % stretchFrames), 1 + (frame % 41));
          kernel.decode(done, take, frame, gate);
          done += take;
          if ((frame + take) % stretchFrames === 0 || first + done === frames) {
            for (let c = 0; c < format.channels; c++) extremes[c]!.push([kernel.extremes[c]!, kernel.extremes[2 + c]!]);
            kernel.resetExtremes();
          }
        }
      }
      const expected = reference(format, data, frames, stretchFrames, gate);
      for (let c = 0; c < format.channels; c++) {
        expect(Array.from(kernel.windows[c]!)).toEqual(expected.samples[c]);
        expect(extremes[c]).toEqual(expected.extremes[c]);
        expect(expected.candidates[c]!.length).toBeGreaterThan(100);
        expect(Array.from(kernel.candidates[c]!.subarray(0, kernel.counts[c]))).toEqual(expected.candidates[c]);
      }
      expect(Object.is(kernel.takeSum(), expected.sum)).toBe(true);
      expect(kernel.takeSum()).toBe(0);
    });
  }

  it('carries the filters from call to call: a settled 1 kHz tone gains what the filters’ response says (+0.70 dB)', () => {
    const format: PcmFormat = { channels: 2, sampleRate: 48000, bitsPerSample: 16, float: false };
    const kernel = new MeterKernel(format, kWeighting(48000), 4800);
    const tone = Buffer.alloc(48000 * 4);
    for (let i = 0; i < 48000; i++) {
      const sample = Math.round(16384 * Math.sin((2 * Math.PI * 1000 * i) / 48000));
      tone.writeInt16LE(sample, i * 4);
      tone.writeInt16LE(sample, i * 4 + 2);
    }
    let last = 0;
    for (let segment = 0; segment < 10; segment++) {
      kernel.stageBytes(tone, segment * 4800 * 4, 4800);
      for (let at = 0; at < 4800; at += 480) kernel.decode(at, 480, at, 2);
      last = kernel.takeSum() / 4800 / 2;
    }
    // A sine of amplitude ½ has mean square ⅛; the gain is |H(e^iω)|² of both stages at 1 kHz.
    expect(10 * Math.log10(last / 0.125)).toBeCloseTo(10 * Math.log10(powerGain(48000, 1000)), 3);
    expect(10 * Math.log10(powerGain(48000, 1000))).toBeCloseTo(0.7, 1);
  });

  it('interpolates the chosen intervals as the scalar reference does: two taps a lane, two sums a point', () => {
    const format: PcmFormat = { channels: 2, sampleRate: 48000, bitsPerSample: 24, float: false };
    const kernel = new MeterKernel(format, kWeighting(48000), 256);
    const window = kernel.windows[1]!;
    const noise = randomBytes(window.length * 4, 5);
    for (let i = 0; i < window.length; i++) window[i] = 0.9 * Math.sin(i * 1.9) + noise.readInt32LE(i * 4) / 2 ** 33;
    const starts = [15, 40, 41, 100, 183, 223];
    // The reference: per point, lane l of sum s adds the products of taps 4j + 2s + l, j = 0…7.
    let expected = 0;
    for (const m of starts) {
      for (let phase = 0; phase < 3; phase++) {
        const sums = [
          [0, 0],
          [0, 0],
        ];
        for (let tap = 0; tap < TRUE_PEAK_TAPS; tap++) {
          const sum = sums[Math.floor(tap / 2) % 2]!;
          sum[tap % 2]! += window[m - 15 + tap]! * PHASE_KERNEL_TAPS[phase * TRUE_PEAK_TAPS + tap]!;
        }
        const point = sums[0]![0]! + sums[1]![0]! + (sums[0]![1]! + sums[1]![1]!);
        expected = Math.max(expected, Math.abs(point));
      }
    }
    kernel.intervals.set(starts);
    expect(expected).toBeGreaterThan(0.9);
    expect(Object.is(kernel.peakOf(1, starts.length, 0), expected)).toBe(true);
    // A larger peak so far stands; no interval, no change.
    expect(kernel.peakOf(1, starts.length, 5)).toBe(5);
    expect(kernel.peakOf(1, 0, 0.25)).toBe(0.25);
  });
});
