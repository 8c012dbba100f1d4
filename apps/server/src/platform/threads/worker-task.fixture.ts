import { parentPort, workerData } from 'node:worker_threads';

// A task for worker-task.test.ts: answers, runs forever, or grows its heap without end.
const { mode } = workerData as { mode: 'echo' | 'spin' | 'hog' };
if (mode === 'echo') parentPort?.postMessage('echo');
if (mode === 'spin') for (;;);
if (mode === 'hog') {
  const kept: number[][] = [];
  for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => i));
}
