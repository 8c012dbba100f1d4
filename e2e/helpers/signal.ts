import { writeFileSync } from 'node:fs';

/** Signals for the live e2e: seeded noise, a stereo WAV writer, and an FFT cross-correlation. */

/** Band-limited noise from a seeded generator: white noise through two one-pole low-passes (~3 kHz). */
export function noise(seed: number, frames: number): Float64Array {
  let state = seed >>> 0;
  const out = new Float64Array(frames);
  let a = 0;
  let b = 0;
  for (let i = 0; i < frames; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    const white = state / 2 ** 32 - 0.5;
    a += 0.33 * (white - a);
    b += 0.33 * (a - b);
    out[i] = b;
  }
  let peak = 0;
  for (const x of out) peak = Math.max(peak, Math.abs(x));
  for (let i = 0; i < frames; i++) out[i] = (out[i]! / peak) * 0.6;
  return out;
}

export function writeStereoWav(path: string, left: Float64Array, right: Float64Array): void {
  const frames = left.length;
  const wav = Buffer.alloc(44 + frames * 4);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + frames * 4, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(2, 22);
  wav.writeUInt32LE(48_000, 24);
  wav.writeUInt32LE(48_000 * 4, 28);
  wav.writeUInt16LE(4, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(frames * 4, 40);
  for (let i = 0; i < frames; i++) {
    wav.writeInt16LE(Math.round(left[i]! * 32_767), 44 + i * 4);
    wav.writeInt16LE(Math.round(right[i]! * 32_767), 46 + i * 4);
  }
  writeFileSync(path, wav);
}

/** In-place iterative radix-2 FFT (inverse unscaled when `inverse`). */
function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

/**
 * The best normalised correlation of a take against the looping reference, over every lag: the
 * take's dot product with the reference window at that lag, over both norms.
 */
export function normalisedPeak(take: Float64Array, ref: Float64Array): { peak: number; lag: number } {
  const n = ref.length;
  const tr = new Float64Array(n);
  tr.set(take);
  const ti = new Float64Array(n);
  const rr = Float64Array.from(ref);
  const ri = new Float64Array(n);
  fft(tr, ti);
  fft(rr, ri);
  // conj(T) · R → corr[lag] = Σ take[i] · ref[i + lag] (circular: the bridge loops the file).
  for (let k = 0; k < n; k++) {
    const re = tr[k]! * rr[k]! + ti[k]! * ri[k]!;
    const im = tr[k]! * ri[k]! - ti[k]! * rr[k]!;
    tr[k] = re;
    ti[k] = im;
  }
  fft(tr, ti, true);
  let takeEnergy = 0;
  for (const x of take) takeEnergy += x * x;
  // Energy of the reference window starting at each lag, by a running sum over the loop.
  let window = 0;
  for (let i = 0; i < take.length; i++) window += ref[i]! ** 2;
  let best = { peak: -1, lag: 0 };
  for (let lag = 0; lag < n; lag++) {
    const value = tr[lag]! / n / Math.sqrt(takeEnergy * window + 1e-20);
    if (value > best.peak) best = { peak: value, lag };
    window += ref[(lag + take.length) % n]! ** 2 - ref[lag]! ** 2;
  }
  return best;
}
