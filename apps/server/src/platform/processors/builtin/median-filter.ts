/**
 * Median filters over a spectrogram stored frame after frame (`values[frame · bins + bin]`), the
 * core of harmonic/percussive separation: a sustained tone is a horizontal line, which survives a
 * median along time and vanishes under a median along frequency; a hit is a vertical line, the
 * other way round.
 *
 * Each filter slides a sorted window (one removal and one insertion per step), which costs about
 * the window's length per value instead of a sort. Near the edges of the spectrogram the window is
 * cut short rather than padded, so the result does not depend on what lies outside.
 */

/** A sorted window of at most `capacity` values with insertion and removal by value. */
class SortedWindow {
  private readonly values: Float64Array;
  private count = 0;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
  }

  clear(): void {
    this.count = 0;
  }

  insert(value: number): void {
    const at = this.search(value);
    for (let i = this.count; i > at; i--) this.values[i] = this.values[i - 1]!;
    this.values[at] = value;
    this.count++;
  }

  remove(value: number): void {
    const at = this.search(value);
    for (let i = at; i < this.count - 1; i++) this.values[i] = this.values[i + 1]!;
    this.count--;
  }

  median(): number {
    const middle = this.count >> 1;
    return this.count % 2 === 1 ? this.values[middle]! : (this.values[middle - 1]! + this.values[middle]!) / 2;
  }

  /** First position whose value is not below `value`. */
  private search(value: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.values[mid]! < value) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

export interface SpectrogramShape {
  frames: number;
  bins: number;
}

/**
 * For frames [from, to): the median of each bin over frames `t − radius .. t + radius` (those of
 * them that exist), into `out` at the same positions. Other frames of `out` are left as they are.
 */
export function medianOverTime(
  values: Float32Array,
  shape: SpectrogramShape,
  radius: number,
  out: Float32Array,
  from = 0,
  to = shape.frames,
): void {
  const { frames, bins } = shape;
  const window = new SortedWindow(2 * radius + 1);
  for (let bin = 0; bin < bins; bin++) {
    window.clear();
    for (let t = Math.max(0, from - radius); t <= Math.min(frames - 1, from + radius); t++)
      window.insert(values[t * bins + bin]!);
    for (let t = from; t < to; t++) {
      out[t * bins + bin] = window.median();
      const leaving = t - radius;
      const entering = t + radius + 1;
      if (leaving >= 0) window.remove(values[leaving * bins + bin]!);
      if (entering < frames) window.insert(values[entering * bins + bin]!);
    }
  }
}

/**
 * For frames [from, to): the median of each bin over bins `k − radius .. k + radius` of the same
 * frame (those that exist), into `out`.
 */
export function medianOverFrequency(
  values: Float32Array,
  shape: SpectrogramShape,
  radius: number,
  out: Float32Array,
  from = 0,
  to = shape.frames,
): void {
  const { bins } = shape;
  const window = new SortedWindow(2 * radius + 1);
  for (let t = from; t < to; t++) {
    const row = t * bins;
    window.clear();
    for (let k = 0; k <= Math.min(bins - 1, radius); k++) window.insert(values[row + k]!);
    for (let k = 0; k < bins; k++) {
      out[row + k] = window.median();
      const leaving = k - radius;
      const entering = k + radius + 1;
      if (leaving >= 0) window.remove(values[row + leaving]!);
      if (entering < bins) window.insert(values[row + entering]!);
    }
  }
}
