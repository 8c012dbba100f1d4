import { describe, expect, it } from 'vitest';
import { packPcm24, readPcm24, recordingFileName, wavHeader24 } from './wav';

describe('24-bit WAV', () => {
  it('packs interleaved stereo and reads it back within one 24-bit step', () => {
    const left = new Float32Array([0, 0.5, -0.5, 1, -1, 1.5]);
    const right = new Float32Array([0.25, -0.25, 0.125, 0, 0.999, -2]);
    const bytes = packPcm24([left, right]);
    expect(bytes.length).toBe(6 * 2 * 3);
    for (let i = 0; i < 6; i++) {
      expect(readPcm24(bytes, i * 2)).toBeCloseTo(Math.max(-1, Math.min(1, left[i]!)), 6);
      expect(readPcm24(bytes, i * 2 + 1)).toBeCloseTo(Math.max(-1, Math.min(1, right[i]!)), 6);
    }
  });

  it('writes a PCM header: 24 bits, the channels, the rate and the data size', () => {
    const view = new DataView(wavHeader24(600, 48_000, 2).buffer);
    expect(String.fromCharCode(...new Uint8Array(view.buffer, 0, 4))).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(636);
    expect(view.getUint16(22, true)).toBe(2);
    expect(view.getUint32(24, true)).toBe(48_000);
    expect(view.getUint32(28, true)).toBe(48_000 * 6);
    expect(view.getUint16(34, true)).toBe(24);
    expect(view.getUint32(40, true)).toBe(600);
  });

  it('names the file with the prefix and a timestamp', () => {
    expect(recordingFileName('Mixroom-Live-', new Date('2026-11-27T10:21:05.120Z'))).toBe(
      'Mixroom-Live-2026-11-27T10-21-05.wav',
    );
  });
});
