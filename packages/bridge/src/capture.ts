import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { captureArgs, type Platform, type Source } from './ffmpeg.ts';
import { BYTES_PER_SAMPLE, CHANNELS, FRAME_HEADER_BYTES, type SampleFormat, writeFrameHeader } from './protocol.ts';

export interface CaptureOptions {
  ffmpeg: string;
  source: Source;
  sampleRate: number;
  format: SampleFormat;
  frameSamples: number;
  /** A whole frame, header included; the buffer is not reused, so it may be kept or sent as is. */
  onFrame: (frame: Buffer) => void;
  /** A file played without --loop came to its end. */
  onEnd?: () => void;
  log: (line: string) => void;
  /** First wait before restarting ffmpeg after it died; doubles on each death in a row. */
  restartDelayMs?: number;
  platform?: Platform;
}

const MAX_RESTART_DELAY_MS = 10_000;
/** A run at least this long counts as healthy: the next death restarts after the first delay again. */
const HEALTHY_RUN_MS = 10_000;
/** ffmpeg ends on SIGTERM within milliseconds; one wedged on a device gets SIGKILL after this. */
const KILL_AFTER_MS = 2_000;

type Child = ChildProcessByStdio<null, Readable, Readable>;

/** Cuts ffmpeg's byte stream into frames with room for the header in front. */
class Framer {
  private frame: Buffer;
  private filled = 0;
  private readonly payloadBytes: number;
  private readonly sampleBytes: number;
  private readonly emit: (frame: Buffer, samples: number) => void;

  constructor(payloadBytes: number, sampleBytes: number, emit: (frame: Buffer, samples: number) => void) {
    this.payloadBytes = payloadBytes;
    this.sampleBytes = sampleBytes;
    this.emit = emit;
    this.frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payloadBytes);
  }

  push(chunk: Buffer): void {
    for (let offset = 0; offset < chunk.length;) {
      const n = Math.min(this.payloadBytes - this.filled, chunk.length - offset);
      chunk.copy(this.frame, FRAME_HEADER_BYTES + this.filled, offset, offset + n);
      this.filled += n;
      offset += n;
      if (this.filled === this.payloadBytes) this.send(this.payloadBytes);
    }
  }

  /** The last, shorter frame of a stream: its header says how many samples it holds. */
  flush(): void {
    const whole = this.filled - (this.filled % this.sampleBytes);
    if (whole > 0) this.send(whole);
    this.filled = 0;
  }

  private send(bytes: number): void {
    const frame = bytes === this.payloadBytes ? this.frame : this.frame.subarray(0, FRAME_HEADER_BYTES + bytes);
    this.frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + this.payloadBytes);
    this.filled = 0;
    this.emit(frame, bytes / this.sampleBytes);
  }
}

/**
 * One ffmpeg child turning the source into PCM frames, restarted when it dies until stop().
 * Sequence numbers count frames of audio: after an outage they jump by the frames it lasted, so
 * the page sees a gap where audio was lost instead of a seamless-looking splice.
 */
export class Capture {
  private child: Child | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stopped = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private sequence = 0;
  private lastFrameAt: number | null = null;
  private outage = false;
  private readonly frameMs: number;
  private readonly options: CaptureOptions;

  constructor(options: CaptureOptions) {
    this.options = options;
    this.frameMs = (options.frameSamples * 1000) / options.sampleRate;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null;
  }

  start(): void {
    const { ffmpeg, source, sampleRate, format, frameSamples, platform, log } = this.options;
    const args = captureArgs(source, sampleRate, format, platform);
    const startedAt = Date.now();
    const child = spawn(ffmpeg, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      // Its own process group: Ctrl-C in the terminal reaches only the bridge, which then stops
      // ffmpeg itself instead of seeing it die and restarting it. Should the bridge itself be
      // killed, ffmpeg still ends at its next write to the closed pipe.
      detached: process.platform !== 'win32',
    });
    this.child = child;
    const sampleBytes = CHANNELS * BYTES_PER_SAMPLE[format];
    const framer = new Framer(frameSamples * sampleBytes, sampleBytes, (frame, samples) =>
      this.deliver(frame, samples),
    );
    child.stdout.on('data', (chunk: Buffer) => framer.push(chunk));
    child.stdout.on('end', () => framer.flush());
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr += text;
      const lines = stderr.split('\n');
      stderr = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) log(`ffmpeg: ${line.trim()}`);
    });
    log(`capture started (ffmpeg pid ${child.pid ?? '?'}, ${sampleRate} Hz, ${format})`);
    this.exited = new Promise((resolve) => {
      let done = false;
      const finish = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
        if (done) return;
        done = true;
        if (this.child === child) this.child = null;
        resolve();
        this.onExit(code, signal, Date.now() - startedAt, error);
      };
      // 'close' waits for stdout to drain, so the last frame is out before a restart or the end.
      child.on('close', (code, signal) => finish(code, signal));
      child.on('error', (error) => finish(null, null, error));
    });
  }

  /** Ends the child (and any pending restart); resolves once the process is gone. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    await this.exited;
    clearTimeout(force);
  }

  private deliver(frame: Buffer, samples: number): void {
    const now = Date.now();
    if (this.outage && this.lastFrameAt !== null) {
      this.sequence += Math.max(0, Math.round((now - this.lastFrameAt) / this.frameMs) - 1);
    }
    this.outage = false;
    this.lastFrameAt = now;
    writeFrameHeader(frame, this.sequence, samples, this.options.format);
    this.sequence = (this.sequence + 1) >>> 0;
    this.options.onFrame(frame);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null, ranMs: number, error?: Error): void {
    const { log, source } = this.options;
    if (this.stopped) {
      log('capture stopped');
      return;
    }
    if (!error && code === 0 && source.kind === 'file' && !source.loop) {
      log('the file has played to its end');
      this.options.onEnd?.();
      return;
    }
    this.failures = ranMs >= HEALTHY_RUN_MS ? 1 : this.failures + 1;
    const delay = Math.min((this.options.restartDelayMs ?? 500) * 2 ** (this.failures - 1), MAX_RESTART_DELAY_MS);
    const why = error ? error.message : signal ? `signal ${signal}` : `exit code ${code}`;
    log(`ffmpeg ended (${why}); restarting in ${(delay / 1000).toFixed(1)} s`);
    this.outage = true;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopped) this.start();
    }, delay);
  }
}
