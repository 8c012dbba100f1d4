import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Tx, UnitOfWork } from '../../db/database';
import type { Clock } from '../clock/clock';
import type { FaultPoints } from '../faults/fault-points';
import { defineJob, type JobContext, type JobDefinition, type JobType } from './job-definition';
import type { JobQueue } from './job-queue';
import type { Outbox } from './outbox';

/** How often progress may be published at most (a bar needs a few updates a second, not every chunk). */
export const STAGE_PROGRESS_INTERVAL_MS = 500;
/** The heartbeat of a stage that declares none: a dead worker's stage is retried within about a minute. */
export const DEFAULT_STAGE_HEARTBEAT_SECONDS = 30;

/** What a stage's `run` is handed. The heartbeat needs nothing from it: pg-boss beats while `run` runs. */
export interface StageContext {
  jobId: string;
  /** 1 on the first attempt, 2 on the first retry (after a failure or a dead worker), … */
  attempt: number;
  log: JobContext['log'];
  /** Aborted when the node stops or pg-boss takes the job away (its heartbeat was lost). */
  signal: AbortSignal;
  /**
   * Publishes progress (a fraction, 0–1) as `job.progress` on the stage's topic: throttled to one
   * update per STAGE_PROGRESS_INTERVAL_MS of clock time and one per percent; 1 is always published.
   */
  progress(fraction: number, message?: string): Promise<void>;
}

/** The stage to queue after one completes, with its payload (the previous stage's result, as the next one needs it). */
export interface NextStage {
  stage: JobType;
  payload: unknown;
}

/** What a sender needs of a stage: a job type whose id comes from what it processes. */
export interface StageType<S extends z.ZodType = z.ZodType> extends JobType<S> {
  idOf: (payload: z.output<S>) => string;
  jobIdOf: (payload: z.output<S>) => string;
  heartbeatSeconds: number;
}

export interface StageSpec<S extends z.ZodType, R> {
  name: string;
  schema: S;
  /** What the stage processes, e.g. a version id: the job's id derives from it and the stage's name. */
  idOf: (payload: z.output<S>) => string;
  /** The realtime topic that hears `job.progress`, `job.completed` and `job.failed`. */
  topicOf?: (payload: z.output<S>) => string | null;
  /** pg-boss's native heartbeat (≥ 10): a stage not heard from for this long is retried elsewhere. */
  heartbeatSeconds?: number;
  retryLimit?: number;
  expireInSeconds?: number;
  concurrency?: number;
  /**
   * The work. It may run again after a crash (a dead worker, or a crash after `complete` committed
   * and before pg-boss recorded the job done): a stage whose record says it is done returns at once.
   */
  run: (payload: z.output<S>, context: StageContext) => Promise<R>;
  /**
   * Records the result, in one transaction with the queueing of the next stage (through the outbox):
   * either both happen or neither does. Returns the next stage, if any. Every query here goes
   * through `tx` (on PGlite, one connection, a query beside it waits for the transaction forever).
   */
  complete?: (tx: Tx, payload: z.output<S>, result: R) => Promise<NextStage | null | undefined | void>;
  /** Once, when the last attempt failed (never on an attempt pg-boss retries). A payload failing its schema arrives as null. */
  onFinalFailure?: JobDefinition<S>['onFinalFailure'];
}

/** A stage: its type (to send it) and its spec (to work it, bound by `stageJob`). */
export type Stage<S extends z.ZodType = z.ZodType, R = unknown> = StageType<S> & { spec: StageSpec<S, R> };

/** A stable uuid for a name (sha-256, shaped as a version-4-looking uuid, as pg-boss ids are uuids). */
export function uuidFrom(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The id of the one job of `stage` that processes `id`. */
export const stageJobId = (stage: string, id: string) => uuidFrom(`stage:${stage}:${id}`);

/**
 * Declares a stage of work: a job with a heartbeat, progress, an id derived from what it processes,
 * a completion that records its result and queues the next stage in one transaction, and a hook
 * for its final failure. Send it like any job (`jobs.send`, `outbox.job`): the id comes with it.
 */
export function defineStage<S extends z.ZodType, R>(spec: StageSpec<S, R>): Stage<S, R> {
  return { ...declareStage(spec), spec };
}

/** What the options of a stage declare, without its work: what senders import (the work binds where its services are built). */
export type StageOptions<S extends z.ZodType> = Omit<StageSpec<S, never>, 'run' | 'complete' | 'onFinalFailure'>;

/** A stage's type alone, for senders (e.g. `outbox.job(tx, stage, payload)`); `defineStage({ ...options, run })` binds its work. */
export function declareStage<S extends z.ZodType>(spec: StageOptions<S>): StageType<S> {
  const heartbeatSeconds = spec.heartbeatSeconds ?? DEFAULT_STAGE_HEARTBEAT_SECONDS;
  if (heartbeatSeconds < 10) throw new Error(`Stage ${spec.name}: pg-boss heartbeats are at least 10 seconds`);
  return {
    name: spec.name,
    schema: spec.schema,
    heartbeatSeconds,
    ...(spec.retryLimit !== undefined ? { retryLimit: spec.retryLimit } : {}),
    ...(spec.expireInSeconds !== undefined ? { expireInSeconds: spec.expireInSeconds } : {}),
    ...(spec.concurrency !== undefined ? { concurrency: spec.concurrency } : {}),
    idOf: spec.idOf,
    jobIdOf: (payload) => stageJobId(spec.name, spec.idOf(payload)),
    ...(spec.topicOf ? { topicOf: spec.topicOf } : {}),
  };
}

/** The next stage to queue, typed by that stage's payload. */
export function nextStage<S extends z.ZodType>(stage: StageType<S>, payload: z.input<S>): NextStage {
  return { stage, payload };
}

export interface StageRunnerDeps {
  unitOfWork: UnitOfWork;
  outbox: Outbox;
  clock: Clock;
  /** `stage.<name>.after-complete`: dies after the completion committed, before pg-boss records it. */
  faults?: Pick<FaultPoints, 'crashIf'>;
}

/** Binds a stage to what runs it, as the job definition a module lists in its `jobs`. */
export function stageJob<S extends z.ZodType, R>(stage: Stage<S, R>, deps: StageRunnerDeps): JobDefinition<S> {
  const { spec } = stage;
  return defineJob(
    stage,
    async (payload, context) => {
      const result = await spec.run(payload, {
        jobId: context.jobId,
        attempt: context.attempt ?? 1,
        log: context.log,
        signal: context.signal,
        progress: throttled((percent, message) => context.progress(percent, message), deps.clock),
      });
      if (!spec.complete) return;
      const complete = spec.complete;
      const next = await deps.unitOfWork(async (tx) => {
        const after = await complete(tx, payload, result);
        if (after) await deps.outbox.job(tx, after.stage, after.payload);
        return after ?? null;
      });
      deps.faults?.crashIf(`stage.${spec.name}.after-complete`);
      // Started now rather than at the outbox's next pass.
      if (next) deps.outbox.kick();
    },
    spec.onFinalFailure ? { onFinalFailure: spec.onFinalFailure } : {},
  );
}

/**
 * Where a stage of one thing stands: `none` (never sent, or forgotten), `queued` (waiting or
 * awaiting a retry), `running`, `completed` or `failed` (its last attempt failed).
 */
export type StageState = 'none' | 'queued' | 'running' | 'completed' | 'failed';

export async function stageState<S extends z.ZodType>(
  jobs: Pick<JobQueue, 'state'>,
  stage: StageType<S>,
  payload: z.output<S>,
): Promise<StageState> {
  const state = await jobs.state(stage.name, stage.jobIdOf(payload));
  switch (state) {
    case null:
      return 'none';
    case 'created':
    case 'retry':
      return 'queued';
    case 'active':
      return 'running';
    case 'completed':
      return 'completed';
    default:
      return 'failed';
  }
}

function throttled(publish: JobContext['progress'], clock: Clock): StageContext['progress'] {
  let lastPercent = -1;
  let lastAt = -Infinity;
  return async (fraction, message) => {
    const percent = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
    const now = clock.now().getTime();
    if (percent < 100 && (percent <= lastPercent || now - lastAt < STAGE_PROGRESS_INTERVAL_MS)) return;
    lastPercent = percent;
    lastAt = now;
    await publish(percent, message);
  };
}
