import type { Logger } from 'pino';
import { z } from 'zod';

export interface JobContext {
  jobId: string;
  /** 1 on the first attempt, 2 on the first retry, … */
  attempt?: number;
  log: Logger;
  /** Publishes progress (0–100) on the realtime topic the job was sent with, if any. */
  progress(percent: number, message?: string): Promise<void>;
  signal: AbortSignal;
}

/** What a sender needs to know about a job: its name and payload schema, plus queue options. */
export interface JobType<S extends z.ZodType = z.ZodType> {
  name: string;
  schema: S;
  /** Cron expression for jobs the system runs on its own (e.g. purges). */
  schedule?: string;
  retryLimit?: number;
  expireInSeconds?: number;
  /** Jobs of this kind processed at once per worker node. */
  concurrency?: number;
  /**
   * pg-boss's native heartbeat (at least 10): the worker refreshes the running job every half of it,
   * and a job not refreshed for this long (its node died) is failed and retried by pg-boss's supervisor.
   */
  heartbeatSeconds?: number;
  /**
   * The job's id, derived from what it processes (staged jobs): every send of the same thing names
   * the same job, so a second send while it exists is a no-op, on any node, through the outbox too.
   */
  jobIdOf?(payload: z.output<S>): string;
  /** The realtime topic that hears its progress when the sender names none. */
  topicOf?(payload: z.output<S>): string | null;
}

/** A job type bound to its handler. Modules export a factory that binds handlers to their services. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> extends JobType<S> {
  handler(payload: z.output<S>, context: JobContext): Promise<void>;
  /**
   * Runs once when the job failed its last attempt (never on an attempt that will be retried):
   * the place to refund, mark a record failed, tell the user. A payload that fails its schema
   * arrives as null.
   */
  onFinalFailure?(payload: z.output<S> | null, error: Error, context: Pick<JobContext, 'jobId' | 'log'>): Promise<void>;
}

/** The one pattern for background jobs: a name, a zod payload schema, a handler, and what a final failure does. */
export function defineJob<S extends z.ZodType>(
  type: JobType<S>,
  handler: JobDefinition<S>['handler'],
  hooks: Pick<JobDefinition<S>, 'onFinalFailure'> = {},
): JobDefinition<S> {
  return { ...type, handler, ...hooks };
}

const NO_PAYLOAD = z.object({}).passthrough();

/**
 * A job the system runs on its own schedule (purges, grants, housekeeping): no payload, a cron
 * expression, one retry unless told otherwise. The one way to write such a job.
 */
export function defineScheduledJob(
  name: string,
  schedule: string,
  run: (context: JobContext) => Promise<void>,
  options: { retryLimit?: number } = {},
): JobDefinition<typeof NO_PAYLOAD> {
  return defineJob({ name, schema: NO_PAYLOAD, schedule, retryLimit: options.retryLimit ?? 1 }, (_payload, context) =>
    run(context),
  );
}
