import { describe, expect, it } from 'vitest';
import { decodeBridgeFrame, parseBridgeMessage } from './bridge-protocol';

function frame(format: 1 | 2 | 3, samples: number[][]): ArrayBuffer {
  const width = format === 1 ? 4 : format === 2 ? 2 : 3;
  const n = samples[0]!.length;
  const buffer = new ArrayBuffer(8 + n * 2 * width);
  const view = new DataView(buffer);
  view.setUint32(0, 7, true);
  view.setUint16(4, n, true);
  view.setUint8(6, 2);
  view.setUint8(7, format);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 2; c++) {
      const o = 8 + (i * 2 + c) * width;
      const s = samples[c]![i]!;
      if (format === 1) view.setFloat32(o, s, true);
      else if (format === 2) view.setInt16(o, Math.round(s * 32_768), true);
      else {
        const v = Math.round(s * 8_388_608) & 0xffffff;
        view.setUint8(o, v & 0xff);
        view.setUint8(o + 1, (v >> 8) & 0xff);
        view.setUint8(o + 2, (v >> 16) & 0xff);
      }
    }
  return buffer;
}

describe('bridge frames', () => {
  const samples = [
    [0.5, -0.25, 0],
    [-0.5, 0.125, 0.75],
  ];
  it.each([1, 2, 3] as const)('decodes format %i into planar channels', (format) => {
    const decoded = decodeBridgeFrame(frame(format, samples))!;
    expect(decoded.sequence).toBe(7);
    expect(decoded.channels).toHaveLength(2);
    for (let c = 0; c < 2; c++)
      for (let i = 0; i < 3; i++) expect(decoded.channels[c]![i]).toBeCloseTo(samples[c]![i]!, 4);
  });
  it('refuses short or unknown frames', () => {
    expect(decodeBridgeFrame(new ArrayBuffer(4))).toBeNull();
    const bad = frame(1, samples);
    new DataView(bad).setUint8(7, 9);
    expect(decodeBridgeFrame(bad)).toBeNull();
  });
  it('reads the parameters message', () => {
    expect(parseBridgeMessage('{"type":"parameters","sampleRate":48000,"channels":2}')).toMatchObject({
      sampleRate: 48000,
    });
    expect(parseBridgeMessage('{"type":"error","message":"x"}')).toBeNull();
    expect(parseBridgeMessage('nope')).toBeNull();
  });
});
