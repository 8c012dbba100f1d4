// Lossless mode of live rooms: the wire format of one PCM frame on the publisher's data channel.
//
// A frame is one binary data-channel message: a 16-byte header, then the samples, interleaved,
// signed 24-bit little-endian. Header (little-endian):
//   0      magic 0x4d ('M')
//   1      format version (1)
//   2      encoding (1 = PCM s24le; other values are refused)
//   3      channel count (1 to 8)
//   4..7   sequence number (uint32, +1 per frame, wraps)
//   8..11  sample rate in Hz (uint32)
//   12..13 frame length: sample frames per channel (uint16)
//   14..15 reserved, 0
// The SFU relays each message unchanged; a listener tells a gap by the sequence number.

export const LOSSLESS_CHANNEL_LABEL = 'lossless';
export const LOSSLESS_HEADER_BYTES = 16;
export const LOSSLESS_MAGIC = 0x4d;
export const LOSSLESS_VERSION = 1;
export const LOSSLESS_ENCODING_PCM24 = 1;
export const LOSSLESS_SAMPLE_RATE = 48_000;
export const LOSSLESS_CHANNELS = 2;
/** 10 ms a frame: 480 sample frames, 2,896 bytes in stereo. */
export const LOSSLESS_FRAME_LENGTH = 480;
/** What a listener's jitter buffer holds before it starts playing (and again after a dropout). */
export const LOSSLESS_TARGET_MS = 80;
/** 2^23: a 24-bit sample's full scale. Every 24-bit value divided by it is exact in a float32. */
export const INT24_SCALE = 8_388_608;

export interface LosslessFrame {
  sequence: number;
  sampleRate: number;
  /** One Int32Array per channel, each `frameLength` samples in −2^23 … 2^23−1. */
  channels: Int32Array[];
}

/** A float sample (−1 … 1) as a 24-bit integer: rounded, clipped to the format's range. */
export function floatToInt24(sample: number): number {
  const scaled = Math.round(sample * INT24_SCALE);
  return scaled > INT24_SCALE - 1 ? INT24_SCALE - 1 : scaled < -INT24_SCALE ? -INT24_SCALE : scaled;
}

/** Builds one message. Every channel must have the same length (1 … 65535 frames). */
export function encodeLosslessFrame(frame: LosslessFrame): Uint8Array {
  const channelCount = frame.channels.length;
  const length = frame.channels[0]?.length ?? 0;
  if (channelCount < 1 || channelCount > 8) throw new RangeError('A lossless frame carries 1 to 8 channels.');
  if (length < 1 || length > 0xffff || frame.channels.some((c) => c.length !== length))
    throw new RangeError('A lossless frame carries 1 to 65535 samples per channel, the same in each.');
  const bytes = new Uint8Array(LOSSLESS_HEADER_BYTES + length * channelCount * 3);
  const view = new DataView(bytes.buffer);
  bytes[0] = LOSSLESS_MAGIC;
  bytes[1] = LOSSLESS_VERSION;
  bytes[2] = LOSSLESS_ENCODING_PCM24;
  bytes[3] = channelCount;
  view.setUint32(4, frame.sequence >>> 0, true);
  view.setUint32(8, frame.sampleRate, true);
  view.setUint16(12, length, true);
  let at = LOSSLESS_HEADER_BYTES;
  for (let i = 0; i < length; i++) {
    for (let c = 0; c < channelCount; c++) {
      const value = frame.channels[c]![i]!;
      bytes[at] = value & 0xff;
      bytes[at + 1] = (value >> 8) & 0xff;
      bytes[at + 2] = (value >> 16) & 0xff;
      at += 3;
    }
  }
  return bytes;
}

/** Reads one message; null when it is not a lossless frame this version understands. */
export function decodeLosslessFrame(message: ArrayBuffer | Uint8Array): LosslessFrame | null {
  const bytes = message instanceof Uint8Array ? message : new Uint8Array(message);
  if (bytes.length < LOSSLESS_HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] !== LOSSLESS_MAGIC || bytes[1] !== LOSSLESS_VERSION || bytes[2] !== LOSSLESS_ENCODING_PCM24) return null;
  const channelCount = bytes[3]!;
  const length = view.getUint16(12, true);
  if (channelCount < 1 || channelCount > 8 || length < 1) return null;
  if (bytes.length !== LOSSLESS_HEADER_BYTES + length * channelCount * 3) return null;
  const channels = Array.from({ length: channelCount }, () => new Int32Array(length));
  let at = LOSSLESS_HEADER_BYTES;
  for (let i = 0; i < length; i++) {
    for (let c = 0; c < channelCount; c++) {
      // Sign-extend the 24-bit value through the top byte.
      channels[c]![i] = ((bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) << 8) >> 8;
      at += 3;
    }
  }
  return { sequence: view.getUint32(4, true), sampleRate: view.getUint32(8, true), channels };
}

/**
 * How much sound one message carries, in seconds, read from its header alone (the relay must not
 * decode every frame); null when it is not a lossless frame this version understands.
 */
export function losslessFrameSeconds(message: ArrayBuffer | Uint8Array): number | null {
  const bytes = message instanceof Uint8Array ? message : new Uint8Array(message);
  if (bytes.length < LOSSLESS_HEADER_BYTES) return null;
  if (bytes[0] !== LOSSLESS_MAGIC || bytes[1] !== LOSSLESS_VERSION || bytes[2] !== LOSSLESS_ENCODING_PCM24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const channelCount = bytes[3]!;
  const length = view.getUint16(12, true);
  const sampleRate = view.getUint32(8, true);
  if (channelCount < 1 || channelCount > 8 || length < 1 || sampleRate < 8_000 || sampleRate > 384_000) return null;
  if (bytes.length !== LOSSLESS_HEADER_BYTES + length * channelCount * 3) return null;
  return length / sampleRate;
}
