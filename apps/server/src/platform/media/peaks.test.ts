import { describe, expect, it } from 'vitest';
import { PeakAccumulator } from './peaks';

const pcm = (values: number[]) => {
  const buffer = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => buffer.writeInt16LE(v, i * 2));
  return buffer;
};

describe('PeakAccumulator', () => {
  it('keeps the largest |amplitude| of every 80 samples, and coarser levels as maxima of finer bins', () => {
    const acc = new PeakAccumulator();
    const samples = Array.from({ length: 800 }, (_, i) => (i === 85 ? -32768 : i === 500 ? 16384 : 100));
    acc.push(pcm(samples.slice(0, 333)));
    acc.push(pcm(samples.slice(333)));
    const file = acc.finish();
    const finest = [...Buffer.from(file.levels[0]!.data, 'base64')];
    expect(finest).toHaveLength(10);
    expect(finest[1]).toBe(255);
    expect(finest[6]).toBe(128);
    expect(finest[0]).toBe(1);
    expect([...Buffer.from(file.levels[1]!.data, 'base64')]).toEqual([255, 128]);
    expect(file.durationSeconds).toBeCloseTo(0.1);
  });

  it('handles chunks split in the middle of a sample', () => {
    const acc = new PeakAccumulator();
    const bytes = pcm(Array.from({ length: 160 }, (_, i) => (i === 100 ? 20000 : 0)));
    acc.push(bytes.subarray(0, 201));
    acc.push(bytes.subarray(201));
    expect([...Buffer.from(acc.finish().levels[0]!.data, 'base64')]).toEqual([0, Math.round((20000 / 32768) * 255)]);
  });
});
