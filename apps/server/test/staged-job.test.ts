import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DomainEventInput } from '@mixroom/contracts';
import { openDatabase, type Database } from '../src/db/database';
import { queryRows } from '../src/db/sql';
import { systemClock, TestClock } from '../src/platform/clock/clock';
import { JobQueue } from '../src/platform/jobs/job-queue';
import { Outbox } from '../src/platform/jobs/outbox';
import {
  defineStage,
  nextStage,
  stageJob,
  stageJobId,
  stageState,
  type StageRunnerDeps,
} from '../src/platform/jobs/staged-job';
import type { EventBus } from '../src/platform/realtime/event-bus';
import { seedEmbeddedDatabase } from './helpers/embedded-database-template';
import { createTestDatabase } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/**
 * The staged-job helper on a real pg-boss (PGlite, or PostgreSQL with TEST_DATABASE_URL): ids from what a stage processes, the result
 * and the next stage committed together, a dead worker's stage retried through pg-boss's own
 * heartbeat, the final-failure hook once, throttled progress.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-stages-'));
const log = pino({ level: 'silent' });
const published: DomainEventInput[] = [];
const bus = {
  publish: async (event: DomainEventInput) => void published.push(event),
  publishOrLog: async (event: DomainEventInput) => void published.push(event),
  subscribe: () => () => undefined,
  onResumed: () => () => undefined,
  close: async () => undefined,
} as EventBus;
let database: Database;
let dropDatabase: (() => Promise<void>) | null = null;
let jobs: JobQueue;
let outbox: Outbox;
let deps: StageRunnerDeps;
const clock = new TestClock(new Date('2026-03-01T00:00:00Z'));

/** What ran, per stage and thing: attempts of `run`, and results recorded by `complete`. */
const runs: string[] = [];
const thing = z.object({ id: z.string() });
/** Hooks the tests set per thing id. */
const behaviour = new Map<string, { hang?: number; failAfterCommitOnce?: boolean; failAlways?: boolean }>();
const finalFailures: (string | null)[] = [];
const crashes = new Set<string>();

const second = defineStage({
  name: 'test.stage-second',
  schema: z.object({ id: z.string(), doubled: z.number() }),
  idOf: ({ id }) => id,
  heartbeatSeconds: 10,
  run: async ({ id, doubled }) => void runs.push(`second:${id}:${doubled}`),
});

const first = defineStage({
  name: 'test.stage-first',
  schema: thing,
  idOf: ({ id }) => id,
  topicOf: ({ id }) => `user:${id}`,
  heartbeatSeconds: 10,
  retryLimit: 1,
  concurrency: 2,
  run: async ({ id }, context) => {
    runs.push(`first:${id}:${context.attempt}`);
    const how = behaviour.get(id) ?? {};
    if (how.hang === context.attempt)
      // A worker that stops beating: its attempt never ends on its own.
      await new Promise((_resolve, reject) =>
        context.signal.addEventListener('abort', () => reject(new Error('gone'))),
      );
    if (how.failAlways) throw new Error('cannot');
    await context.progress(0.1);
    await context.progress(0.2); // within the interval: dropped
    clock.advance(600);
    await context.progress(0.3);
    await context.progress(1);
    return 21;
  },
  complete: async (tx, { id }, result) => {
    await tx.execute(sql`insert into stage_results (id, result) values (${id}, ${result})
                         on conflict (id) do update set result = excluded.result, times = stage_results.times + 1`);
    return nextStage(second, { id, doubled: result * 2 });
  },
  onFinalFailure: async (payload) => void finalFailures.push(payload?.id ?? null),
});

beforeAll(async () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const made = adminUrl ? await createTestDatabase(adminUrl) : null;
  dropDatabase = made?.drop ?? null;
  if (!made) await seedEmbeddedDatabase(dataDir);
  database = await openDatabase({ url: made?.url ?? null, dataDir, poolSize: made ? 4 : 1 });
  await database.db.execute(
    sql`create table stage_results (id text primary key, result int not null, times int not null default 1)`,
  );
  jobs = new JobQueue(database, bus, log);
  outbox = new Outbox(database.db, jobs, bus, log);
  deps = {
    unitOfWork: (work) => database.db.transaction(work),
    outbox,
    clock,
    faults: {
      // An in-process stand-in for a kill -9 right after the completion committed: the attempt ends there.
      crashIf: (point) => {
        if (crashes.has(point)) {
          crashes.delete(point);
          throw new Error(`crash at ${point}`);
        }
      },
    },
  };
  await jobs.start([stageJob(first, deps), stageJob(second, { ...deps, clock: systemClock })], { work: () => true });
}, 120_000);

afterAll(async () => {
  await outbox.stop();
  await jobs.stop();
  await database.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

const results = async (id: string) =>
  (
    await queryRows<{ result: number; times: number }>(
      database.db,
      sql`select result, times from stage_results where id = ${id}`,
    )
  )[0];
const secondRan = (id: string) => runs.filter((r) => r.startsWith(`second:${id}:`));

describe('staged jobs', () => {
  it('derives the job id from what it processes: a second send, direct or through the outbox, is a no-op', async () => {
    const id = 'once';
    const jobId = await jobs.send(first, { id });
    expect(jobId).toBe(stageJobId(first.name, id));
    expect(await jobs.send(first, { id })).toBe(jobId);
    await database.db.transaction((tx) => outbox.job(tx, first, { id }));
    await outbox.flush();
    await waitFor(() => secondRan(id).length === 1, { what: 'the next stage' });
    expect(runs.filter((r) => r.startsWith(`first:${id}:`))).toEqual([`first:${id}:1`]);
    // The result reached the next stage, queued with the completion.
    expect(secondRan(id)).toEqual([`second:${id}:42`]);
    expect(await results(id)).toEqual({ result: 21, times: 1 });
    expect(await stageState(jobs, first, { id })).toBe('completed');
    // Progress is throttled on the clock: 10 %, then 30 % once 600 ms passed, and the end.
    const progress = published
      .filter((e) => e.type === 'job.progress' && e.topic === `user:${id}`)
      .map((e) => (e.data as { percent: number }).percent);
    expect(progress).toEqual([10, 30, 100]);
  });

  it('a crash after the completion committed reruns the stage but queues the next stage once', async () => {
    const id = 'crash-after-commit';
    crashes.add(`stage.${first.name}.after-complete`);
    await jobs.send(first, { id });
    await waitFor(async () => (await stageState(jobs, first, { id })) === 'completed', { what: 'the retry' });
    await waitFor(() => secondRan(id).length === 1, { what: 'the next stage' });
    expect(runs.filter((r) => r.startsWith(`first:${id}:`))).toEqual([`first:${id}:1`, `first:${id}:2`]);
    expect((await results(id))?.times).toBe(2);
    await outbox.flush();
    expect(secondRan(id)).toHaveLength(1);
  });

  it('retries a stage whose worker stopped beating, through pg-boss’s heartbeat', async () => {
    const id = 'dead-worker';
    behaviour.set(id, { hang: 1 });
    const jobId = await jobs.send(first, { id });
    await waitFor(() => runs.includes(`first:${id}:1`), { what: 'the first attempt' });
    expect(await stageState(jobs, first, { id })).toBe('running');
    // Alive: supervision leaves a job alone while its heartbeat is fresh.
    await jobs.supervise(first.name);
    expect(await stageState(jobs, first, { id })).toBe('running');
    // As if its worker had died (kill -9) a heartbeat ago: the last beat is older than heartbeatSeconds.
    await database.db.execute(
      sql`update pgboss.job set heartbeat_on = heartbeat_on - interval '1 minute' where id = ${jobId}`,
    );
    await jobs.supervise(first.name);
    await waitFor(() => secondRan(id).length === 1, { what: 'the retried stage and its next stage' });
    expect(runs.filter((r) => r.startsWith(`first:${id}:`))).toEqual([`first:${id}:1`, `first:${id}:2`]);
    expect(finalFailures).not.toContain(id);
  });

  it('runs the final-failure hook once, after the last attempt, and queues no next stage', async () => {
    const id = 'hopeless';
    behaviour.set(id, { failAlways: true });
    await jobs.send(first, { id });
    await waitFor(() => finalFailures.includes(id), { what: 'the final failure' });
    expect(runs.filter((r) => r.startsWith(`first:${id}:`))).toEqual([`first:${id}:1`, `first:${id}:2`]);
    expect(finalFailures.filter((f) => f === id)).toHaveLength(1);
    // The hook runs before pg-boss records the failure.
    await waitFor(async () => (await stageState(jobs, first, { id })) === 'failed', { what: 'the failed state' });
    expect(await results(id)).toBeUndefined();
    expect(secondRan(id)).toEqual([]);
    // Sent again on purpose (`again`), a failed stage of the same thing runs anew.
    behaviour.delete(id);
    await jobs.send(first, { id }, { again: true });
    await waitFor(() => secondRan(id).length === 1, { what: 'the stage sent again' });
  });

  it('refuses a heartbeat pg-boss cannot keep', () => {
    expect(() =>
      defineStage({ name: 'x', schema: thing, idOf: ({ id }) => id, heartbeatSeconds: 5, run: async () => 1 }),
    ).toThrow(/at least 10/);
  });
});
