import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Which limit ended a task: its time, its memory, or the number of tasks already waiting. */
export class WorkerLimitError extends Error {
  constructor(readonly limit: 'time' | 'memory' | 'busy') {
    super(`worker task stopped by its ${limit} limit`);
  }
}

export interface WorkerLimits {
  /** The worker is terminated when its task runs longer. */
  timeoutMs: number;
  /** The worker's heap; past it V8 ends the worker, not this process. */
  maxHeapMb: number;
}

const tsxApi = createRequire(import.meta.url).resolve('tsx/esm/api');

/**
 * Mixroom runs its TypeScript through tsx, and a worker thread starts without the loader of the
 * thread that made it (tests run the server inside vitest, which has its own): the worker's first
 * line loads the task module through tsx's scoped import.
 */
export const bootstrap = (moduleUrl: string) =>
  `require(${JSON.stringify(tsxApi)}).tsImport(${JSON.stringify(moduleUrl)}, ${JSON.stringify(moduleUrl)});`;

/**
 * Runs one task module in a worker thread: the module reads `workerData` and posts one message, its
 * result. CPU-heavy work on untrusted input (a PDF of a user's notes) runs there so the event loop
 * that answers every other request never waits on it, and its time and memory are bounded.
 */
export function runWorkerTask<T>(moduleUrl: URL, input: unknown, limits: WorkerLimits): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(bootstrap(moduleUrl.href), {
      eval: true,
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
    });
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      finish();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new WorkerLimitError('time'))), limits.timeoutMs);
    worker.once('message', (result: T) => settle(() => resolve(result)));
    worker.on('error', (error: Error & { code?: string }) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new WorkerLimitError('memory') : error)),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`worker task ended (exit ${code}) without a result`))));
  });
}

/**
 * At most `running` tasks at once and `waiting` queued behind them; a task beyond both is refused
 * at once (WorkerLimitError 'busy'): a burst of heavy requests queues a little, then gets a clear no.
 */
export class WorkerGate {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limits: { running: number; waiting: number }) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limits.running) {
      if (this.queue.length >= this.limits.waiting) throw new WorkerLimitError('busy');
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so `active` never undercounts.
      if (next) next();
      else this.active -= 1;
    }
  }
}
