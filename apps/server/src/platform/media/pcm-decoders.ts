import type { PcmFormat } from './loudness-meter';

/**
 * Decodes `count` samples of one channel from interleaved little-endian bytes (the first at
 * `byte`, then every `step` bytes) into `into` from index `at`, as floats in [−1, 1), and widens
 * `extremes` ([largest, smallest], kept across calls for one block) by them: the waveform's peaks
 * and the true-peak gate come from the same pass that decodes.
 */
export type ChannelDecoder = (
  data: Buffer,
  byte: number,
  step: number,
  count: number,
  into: Float64Array,
  at: number,
  extremes: Float64Array,
) => void;

/** The decoder for a format; one small loop per sample format keeps each loop monomorphic. */
export function channelDecoder(format: PcmFormat): ChannelDecoder {
  if (format.float) return decodeFloat32;
  return format.bitsPerSample === 16 ? decode16 : format.bitsPerSample === 24 ? decode24 : decode32;
}

const decode16: ChannelDecoder = (data, byte, step, count, into, at, extremes) => {
  let high = extremes[0]!;
  let low = extremes[1]!;
  for (let i = at; i < at + count; i++, byte += step) {
    const x = (data[byte]! | ((data[byte + 1]! << 24) >> 16)) / 32768;
    into[i] = x;
    if (x > high) high = x;
    else if (x < low) low = x;
  }
  extremes[0] = high;
  extremes[1] = low;
};

const decode24: ChannelDecoder = (data, byte, step, count, into, at, extremes) => {
  let high = extremes[0]!;
  let low = extremes[1]!;
  for (let i = at; i < at + count; i++, byte += step) {
    const x = (data[byte]! | (data[byte + 1]! << 8) | ((data[byte + 2]! << 24) >> 8)) / 8388608;
    into[i] = x;
    if (x > high) high = x;
    else if (x < low) low = x;
  }
  extremes[0] = high;
  extremes[1] = low;
};

const decode32: ChannelDecoder = (data, byte, step, count, into, at, extremes) => {
  let high = extremes[0]!;
  let low = extremes[1]!;
  for (let i = at; i < at + count; i++, byte += step) {
    const x = (data[byte]! | (data[byte + 1]! << 8) | (data[byte + 2]! << 16) | (data[byte + 3]! << 24)) / 2147483648;
    into[i] = x;
    if (x > high) high = x;
    else if (x < low) low = x;
  }
  extremes[0] = high;
  extremes[1] = low;
};

/** 32-bit float through a Float32Array view where the bytes are 4-aligned, else read one by one. */
const decodeFloat32: ChannelDecoder = (data, byte, step, count, into, at, extremes) => {
  let high = extremes[0]!;
  let low = extremes[1]!;
  const aligned = (data.byteOffset + byte) % 4 === 0;
  const view = aligned ? new Float32Array(data.buffer, data.byteOffset + byte, ((count - 1) * step) / 4 + 1) : null;
  const stride = step / 4;
  for (let i = 0; i < count; i++) {
    const x = view ? view[i * stride]! : data.readFloatLE(byte + i * step);
    into[at + i] = x;
    if (x > high) high = x;
    else if (x < low) low = x;
  }
  extremes[0] = high;
  extremes[1] = low;
};
