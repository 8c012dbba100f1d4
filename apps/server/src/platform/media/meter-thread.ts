import { Worker } from 'node:worker_threads';
import { bootstrap } from '../threads/worker-task';
import type { MeteredSegments } from './loudness-gating';
import type { PcmFormat } from './loudness-meter';
import type { WavRange } from './loudness-parts';

/** Bytes posted to the meter and not yet metered, beyond which the feeder waits (backpressure). */
const IN_FLIGHT_LIMIT = 32 * 1024 * 1024;
const WORKER_HEAP_MB = 128;
const task = new URL('./loudness.worker.ts', import.meta.url);

type WorkerMessage =
  { type: 'ack'; bytes: number } | { type: 'done'; segments: MeteredSegments } | { type: 'error'; message: string };

/**
 * One loudness meter on a worker thread (loudness.worker.ts): it reads a byte range of a file
 * itself, or is fed chunks and holds the feeder back while more than IN_FLIGHT_LIMIT bytes are
 * unmetered.
 */
export class MeterThread {
  private readonly worker: Worker;
  private inFlight = 0;
  private drainWaiters: (() => void)[] = [];
  readonly result: Promise<MeteredSegments>;

  constructor(format: PcmFormat, file?: WavRange) {
    this.worker = new Worker(bootstrap(task.href), {
      eval: true,
      workerData: {
        format,
        ...(file ? { file: file.bytes, keep: file.keep } : {}),
      },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    // The job's process must not wait for a meter nobody reads any more.
    this.worker.unref();
    this.result = new Promise((resolve, reject) => {
      this.worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ack') {
          this.inFlight -= message.bytes;
          if (this.inFlight <= IN_FLIGHT_LIMIT / 2) this.releaseWaiters();
        } else if (message.type === 'done') {
          resolve(message.segments);
          void this.worker.terminate();
        } else reject(new Error(message.message));
      });
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => {
        this.releaseWaiters();
        reject(new Error(`loudness worker ended (exit ${code}) without a result`));
      });
    });
    this.result.catch(() => undefined);
  }

  push(chunk: Buffer): boolean {
    this.inFlight += chunk.length;
    const copy = new Uint8Array(chunk);
    this.worker.postMessage({ type: 'chunk', data: copy }, [copy.buffer]);
    return this.inFlight <= IN_FLIGHT_LIMIT;
  }

  drained(): Promise<void> {
    if (this.inFlight <= IN_FLIGHT_LIMIT / 2) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  end(): void {
    this.worker.postMessage({ type: 'end' });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  private releaseWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const wake of waiters) wake();
  }
}
