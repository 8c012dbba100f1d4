import { open } from 'node:fs/promises';
import { BinWriter, framesPerPeak, PeakBins } from './peaks';

/** Where the samples of a PCM WAV are and how they are stored. */
export interface WavLayout {
  dataStart: number;
  dataLength: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  float: boolean;
}

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;

/**
 * Reads the chunk list at the start of a RIFF (or RF64) WAVE file. Returns null for anything this
 * fast path does not handle (compressed WAV, odd sample sizes): ffmpeg decodes those.
 */
export function readWavLayout(head: Buffer, fileSize: number): WavLayout | null {
  if (head.length < 12 || head.toString('ascii', 8, 12) !== 'WAVE') return null;
  const riff = head.toString('ascii', 0, 4);
  if (riff !== 'RIFF' && riff !== 'RF64') return null;
  let offset = 12;
  let format: Omit<WavLayout, 'dataStart' | 'dataLength'> | null = null;
  let rf64DataSize: number | null = null;
  while (offset + 8 <= head.length) {
    const id = head.toString('ascii', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'ds64' && body + 16 <= head.length) rf64DataSize = Number(head.readBigUInt64LE(body + 8));
    if (id === 'fmt ' && body + 16 <= head.length) {
      let tag = head.readUInt16LE(body);
      if (tag === EXTENSIBLE && body + 26 <= head.length) tag = head.readUInt16LE(body + 24);
      const bits = head.readUInt16LE(body + 14);
      const float = tag === IEEE_FLOAT;
      if (!(tag === PCM && [16, 24, 32].includes(bits)) && !(float && bits === 32)) return null;
      format = {
        channels: head.readUInt16LE(body + 2),
        sampleRate: head.readUInt32LE(body + 4),
        bitsPerSample: bits,
        float,
      };
    }
    if (id === 'data') {
      if (!format || format.channels < 1) return null;
      const declared = size === 0xffffffff && rf64DataSize !== null ? rf64DataSize : size;
      // Recorders that crashed leave a wrong size: the file's end bounds it.
      const dataLength = Math.min(declared || Infinity, fileSize - body);
      const frameBytes = (format.bitsPerSample / 8) * format.channels;
      return { ...format, dataStart: body, dataLength: dataLength - (dataLength % frameBytes) };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/**
 * The waveform peaks of a PCM WAV straight from its bytes: no decoder, one pass at disk speed.
 * Integer samples are compared on their top 16 bits (peaks are stored as 0–255 anyway). Chunks
 * may split a sample: the split one is joined by hand, never by copying whole chunks.
 */
export async function scanWavPeaks(
  samples: AsyncIterable<Buffer>,
  layout: WavLayout,
  onProgress?: (fraction: number) => void,
): Promise<PeakBins> {
  const size = layout.bitsPerSample / 8;
  const perBin = framesPerPeak(layout.sampleRate) * layout.channels;
  const bins = new BinWriter();
  // Integers: the top two bytes as a signed 16-bit value, scaled from 32768. Floats: |x| from 1.
  const scale = layout.float ? 255 : 255 / 32768;
  const emit = (peak: number) => bins.push(Math.min(255, Math.round(peak * scale)));
  const scan = layout.float ? scanFloats : scanInts;
  let state: ScanState = { current: 0, count: 0 };
  let seen = 0;
  let reported = 0;
  let carry = Buffer.alloc(0);

  for await (const chunk of samples) {
    let start = 0;
    if (carry.length) {
      // The sample split across two chunks, joined on its own.
      start = size - carry.length;
      state = scan(Buffer.concat([carry, chunk.subarray(0, start)]), 0, size, size, perBin, state, emit);
    }
    const end = start + Math.floor((chunk.length - start) / size) * size;
    state = scan(chunk, start, end, size, perBin, state, emit);
    carry = Buffer.from(chunk.subarray(end));
    seen += chunk.length;
    if (onProgress && seen - reported > layout.dataLength / 50) {
      reported = seen;
      onProgress(Math.min(1, seen / layout.dataLength));
    }
  }
  if (state.count > 0) emit(state.current);
  const frames = Math.floor(seen / size / layout.channels);
  return new PeakBins(bins.result(), layout.sampleRate, frames);
}

interface ScanState {
  current: number;
  count: number;
}

/**
 * The hot loop for integer PCM: whole bins run without a per-sample counter, and the state stays
 * in locals so V8 keeps it in registers.
 */
function scanInts(
  chunk: Buffer,
  start: number,
  end: number,
  size: number,
  perBin: number,
  state: ScanState,
  emit: (peak: number) => void,
): ScanState {
  let { current, count } = state;
  // `i` walks the high byte of each sample; samples start before `end`.
  let i = start + size - 1;
  const last = end + size - 1;
  while (i < last) {
    const take = Math.min(perBin - count, (last - i) / size);
    const stop = i + take * size;
    for (; i < stop; i += size) {
      // The top two bytes as a signed 16-bit value; for a negative one, x ^ (x >> 31) is −x − 1, the
      // magnitude two's complement gives it, without a branch on the sign (a third of the time).
      const signed = ((chunk[i]! << 24) >> 16) | chunk[i - 1]!;
      const v = signed ^ (signed >> 31);
      if (v > current) current = v;
    }
    count += take;
    if (count === perBin) {
      emit(current);
      current = 0;
      count = 0;
    }
  }
  return { current, count };
}

/** The same for 32-bit float PCM, through a Float32Array (copied when the bytes are unaligned). */
function scanFloats(
  chunk: Buffer,
  start: number,
  end: number,
  _size: number,
  perBin: number,
  state: ScanState,
  emit: (peak: number) => void,
): ScanState {
  let { current, count } = state;
  const bytes =
    (chunk.byteOffset + start) % 4 === 0 ? chunk.subarray(start, end) : Buffer.from(chunk.subarray(start, end));
  const view = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  for (let i = 0; i < view.length; i++) {
    const v = view[i]!;
    const a = v < 0 ? -v : v;
    if (a > current) current = a;
    if (++count === perBin) {
      emit(current);
      current = 0;
      count = 0;
    }
  }
  return { current, count };
}

/**
 * Reads a byte range of a local file in large chunks (a multiple of `unit`), for the scans above.
 * Two buffers take turns, so an hour's file costs no fresh memory per chunk (allocating and
 * faulting in a new 4 MB buffer per read cost more than the read itself): a chunk stays valid only
 * until the loop asks for the next one, and a caller that keeps bytes must copy them.
 */
export async function* readFileRange(
  path: string,
  start: number,
  length: number,
  unit: number,
): AsyncGenerator<Buffer> {
  const handle = await open(path, 'r');
  try {
    const chunkSize = Math.max(unit, Math.floor((4 * 1024 * 1024) / unit) * unit);
    const buffers = [Buffer.allocUnsafe(chunkSize), Buffer.allocUnsafe(chunkSize)];
    let turn = 0;
    let position = start;
    const end = start + length;
    // The next read runs (on libuv's pool) while the caller scans the current chunk.
    const read = (at: number) => {
      const buffer = buffers[turn++ % 2]!;
      return handle
        .read(buffer, 0, Math.min(chunkSize, end - at), at)
        .then(({ bytesRead }) => buffer.subarray(0, bytesRead));
    };
    let pending = position < end ? read(position) : null;
    while (pending) {
      const chunk = await pending;
      if (chunk.length === 0) break;
      position += chunk.length;
      pending = position < end ? read(position) : null;
      yield chunk;
    }
  } finally {
    await handle.close();
  }
}
