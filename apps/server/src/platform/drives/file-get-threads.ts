import { Worker } from 'node:worker_threads';
import { bootstrap } from '../threads/worker-task';
import type { FileGetInput, FileGetMessage, FileGetThreadMessage, FileGetThreadRequest } from './file-get-protocol';

const task = new URL('./file-get-thread.worker.ts', import.meta.url);
/** The thread's heap: a few buffers and the HTTP head; the file's bytes never enter it as objects. */
const WORKER_HEAP_MB = 32;
/** How long a stopped GET may take to confirm before its thread is ended. */
const STOP_GRACE_MS = 2000;

type FileGetEnd = Exclude<FileGetMessage, { type: 'progress' }>;

/**
 * One thread stays idle between copies (starting one takes 0.1–0.4 s on a busy machine); copies
 * that run at the same time each get their own, and those end after their GET.
 */
let idle: Worker | null = null;
let nextId = 1;

function spawn(): Worker {
  const worker = new Worker(bootstrap(task.href), {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  // A server shutting down does not wait for a copy (its job is tried again) or an idle thread.
  worker.unref();
  // An idle thread that fails is dropped; a running GET hears the failure through its own listeners.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    if (idle === worker) idle = null;
  });
  return worker;
}

function release(worker: Worker): void {
  if (idle === null) idle = worker;
  else void worker.terminate();
}

/** How many GETs this process has handed to file-get threads (for logs and tests). */
export const fileGetsRun = (): number => nextId - 1;

/**
 * Runs one GET on a file-get thread; resolves with its end once the thread will write no more to
 * the file (a stopped GET is confirmed by the thread, or its thread is ended). A stop rejects with
 * the signal's reason.
 */
export function runOnThread(
  input: FileGetInput,
  onProgress: (bytes: number) => void,
  signal?: AbortSignal,
): Promise<FileGetEnd> {
  const worker = idle ?? spawn();
  idle = null;
  const id = nextId++;
  return new Promise<FileGetEnd>((resolve, reject) => {
    let failed: Error | null = null;
    let stopTimer: NodeJS.Timeout | undefined;
    const stopped = (): Error => {
      const reason: unknown = signal?.reason;
      return reason instanceof Error ? reason : new Error('The copy was stopped');
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(stopTimer);
    };
    const onMessage = (message: FileGetThreadMessage) => {
      if (message.id !== id) return;
      if (message.type === 'progress') return onProgress(message.bytes);
      cleanup();
      release(worker);
      if (signal?.aborted) reject(stopped());
      else resolve(message);
    };
    const onError = (error: Error) => {
      failed = error;
      void worker.terminate();
    };
    const onExit = (code: number) => {
      cleanup();
      reject(signal?.aborted ? stopped() : (failed ?? new Error(`The copy's thread ended (exit ${code})`)));
    };
    const onAbort = () => {
      worker.postMessage({ type: 'stop', id } satisfies FileGetThreadRequest);
      stopTimer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ type: 'get', id, input } satisfies FileGetThreadRequest);
    if (signal?.aborted) onAbort();
  });
}
