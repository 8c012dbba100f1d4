/**
 * The Mixroom bridge's socket protocol (packages/bridge/README.md): a message socket that takes the
 * page's sample rate and answers with parameters as JSON, and an audio socket with one binary frame
 * per message: an 8-byte little-endian header (uint32 sequence, uint16 samples per channel, uint8
 * channels, uint8 format 1 f32le / 2 s16le / 3 s24le) and interleaved PCM.
 */

export interface BridgeParameters {
  type: 'parameters';
  sampleRate: number;
  channels: number;
  frameSamples: number;
  format: 'f32le' | 's16le' | 's24le';
  source?: string;
  version?: string;
}

export interface BridgeFrame {
  sequence: number;
  /** Planar samples, one array per channel. */
  channels: Float32Array[];
}

export function parseBridgeMessage(text: string): BridgeParameters | null {
  try {
    const message = JSON.parse(text) as Partial<BridgeParameters>;
    if (message.type !== 'parameters' || typeof message.sampleRate !== 'number') return null;
    return message as BridgeParameters;
  } catch {
    return null;
  }
}

/** Decodes one binary frame into planar floats; null for a malformed one. */
export function decodeBridgeFrame(data: ArrayBuffer): BridgeFrame | null {
  if (data.byteLength < 8) return null;
  const view = new DataView(data);
  const sequence = view.getUint32(0, true);
  const samples = view.getUint16(4, true);
  const count = view.getUint8(6);
  const format = view.getUint8(7);
  const width = format === 1 ? 4 : format === 2 ? 2 : format === 3 ? 3 : 0;
  if (!width || count < 1 || data.byteLength < 8 + samples * count * width) return null;
  const channels = Array.from({ length: count }, () => new Float32Array(samples));
  for (let i = 0; i < samples; i++) {
    for (let c = 0; c < count; c++) {
      const offset = 8 + (i * count + c) * width;
      let value: number;
      if (format === 1) value = view.getFloat32(offset, true);
      else if (format === 2) value = view.getInt16(offset, true) / 32_768;
      else {
        let v = view.getUint8(offset) | (view.getUint8(offset + 1) << 8) | (view.getUint8(offset + 2) << 16);
        if (v & 0x800000) v |= ~0xffffff;
        value = v / 8_388_608;
      }
      channels[c]![i] = value;
    }
  }
  return { sequence, channels };
}
