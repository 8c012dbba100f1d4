/**
 * Splits a file into overlapping chunks and joins the chunks' results with a cross-fade, keeping
 * only one overlap's worth of samples per stem between chunks: memory is bounded by the chunk
 * length, never by the file's.
 *
 * Chunk k covers [k·step, k·step + length), step = length − overlap, the last one ending at the
 * file's end. In the overlap with the next chunk, the next chunk's weight rises linearly from 0 to
 * 1, but only between `context` samples after its start and `context` samples before the previous
 * chunk's end: samples that close to a chunk's edge are shaped by the edge (zero padding, frames or
 * receptive fields cut off), so they get no weight. When `context` covers that reach, the joined
 * result equals the model run over the whole file at once.
 */

export interface ChunkSpan {
  index: number;
  start: number;
  end: number;
}

export interface ChunkPlan {
  length: number;
  overlap: number;
  context: number;
}

export function checkChunkPlan({ length, overlap, context }: ChunkPlan): void {
  if (!(length > 0 && overlap >= 0 && 2 * overlap <= length && 2 * context <= overlap)) {
    throw new RangeError(`bad chunk plan: length ${length}, overlap ${overlap}, context ${context}`);
  }
}

/** The chunks covering [0, total), in order; at least one (empty) chunk for an empty file. */
export function* chunkSpans(total: number, { length, overlap }: ChunkPlan): Generator<ChunkSpan> {
  const step = length - overlap;
  for (let index = 0, start = 0; ; index++, start += step) {
    const end = Math.min(start + length, total);
    yield { index, start, end };
    if (end >= total) return;
  }
}

export function chunkCount(total: number, { length, overlap }: ChunkPlan): number {
  return total <= length ? 1 : Math.ceil((total - length) / (length - overlap)) + 1;
}

/** Weight of the incoming chunk `u` samples into an overlap of `overlap` samples. */
export function incomingWeight(u: number, overlap: number, context: number): number {
  const ramp = overlap - 2 * context;
  if (u < context) return 0;
  if (u >= overlap - context) return 1;
  // Centre the ramp's samples so the two chunks' weights are symmetric around the overlap's middle.
  return (u - context + 0.5) / ramp;
}

/**
 * Joins the chunks of several stems (each planar: one Float32Array per channel, covering the
 * chunk's span) and hands finished samples, planar too, to `write` in file order.
 */
export class ChunkCrossfader {
  private tails: Float32Array[][] | null = null;
  private tailStart = 0;
  private readonly weights: Float32Array;

  constructor(
    private readonly plan: ChunkPlan,
    private readonly write: (stem: number, channels: Float32Array[]) => Promise<void>,
  ) {
    checkChunkPlan(plan);
    this.weights = Float32Array.from({ length: plan.overlap }, (_, u) => incomingWeight(u, plan.overlap, plan.context));
  }

  /**
   * Adds one chunk's stems, which it may overwrite; `last` says no chunk follows, so its whole end
   * is final.
   */
  async add(span: ChunkSpan, stems: Float32Array[][], last: boolean): Promise<void> {
    const { overlap } = this.plan;
    const length = span.end - span.start;
    const tails = this.tails;
    const blended = tails ? this.tailStart + tails[0]![0]!.length - span.start : 0;
    if (tails && span.start !== this.tailStart) throw new Error('chunks must arrive in order');
    // What is final now: up to where the next chunk starts (its overlap waits for it).
    const finalEnd = last ? length : length - overlap;
    if (finalEnd < blended) throw new Error('a chunk shorter than the overlap before it');
    for (let s = 0; s < stems.length; s++) {
      const out = stems[s]!.map((samples, c) => {
        const tail = tails?.[s]?.[c];
        // Blended in place (the chunk's arrays are the caller's to give away): no copy of the chunk.
        if (tail) for (let i = 0; i < blended; i++) samples[i] = tail[i]! + (samples[i]! - tail[i]!) * this.weights[i]!;
        return samples.subarray(0, finalEnd);
      });
      await this.write(s, out);
    }
    this.tails = last ? null : stems.map((planar) => planar.map((samples) => samples.slice(finalEnd, length)));
    this.tailStart = span.start + finalEnd;
  }
}
