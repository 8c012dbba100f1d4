import type { Logger } from 'pino';
import type { z } from 'zod';

export interface JobContext {
  jobId: string;
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
