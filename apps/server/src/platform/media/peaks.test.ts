import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PeakAccumulator } from './peaks';
import { readWavLayout, scanWavPeaks } from './wav-peaks';

const pcm = (values: number[]) => {
  const buffer = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => buffer.writeInt16LE(v, i * 2));
  return buffer;
};
const bytes = (data: string) => [...Buffer.from(data, 'base64')];

/** A WAVE file in memory: a LIST chunk first (as ffmpeg writes), then fmt and data. */
function wav(options: {
  channels: number;
  sampleRate: number;
  bits: 16 | 24 | 32;
  float?: boolean;
  frames: number[][];
}): Buffer {
  const bytesPerSample = options.bits / 8;
  const data = Buffer.alloc(options.frames.length * options.channels * bytesPerSample);
  options.frames.forEach((frame, f) =>
    frame.forEach((value, c) => {
      const at = (f * options.channels + c) * bytesPerSample;
      if (options.float) data.writeFloatLE(value, at);
      else data.writeIntLE(Math.round(value * (2 ** (options.bits - 1) - 1)), at, bytesPerSample);
    }),
  );
  const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([4, 0, 0, 0]), Buffer.from('INFO')]);
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(options.float ? 3 : 1, 8);
  fmt.writeUInt16LE(options.channels, 10);
  fmt.writeUInt32LE(options.sampleRate, 12);
  fmt.writeUInt32LE(options.sampleRate * options.channels * bytesPerSample, 16);
  fmt.writeUInt16LE(options.channels * bytesPerSample, 20);
  fmt.writeUInt16LE(options.bits, 22);
  const dataHead = Buffer.alloc(8);
  dataHead.write('data', 0, 'ascii');
  dataHead.writeUInt32LE(data.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE'), list, fmt, dataHead, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** Streams `buffer` in awkward pieces, so samples straddle chunk boundaries. */
const pieces = (buffer: Buffer, size = 1001) =>
  Readable.from(
    Array.from({ length: Math.ceil(buffer.length / size) }, (_, i) => buffer.subarray(i * size, (i + 1) * size)),
  ) as AsyncIterable<Buffer>;

describe('PeakAccumulator', () => {
  it('keeps the largest |amplitude| of every 10 ms, and coarser levels as maxima of finer bins', () => {
    const acc = new PeakAccumulator(8000);
    const samples = Array.from({ length: 800 }, (_, i) => (i === 85 ? -32768 : i === 500 ? 16384 : 100));
    acc.push(pcm(samples.slice(0, 333)));
    acc.push(pcm(samples.slice(333)));
    const file = acc.finish().file();
    expect(file.levels.map((l) => l.samplesPerPeak)).toEqual([80, 400, 2000]);
    const finest = bytes(file.levels[0]!.data);
    expect(finest).toHaveLength(10);
    expect(finest[1]).toBe(255);
    expect(finest[6]).toBe(128);
    expect(finest[0]).toBe(1);
    expect(bytes(file.levels[1]!.data)).toEqual([255, 128]);
    expect(file.durationSeconds).toBeCloseTo(0.1);
  });

  it('handles chunks split in the middle of a sample', () => {
    const acc = new PeakAccumulator(8000);
    const data = pcm(Array.from({ length: 160 }, (_, i) => (i === 100 ? 20000 : 0)));
    acc.push(data.subarray(0, 201));
    acc.push(data.subarray(201));
    expect(bytes(acc.finish().file().levels[0]!.data)).toEqual([0, Math.round((20000 / 32768) * 255)]);
  });
});

describe('PCM WAV peaks without a decoder', () => {
  // 48 kHz: 480 frames per 10 ms bin. A full-scale negative sample in bin 1 (right channel), half
  // scale in bin 3, silence elsewhere.
  const frames = Array.from({ length: 480 * 4 }, (_, f) => (f === 600 ? [0, -1] : f === 1500 ? [0.5, 0] : [0, 0]));

  it.each([
    { bits: 16 as const, float: false },
    { bits: 24 as const, float: false },
    { bits: 32 as const, float: false },
    { bits: 32 as const, float: true },
  ])('reads $bits-bit (float: $float) stereo across chunk boundaries', async ({ bits, float }) => {
    const file = wav({ channels: 2, sampleRate: 48000, bits, float, frames });
    const layout = readWavLayout(file, file.length)!;
    expect(layout).toMatchObject({
      channels: 2,
      sampleRate: 48000,
      bitsPerSample: bits,
      float,
      dataLength: frames.length * 2 * (bits / 8),
    });
    const bins = await scanWavPeaks(pieces(file.subarray(layout.dataStart)), layout);
    const peaks = bins.file();
    expect(peaks.durationSeconds).toBeCloseTo(0.04);
    expect(peaks.levels[0]!.samplesPerPeak).toBe(480);
    const finest = bytes(peaks.levels[0]!.data);
    expect(finest[0]).toBe(0);
    expect(finest[1]).toBeGreaterThanOrEqual(254);
    expect(Math.abs(finest[3]! - 128)).toBeLessThanOrEqual(1);
  });

  it('leaves compressed or unusual WAV files to ffmpeg', () => {
    const file = wav({ channels: 1, sampleRate: 44100, bits: 16, frames: [[0]] });
    const adpcm = Buffer.from(file);
    adpcm.writeUInt16LE(2, file.indexOf('fmt ') + 8);
    expect(readWavLayout(adpcm, adpcm.length)).toBeNull();
    expect(readWavLayout(Buffer.from('RIFF....AIFF'), 12)).toBeNull();
  });

  it('bounds a wrong data size by the end of the file (a recorder that crashed)', () => {
    const file = wav({ channels: 1, sampleRate: 44100, bits: 16, frames: Array.from({ length: 100 }, () => [0.1]) });
    const broken = Buffer.from(file);
    broken.writeUInt32LE(0xfffffff0, file.indexOf('data') + 4);
    expect(readWavLayout(broken, broken.length)?.dataLength).toBe(200);
  });
});
