import { describe, expect, it } from 'vitest';
import { ChunkCrossfader, chunkCount, chunkSpans } from './chunk-crossfader';

describe('chunk plan', () => {
  it('covers the file with overlapping chunks, the last one ending at the end and longer than the overlap', () => {
    const plan = { length: 100, overlap: 30, context: 5 };
    for (const total of [0, 1, 99, 100, 101, 170, 171, 1000, 1013]) {
      const spans = [...chunkSpans(total, plan)];
      expect(spans).toHaveLength(chunkCount(total, plan));
      expect(spans[0]!.start).toBe(0);
      expect(spans.at(-1)!.end).toBe(total);
      spans.slice(1).forEach((span, i) => expect(span.start).toBe(spans[i]!.end - 30));
      if (spans.length > 1) expect(spans.at(-1)!.end - spans.at(-1)!.start).toBeGreaterThan(30);
    }
  });
});

describe('ChunkCrossfader', () => {
  it('writes every sample once, in order, fading from one chunk to the next outside the context', async () => {
    const plan = { length: 40, overlap: 20, context: 4 };
    const written: number[] = [];
    const crossfader = new ChunkCrossfader(plan, async (stem, channels) => {
      expect(stem).toBe(0);
      expect(channels).toHaveLength(2);
      written.push(...channels[0]!);
      expect(Array.from(channels[1]!)).toEqual(Array.from(channels[0]!, (x) => -x));
    });
    const spans = [...chunkSpans(70, plan)];
    for (const span of spans) {
      // Chunk k is the constant k everywhere: what is written shows whose samples count where.
      const value = span.index;
      const channel = new Float32Array(span.end - span.start).fill(value);
      await crossfader.add(span, [[channel, channel.map((x) => -x)]], span === spans.at(-1));
    }
    expect(written).toHaveLength(70);
    // Chunk 1 starts at 20: until 24 only chunk 0 counts, from 36 only chunk 1, a ramp between.
    expect(written.slice(0, 24)).toEqual(new Array(24).fill(0));
    const ramp = written.slice(24, 36);
    expect(ramp.every((x, i) => x > 0 && x < 1 && (i === 0 || x > ramp[i - 1]!))).toBe(true);
    expect(ramp[0]! + ramp.at(-1)!).toBeCloseTo(1, 6);
    expect(written.slice(36, 44)).toEqual(new Array(8).fill(1));
  });
});
