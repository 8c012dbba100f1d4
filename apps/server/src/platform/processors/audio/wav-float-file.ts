/**
 * 32-bit float WAV files read and written a block of frames at a time, so a processor's memory
 * stays the size of its chunk whatever the length of the file (an hour of 44.1 kHz stereo float is
 * 1.27 GB). Samples come and go de-interleaved: one Float32Array per channel.
 *
 * The reader accepts what ffmpeg writes for `-c:a pcm_f32le` (format 3, or the extensible format
 * with the float sub-format; extra chunks such as LIST and fact are skipped; RF64 is read for files
 * past 4 GB) and a data size left unfinished by a writer that could not seek back (0 or
 * 0xFFFFFFFF): the data then runs to the end of the file. The writer appends and writes the sizes
 * into the header when it is closed.
 */
import { type FileHandle, open } from 'node:fs/promises';
import { endianness } from 'node:os';

export interface WavFloatFormat {
  sampleRate: number;
  channels: number;
}

const LITTLE_ENDIAN = endianness() === 'LE';
const FLOAT_FORMAT = 3;
const EXTENSIBLE_FORMAT = 0xfffe;
/** Bytes of the header {@link WavFloatWriter} writes: RIFF, fmt (18), fact, data. */
const WRITTEN_HEADER_BYTES = 58;
/** How much of the file's start is read to find the data chunk; headers are far smaller. */
const HEADER_SCAN_BYTES = 1 << 16;

export class WavFloatReader implements WavFloatFormat {
  private buffer = new Uint8Array(0);

  private constructor(
    private readonly handle: FileHandle,
    readonly sampleRate: number,
    readonly channels: number,
    /** Frames (samples per channel) in the file. */
    readonly frames: number,
    /** Where the samples start in the file (interleaved little-endian floats from there on). */
    readonly dataOffset: number,
  ) {}

  /** Opens a float WAV file and reads its header; throws on anything else. */
  static async open(path: string): Promise<WavFloatReader> {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const head = new Uint8Array(Math.min(size, HEADER_SCAN_BYTES));
      await handle.read(head, 0, head.length, 0);
      const view = new DataView(head.buffer);
      const tag = (at: number) => String.fromCharCode(...head.subarray(at, at + 4));
      if (head.length < 12 || (tag(0) !== 'RIFF' && tag(0) !== 'RF64') || tag(8) !== 'WAVE') {
        throw new Error(`${path} is not a WAV file`);
      }
      let format: WavFloatFormat | undefined;
      let bigDataSize: number | undefined;
      for (let at = 12; at + 8 <= head.length;) {
        const id = tag(at);
        const chunkSize = view.getUint32(at + 4, true);
        if (id === 'ds64' && at + 24 <= head.length) {
          bigDataSize = Number(view.getBigUint64(at + 16, true));
        } else if (id === 'fmt ' && at + 24 <= head.length) {
          let code = view.getUint16(at + 8, true);
          if (code === EXTENSIBLE_FORMAT && at + 34 <= head.length) code = view.getUint16(at + 32, true);
          const bits = view.getUint16(at + 22, true);
          if (code !== FLOAT_FORMAT || bits !== 32) {
            throw new Error(`${path} is not 32-bit float (format ${code}, ${bits} bits)`);
          }
          format = { channels: view.getUint16(at + 10, true), sampleRate: view.getUint32(at + 12, true) };
        } else if (id === 'data') {
          if (!format || format.channels === 0) throw new Error(`${path} has no usable fmt chunk before its data`);
          const dataOffset = at + 8;
          const declared = chunkSize === 0xffffffff && bigDataSize !== undefined ? bigDataSize : chunkSize;
          const available = size - dataOffset;
          const dataBytes = declared === 0 || declared === 0xffffffff || declared > available ? available : declared;
          const frames = Math.floor(dataBytes / (4 * format.channels));
          return new WavFloatReader(handle, format.sampleRate, format.channels, frames, dataOffset);
        }
        at += 8 + chunkSize + (chunkSize % 2);
      }
      throw new Error(`${path} has no data chunk in its first ${HEADER_SCAN_BYTES} bytes`);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Reads up to `count` frames starting at frame `offset`: one array per channel, shorter than
   * `count` (possibly empty) when the file ends first.
   */
  async read(offset: number, count: number): Promise<Float32Array[]> {
    const first = Math.max(0, Math.min(offset, this.frames));
    const frames = Math.max(0, Math.min(count, this.frames - first));
    const { channels } = this;
    const bytes = frames * channels * 4;
    if (this.buffer.length < bytes) this.buffer = new Uint8Array(bytes);
    for (let done = 0; done < bytes;) {
      const { bytesRead } = await this.handle.read(
        this.buffer,
        done,
        bytes - done,
        this.dataOffset + first * channels * 4 + done,
      );
      if (bytesRead === 0) throw new Error('WAV file ended before its declared data');
      done += bytesRead;
    }
    const out = Array.from({ length: channels }, () => new Float32Array(frames));
    if (LITTLE_ENDIAN) {
      const samples = new Float32Array(this.buffer.buffer, 0, frames * channels);
      for (let c = 0; c < channels; c++) {
        const channel = out[c]!;
        for (let i = 0; i < frames; i++) channel[i] = samples[i * channels + c]!;
      }
    } else {
      const view = new DataView(this.buffer.buffer);
      for (let c = 0; c < channels; c++) {
        const channel = out[c]!;
        for (let i = 0; i < frames; i++) channel[i] = view.getFloat32((i * channels + c) * 4, true);
      }
    }
    return out;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

export class WavFloatWriter implements WavFloatFormat {
  /** Frames written so far. */
  frames = 0;
  private buffer = new Uint8Array(0);
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    readonly sampleRate: number,
    readonly channels: number,
    /** The file written. */
    readonly path: string,
  ) {}

  /** Creates (or truncates) `path` and writes a provisional header. */
  static async create(path: string, format: WavFloatFormat): Promise<WavFloatWriter> {
    if (!Number.isInteger(format.channels) || format.channels < 1)
      throw new RangeError('a WAV file needs at least one channel');
    const handle = await open(path, 'w');
    const writer = new WavFloatWriter(handle, format.sampleRate, format.channels, path);
    try {
      await writer.writeHeader();
    } catch (error) {
      await handle.close();
      throw error;
    }
    return writer;
  }

  /** Appends frames: one array per channel, all of the same length. */
  async write(channels: readonly Float32Array[]): Promise<void> {
    if (this.closed) throw new Error('WAV writer already closed');
    if (channels.length !== this.channels)
      throw new RangeError(`expected ${this.channels} channels, got ${channels.length}`);
    const frames = channels[0]!.length;
    if (channels.some((channel) => channel.length !== frames)) throw new RangeError('channels of different lengths');
    const count = this.channels;
    const bytes = frames * count * 4;
    if (WRITTEN_HEADER_BYTES + (this.frames + frames) * count * 4 > 0xffffffff - 8) {
      throw new RangeError('a WAV file cannot hold more than 4 GB');
    }
    if (this.buffer.length < bytes) this.buffer = new Uint8Array(bytes);
    const view = new DataView(this.buffer.buffer);
    const samples = new Float32Array(this.buffer.buffer, 0, frames * count);
    for (let c = 0; c < count; c++) {
      const channel = channels[c]!;
      if (LITTLE_ENDIAN) for (let i = 0; i < frames; i++) samples[i * count + c] = channel[i]!;
      else for (let i = 0; i < frames; i++) view.setFloat32((i * count + c) * 4, channel[i]!, true);
    }
    const position = WRITTEN_HEADER_BYTES + this.frames * count * 4;
    for (let done = 0; done < bytes;) {
      const { bytesWritten } = await this.handle.write(this.buffer, done, bytes - done, position + done);
      done += bytesWritten;
    }
    this.frames += frames;
  }

  /** Writes the final sizes into the header and closes the file. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.writeHeader();
    } finally {
      await this.handle.close();
    }
  }

  private async writeHeader(): Promise<void> {
    const dataBytes = this.frames * this.channels * 4;
    const header = new Uint8Array(WRITTEN_HEADER_BYTES);
    const view = new DataView(header.buffer);
    const text = (at: number, value: string) => {
      for (let i = 0; i < 4; i++) header[at + i] = value.charCodeAt(i);
    };
    text(0, 'RIFF');
    view.setUint32(4, WRITTEN_HEADER_BYTES - 8 + dataBytes, true);
    text(8, 'WAVE');
    text(12, 'fmt ');
    view.setUint32(16, 18, true);
    view.setUint16(20, FLOAT_FORMAT, true);
    view.setUint16(22, this.channels, true);
    view.setUint32(24, this.sampleRate, true);
    view.setUint32(28, this.sampleRate * this.channels * 4, true);
    view.setUint16(32, this.channels * 4, true);
    view.setUint16(34, 32, true);
    view.setUint16(36, 0, true);
    // A non-PCM format carries a fact chunk with its frame count.
    text(38, 'fact');
    view.setUint32(42, 4, true);
    view.setUint32(46, this.frames, true);
    text(50, 'data');
    view.setUint32(54, dataBytes, true);
    await this.handle.write(header, 0, header.length, 0);
  }
}
