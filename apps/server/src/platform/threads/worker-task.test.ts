import { describe, expect, it } from 'vitest';
import { runWorkerTask, WorkerGate, WorkerLimitError } from './worker-task';

const fixture = new URL('./worker-task.fixture.ts', import.meta.url);
const limits = { timeoutMs: 5_000, maxHeapMb: 32 };

describe('a worker task', { timeout: 30_000 }, () => {
  it('answers with what the task posts', async () => {
    expect(await runWorkerTask(fixture, { mode: 'echo' }, limits)).toBe('echo');
  });

  it('is terminated at its time limit, while this thread keeps running', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const spin = runWorkerTask(fixture, { mode: 'spin' }, { ...limits, timeoutMs: 1_500 });
    await expect(spin).rejects.toMatchObject({ limit: 'time' });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(10);
  });

  it('is ended at its memory limit without taking this process with it', async () => {
    const hog = runWorkerTask(fixture, { mode: 'hog' }, { ...limits, timeoutMs: 20_000 });
    await expect(hog).rejects.toBeInstanceOf(WorkerLimitError);
    await expect(hog).rejects.toMatchObject({ limit: 'memory' });
  });
});

describe('the worker gate', () => {
  it('runs a few at once, queues a few more, and refuses the rest', async () => {
    const gate = new WorkerGate({ running: 1, waiting: 1 });
    let release = () => {};
    const first = gate.run(() => new Promise<string>((resolve) => (release = () => resolve('first'))));
    const second = gate.run(async () => 'second');
    await expect(gate.run(async () => 'third')).rejects.toMatchObject({ limit: 'busy' });
    release();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(await gate.run(async () => 'fourth')).toBe('fourth');
  });
});
