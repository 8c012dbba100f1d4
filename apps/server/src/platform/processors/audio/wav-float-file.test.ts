import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WavFloatReader, WavFloatWriter } from './wav-float-file';

const dir = mkdtempSync(join(tmpdir(), 'wav-float-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ramp = (length: number, scale: number) => Float32Array.from({ length }, (_, i) => (i % 1000) * scale);

describe('WavFloatWriter and WavFloatReader', () => {
  it('write in appended blocks, read back at any offset, header fixed at close', async () => {
    const path = join(dir, 'blocks.wav');
    const writer = await WavFloatWriter.create(path, { sampleRate: 44_100, channels: 2 });
    const left = ramp(10_000, 0.001);
    const right = ramp(10_000, -0.0005);
    for (let at = 0; at < 10_000; at += 3_000)
      await writer.write([left.slice(at, at + 3_000), right.slice(at, at + 3_000)]);
    await writer.close();
    await writer.close();
    expect(statSync(path).size).toBe(58 + 10_000 * 8);

    const reader = await WavFloatReader.open(path);
    expect([reader.sampleRate, reader.channels, reader.frames]).toEqual([44_100, 2, 10_000]);
    const [l, r] = await reader.read(4_321, 1_000);
    expect(l).toEqual(left.slice(4_321, 5_321));
    expect(r).toEqual(right.slice(4_321, 5_321));
    // Past the end: shorter, then empty.
    expect((await reader.read(9_500, 1_000))[0]).toHaveLength(500);
    expect((await reader.read(20_000, 10))[1]).toHaveLength(0);
    await reader.close();
  });

  it('writes a file ffmpeg reads as 32-bit float stereo with the same samples', async () => {
    const path = join(dir, 'for-ffmpeg.wav');
    const writer = await WavFloatWriter.create(path, { sampleRate: 44_100, channels: 2 });
    const left = ramp(2_000, 0.0001);
    const right = ramp(2_000, 0.0002);
    await writer.write([left, right]);
    await writer.close();
    const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 'f32le', '-c:a', 'pcm_f32le', '-']);
    const samples = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
    expect(samples.length).toBe(4_000);
    expect(samples[2 * 1234]).toBe(left[1234]);
    expect(samples[2 * 1234 + 1]).toBe(right[1234]);
  });

  it('reads what ffmpeg writes (extra chunks, its own header layout)', async () => {
    const path = join(dir, 'from-ffmpeg.wav');
    execFileSync('ffmpeg', [
      '-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=441:sample_rate=44100:duration=0.5',
      '-ac', '2', '-c:a', 'pcm_f32le', '-metadata', 'title=test', '-y', path,
    ]); // prettier-ignore
    const reader = await WavFloatReader.open(path);
    expect([reader.sampleRate, reader.channels, reader.frames]).toEqual([44_100, 2, 22_050]);
    const [left, right] = await reader.read(0, 200);
    // 441 Hz at 44.1 kHz: 100 samples a period; the mono tone is spread at −3 dB on two channels.
    expect(left![25]).toBeCloseTo(0.125 * Math.SQRT1_2, 3);
    expect(left![125]).toBeCloseTo(left![25]!, 4);
    expect(right).toEqual(left);
    await reader.close();
  });

  it('reads a file whose data size was never written back', async () => {
    const path = join(dir, 'streamed.wav');
    const writer = await WavFloatWriter.create(path, { sampleRate: 44_100, channels: 1 });
    await writer.write([ramp(300, 0.01)]);
    await writer.close();
    const bytes = readFileSync(path);
    bytes.writeUInt32LE(0xffffffff, 54);
    writeFileSync(path, bytes);
    const reader = await WavFloatReader.open(path);
    expect(reader.frames).toBe(300);
    await reader.close();
  });

  it('refuses a WAV that is not 32-bit float', async () => {
    const path = join(dir, 'pcm16.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=duration=0.1', '-c:a', 'pcm_s16le', '-y', path]);
    await expect(WavFloatReader.open(path)).rejects.toThrow(/not 32-bit float/);
    writeFileSync(join(dir, 'text.wav'), 'hello, not audio');
    await expect(WavFloatReader.open(join(dir, 'text.wav'))).rejects.toThrow(/not a WAV/);
  });
});
