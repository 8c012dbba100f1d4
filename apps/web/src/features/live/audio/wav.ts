/**
 * Lossless recording as 24-bit PCM WAV. The recorder worklet hands Float32 blocks (one per
 * channel); each block is packed at once into 3-byte samples so memory grows by 6 bytes per stereo
 * sample frame, not by Float32 copies.
 */

/** Packs planar float channels into interleaved little-endian signed 24-bit samples. */
export function packPcm24(channels: Float32Array[]): Uint8Array {
  const frames = channels[0]?.length ?? 0;
  const count = channels.length;
  const out = new Uint8Array(frames * count * 3);
  let o = 0;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < count; c++) {
      const s = Math.max(-1, Math.min(1, channels[c]![i]!));
      const v = Math.round(s < 0 ? s * 8_388_608 : s * 8_388_607);
      out[o++] = v & 0xff;
      out[o++] = (v >> 8) & 0xff;
      out[o++] = (v >> 16) & 0xff;
    }
  }
  return out;
}

/** The 44-byte RIFF/WAVE header of 24-bit PCM. */
export function wavHeader24(dataBytes: number, sampleRate: number, channels: number): Uint8Array {
  const header = new ArrayBuffer(44);
  const view = new DataView(header);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) view.setUint8(offset + i, value.charCodeAt(i));
  };
  const blockAlign = channels * 3;
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, 24, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  return new Uint8Array(header);
}

/** Reads one interleaved 24-bit sample back as a float (for tests and checks). */
export function readPcm24(bytes: Uint8Array, index: number): number {
  const o = index * 3;
  let v = bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16);
  if (v & 0x800000) v |= ~0xffffff;
  return v < 0 ? v / 8_388_608 : v / 8_388_607;
}

/** "Mixroom-Live-2026-11-27T10-21-05.wav": the product's prefix and a timestamp. */
export function recordingFileName(prefix: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace(/:/g, '-');
  return `${prefix}${stamp}.wav`;
}
