import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LoudnessMeter, type PcmFormat } from './loudness-meter';
import { splitForMeters } from './loudness-parts';
import { LoudnessTask } from './loudness-task';
import { readWavLayout } from './wav-peaks';

const dir = mkdtempSync(join(tmpdir(), 'mixroom-loudness-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A deterministic pseudo-random source (xorshift), so every run meters the same file. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296 - 0.5;
  };
}

/**
 * A WAV of smoothed noise whose level steps every 7 s (so gating matters), with a quarter-rate sine
 * at 45° — whose true peak lies 3 dB above its samples — right where each part of `parts` begins,
 * and the file's loudest samples there too: a split that lost anything at a part's edge shows.
 */
function writeWav(name: string, format: PcmFormat, seconds: number, parts: number): string {
  const frames = seconds * format.sampleRate;
  const bytesPerSample = format.bitsPerSample / 8;
  const data = Buffer.alloc(frames * format.channels * bytesPerSample);
  const segmentFrames = format.sampleRate / 10;
  const edges = splitForMeters(format, { path: '', start: 0, length: data.length }, parts).map(
    (range) => range.bytes.start / (bytesPerSample * format.channels) + range.keep.first * segmentFrames,
  );
  const next = random(seconds * 7919 + format.sampleRate);
  const smooth = new Array<number>(format.channels).fill(0);
  const write = (value: number, at: number) => {
    if (format.float) return data.writeFloatLE(value, at);
    const full = 2 ** (format.bitsPerSample - 1);
    const int = Math.max(-full, Math.min(full - 1, Math.round(value * full)));
    data.writeIntLE(int, at, bytesPerSample);
  };
  for (let frame = 0; frame < frames; frame++) {
    const level = 0.1 + 0.3 * (Math.floor(frame / (7 * format.sampleRate)) % 3);
    const edge = edges.find((start) => start > 0 && Math.abs(frame - start) < 64);
    for (let c = 0; c < format.channels; c++) {
      smooth[c] = 0.8 * smooth[c]! + 0.2 * next();
      const burst = edge === undefined ? 0 : 0.9 * Math.sin((Math.PI / 2) * (frame - edge) + Math.PI / 4 + c);
      write(edge === undefined ? level * smooth[c]! * 4 : burst, (frame * format.channels + c) * bytesPerSample);
    }
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(format.float ? 3 : 1, 20);
  header.writeUInt16LE(format.channels, 22);
  header.writeUInt32LE(format.sampleRate, 24);
  header.writeUInt32LE(format.sampleRate * format.channels * bytesPerSample, 28);
  header.writeUInt16LE(format.channels * bytesPerSample, 32);
  header.writeUInt16LE(format.bitsPerSample, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([header, data]));
  return path;
}

/** What one meter makes of the whole file, in this thread, fed chunks that split frames. */
function wholeFile(path: string) {
  const bytes = readFileSync(path);
  const layout = readWavLayout(bytes.subarray(0, 65536), bytes.length)!;
  const meter = new LoudnessMeter(layout);
  const samples = bytes.subarray(layout.dataStart, layout.dataStart + layout.dataLength);
  for (let at = 0; at < samples.length; at += 100_003) meter.push(samples.subarray(at, at + 100_003));
  return { layout, loudness: meter.finish() };
}

describe('a WAV metered in parts on several threads', { timeout: 60_000 }, () => {
  const cases: [string, PcmFormat, number, number][] = [
    ['24-bit stereo, 48 kHz, three parts', { channels: 2, sampleRate: 48000, bitsPerSample: 24, float: false }, 95, 3],
    ['16-bit mono, 44.1 kHz, two parts', { channels: 1, sampleRate: 44100, bitsPerSample: 16, float: false }, 65, 2],
    [
      '32-bit float stereo, 96 kHz, two parts',
      { channels: 2, sampleRate: 96000, bitsPerSample: 32, float: true },
      61,
      2,
    ],
  ];

  for (const [name, format, seconds, parts] of cases)
    it(`${name}: the same loudness, range and true peak as one meter over the whole file`, async () => {
      const path = writeWav(`${name.replace(/\W+/g, '-')}.wav`, format, seconds, parts);
      const expected = wholeFile(path);
      const { layout } = expected;
      const range = { path, start: layout.dataStart, length: layout.dataLength };
      expect(splitForMeters(layout, range, parts)).toHaveLength(parts);
      const loudness = await LoudnessTask.ofFile(layout, range, parts).result;

      // The true peak sits at a part's edge, above every sample.
      expect(loudness.truePeak!).toBeGreaterThan(20 * Math.log10(0.9) + 1);
      expect(loudness.truePeak!).toBeCloseTo(expected.loudness.truePeak!, 9);
      expect(loudness.integrated!).toBeCloseTo(expected.loudness.integrated!, 9);
      expect(loudness.range!).toBeCloseTo(expected.loudness.range!, 9);
      expect(loudness.range!).toBeGreaterThan(3);
    });

  it('splits only where each part has 30 s: a short file is one part, and the parts cover every segment once', () => {
    const format: PcmFormat = { channels: 2, sampleRate: 48000, bitsPerSample: 24, float: false };
    const seconds = (s: number) => ({ path: '', start: 44, length: s * 48000 * 6 });
    expect(splitForMeters(format, seconds(50), 4)).toHaveLength(1);
    const ranges = splitForMeters(format, { ...seconds(3600), length: 3600 * 48000 * 6 + 6 * 1234 }, 4);
    expect(ranges).toHaveLength(4);
    let expectedSegment = 0;
    for (const [i, range] of ranges.entries()) {
      const firstSegment = (range.bytes.start - 44) / 6 / 4800 + range.keep.first;
      expect(firstSegment).toBe(expectedSegment);
      expectedSegment += range.keep.count;
      // Every part but the last starts reading a second early; the last reads to the file's end.
      if (i > 0) expect(range.keep.first).toBe(10);
      if (i === ranges.length - 1)
        expect(range.bytes.start + range.bytes.length).toBe(44 + 3600 * 48000 * 6 + 6 * 1234);
    }
    expect(expectedSegment).toBe(36000);
  });

  it('rejects its result, and leaves no thread behind, when the file is gone', async () => {
    const format: PcmFormat = { channels: 2, sampleRate: 48000, bitsPerSample: 16, float: false };
    const task = LoudnessTask.ofFile(format, { path: join(dir, 'missing.wav'), start: 44, length: 48000 * 4 * 70 }, 2);
    await expect(task.result).rejects.toThrow(/ENOENT/);
  });
});
