/**
 * What the bridge and the live room page say to each other. The page opens the message socket,
 * sends its AudioContext sample rate, reads the parameters, then opens the audio socket and reads
 * one binary frame per message. The layout is documented in packages/bridge/README.md; keep both in
 * step, the page decodes these bytes by hand.
 */

export const BRIDGE_VERSION = '0.1.0';

/** The spec's local socket ports: messages and audio, for the plugin and for system wide. */
export const DEFAULT_PORTS = {
  pluginControl: 7777,
  pluginAudio: 7778,
  systemControl: 7775,
  systemAudio: 7776,
} as const;

export type PortName = keyof typeof DEFAULT_PORTS;
export type Ports = Record<PortName, number>;

export const SAMPLE_FORMATS = ['f32le', 's16le', 's24le'] as const;
export type SampleFormat = (typeof SAMPLE_FORMATS)[number];

/** The code in byte 7 of a frame header, so a frame says how to read itself. */
export const FORMAT_CODES: Record<SampleFormat, number> = { f32le: 1, s16le: 2, s24le: 3 };
export const BYTES_PER_SAMPLE: Record<SampleFormat, number> = { f32le: 4, s16le: 2, s24le: 3 };

export const DEFAULT_SAMPLE_RATE = 48_000;
/** The spec's audio processor has 2 channels; a mono source is sent as two equal channels. */
export const CHANNELS = 2;
/** 10 ms at 48 kHz: small enough for low latency, large enough that a message per frame is cheap. */
export const DEFAULT_FRAME_SAMPLES = 480;
/** Eight bytes keep the PCM that follows 4-byte aligned, so the page can view it as a Float32Array. */
export const FRAME_HEADER_BYTES = 8;
export const MIN_SAMPLE_RATE = 8_000;
export const MAX_SAMPLE_RATE = 192_000;

/** The JSON the bridge sends on the message socket, in reply to a sample rate and on any change. */
export interface BridgeParameters {
  type: 'parameters';
  sampleRate: number;
  channels: number;
  frameSamples: number;
  format: SampleFormat;
  /** What is being captured, for the page to show, e.g. "file song.wav (looped)". */
  source: string;
  version: string;
}

/** Sent instead of parameters when the page's message cannot be used; the socket stays open. */
export interface BridgeError {
  type: 'error';
  message: string;
}

/**
 * Reads the page's message: a bare number ("48000") or JSON ({"sampleRate":48000}). Returns the
 * rate, or a sentence saying what is wrong.
 */
export function parseSampleRateMessage(text: string): number | string {
  let value: unknown = text.trim();
  if (typeof value === 'string' && value.startsWith('{')) {
    try {
      value = (JSON.parse(value) as { sampleRate?: unknown }).sampleRate;
    } catch {
      return 'the message is neither a number nor JSON with sampleRate';
    }
  }
  const rate = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(rate) || rate < MIN_SAMPLE_RATE || rate > MAX_SAMPLE_RATE) {
    return `the sample rate must be a whole number from ${MIN_SAMPLE_RATE} to ${MAX_SAMPLE_RATE}`;
  }
  return rate;
}

export function frameBytes(frameSamples: number, format: SampleFormat, channels = CHANNELS): number {
  return FRAME_HEADER_BYTES + frameSamples * channels * BYTES_PER_SAMPLE[format];
}

/** Fills the header of a frame whose PCM is already in place after the first 8 bytes. */
export function writeFrameHeader(
  frame: Buffer,
  sequence: number,
  samples: number,
  format: SampleFormat,
  channels = CHANNELS,
): void {
  frame.writeUInt32LE(sequence >>> 0, 0);
  frame.writeUInt16LE(samples, 4);
  frame.writeUInt8(channels, 6);
  frame.writeUInt8(FORMAT_CODES[format], 7);
}

export interface FrameHeader {
  sequence: number;
  samples: number;
  channels: number;
  format: SampleFormat;
}

/** The page's side, here for the tests and for anyone writing another client. */
export function readFrameHeader(frame: Uint8Array): FrameHeader {
  if (frame.byteLength < FRAME_HEADER_BYTES) throw new Error('a frame is at least 8 bytes');
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const code = view.getUint8(7);
  const format = SAMPLE_FORMATS.find((f) => FORMAT_CODES[f] === code);
  if (!format) throw new Error(`unknown sample format code ${code}`);
  return { sequence: view.getUint32(0, true), samples: view.getUint16(4, true), channels: view.getUint8(6), format };
}

/** Splits a frame's interleaved PCM into one Float32Array per channel, scaled to -1..1. */
export function decodeFramePcm(frame: Uint8Array): Float32Array[] {
  const { samples, channels, format } = readFrameHeader(frame);
  const view = new DataView(frame.buffer, frame.byteOffset + FRAME_HEADER_BYTES);
  const width = BYTES_PER_SAMPLE[format];
  const out = Array.from({ length: channels }, () => new Float32Array(samples));
  for (let i = 0; i < samples; i++) {
    for (let c = 0; c < channels; c++) {
      const at = (i * channels + c) * width;
      let value: number;
      if (format === 'f32le') value = view.getFloat32(at, true);
      else if (format === 's16le') value = view.getInt16(at, true) / 0x8000;
      else value = (view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 0x800000;
      out[c]![i] = value;
    }
  }
  return out;
}
