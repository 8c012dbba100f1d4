import { Worker } from 'node:worker_threads';
import { bootstrap } from '../threads/worker-task';
import type { Loudness } from './ffmpeg';
import type { PcmFormat } from './loudness-meter';

/** Bytes posted to the meter and not yet metered, beyond which the feeder waits (backpressure). */
const IN_FLIGHT_LIMIT = 32 * 1024 * 1024;
const WORKER_HEAP_MB = 128;
const task = new URL('./loudness.worker.ts', import.meta.url);

type WorkerMessage =
  { type: 'ack'; bytes: number } | { type: 'result'; loudness: Loudness } | { type: 'error'; message: string };

/**
 * Loudness and true peak measured on a thread of their own, so the pass that makes the waveform
 * (and with it "ready for review") runs on one core while the meter, the heavier of the two, runs
 * on another. Either the worker reads a local PCM WAV's samples itself (two readers of the same
 * page-cached bytes, no decode), or the decode that makes the peaks posts its PCM here as it
 * streams; the feeder then waits while more than IN_FLIGHT_LIMIT bytes are unmetered.
 */
export class LoudnessTask {
  private readonly worker: Worker;
  private inFlight = 0;
  private drainWaiters: (() => void)[] = [];
  /** The measurements; rejects when the worker fails or is stopped. */
  readonly result: Promise<Loudness>;

  private constructor(format: PcmFormat, file?: { path: string; start: number; length: number }) {
    this.worker = new Worker(bootstrap(task.href), {
      eval: true,
      workerData: { format, ...(file ? { file } : {}) },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    // The job's process must not wait for a meter nobody reads any more.
    this.worker.unref();
    this.result = new Promise((resolve, reject) => {
      this.worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ack') {
          this.inFlight -= message.bytes;
          if (this.inFlight <= IN_FLIGHT_LIMIT / 2) this.releaseWaiters();
        } else if (message.type === 'result') {
          resolve(message.loudness);
          void this.worker.terminate();
        } else reject(new Error(message.message));
      });
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => {
        this.releaseWaiters();
        reject(new Error(`loudness worker ended (exit ${code}) without a result`));
      });
    });
    // A caller that stops reading early must not leave an unhandled rejection behind.
    this.result.catch(() => undefined);
  }

  /** The worker reads the sample bytes of a local PCM WAV itself. */
  static ofFile(format: PcmFormat, file: { path: string; start: number; length: number }): LoudnessTask {
    return new LoudnessTask(format, file);
  }

  /** The caller posts the PCM (`push`) as its decode streams, then `end`s. */
  static fed(format: PcmFormat): LoudnessTask {
    return new LoudnessTask(format);
  }

  /** Posts a copy of `chunk`; false once the meter is behind by more than the limit (see `drained`). */
  push(chunk: Buffer): boolean {
    this.inFlight += chunk.length;
    const copy = new Uint8Array(chunk);
    this.worker.postMessage({ type: 'chunk', data: copy }, [copy.buffer]);
    return this.inFlight <= IN_FLIGHT_LIMIT;
  }

  /** Resolves once the meter has caught up to half the limit (or has stopped). */
  drained(): Promise<void> {
    if (this.inFlight <= IN_FLIGHT_LIMIT / 2) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  end(): void {
    this.worker.postMessage({ type: 'end' });
  }

  /** Stops the meter (the job failed or the version is corrupt). */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  private releaseWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const wake of waiters) wake();
  }
}
