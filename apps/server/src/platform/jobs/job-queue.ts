import { EVENT_TYPES, type EventData } from '@mixroom/contracts';

/** The job lifecycle events, published on the topic a job was sent with. */
type JobEvent =
  | { type: 'job.progress'; data: EventData<'job.progress'> }
  | { type: 'job.completed'; data: EventData<'job.completed'> }
  | { type: 'job.failed'; data: EventData<'job.failed'> };
import { PgBoss, fromPglite, type JobWithMetadata } from 'pg-boss';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { queryRows } from '../../db/sql';
import type { EventBus } from '../realtime/event-bus';
import type { JobDefinition, JobType } from './job-definition';

/**
 * How often an idle worker asks the database for a job; a job sent on this node wakes its worker at
 * once (see `wake`), so polling finds only retries, scheduled jobs and jobs other nodes sent. (A
 * slower poll on embedded PGlite, where each poll runs on the main thread, showed no gain beyond the
 * noise in the connectors bench and would delay retries: it stays at half a second everywhere.)
 */
const POLLING_INTERVAL_SECONDS = 0.5;

interface Envelope {
  payload: unknown;
  /** Realtime topic that hears this job's progress, e.g. `user:{id}`. */
  topic: string | null;
}

export interface SendOptions {
  topic?: string;
  /** A fixed job id: sending the same id again is a no-op (one job per thing, across nodes). */
  jobId?: string;
  startAfterSeconds?: number;
  singletonKey?: string;
  /** With `jobId`: a job of that id that has finished (completed, failed, cancelled) is sent anew. */
  again?: boolean;
}

/**
 * Background jobs on pg-boss, in the same database as everything else (PGlite or PostgreSQL). Any
 * node may send; only nodes with the worker role process.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly abort = new AbortController();
  /** The queues this node works: a job sent to one of them wakes its worker at once. */
  private readonly worked = new Set<string>();
  private started = false;

  constructor(
    private readonly database: Database,
    private readonly bus: EventBus,
    private readonly log: Logger,
  ) {
    this.boss = database.pglite
      ? new PgBoss({ db: fromPglite(database.pglite), schema: 'pgboss' })
      : new PgBoss({ connectionString: database.connectionString ?? '', schema: 'pgboss', max: 4 });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  /** Creates every known queue (any node may send any job); processes those `work` names. */
  async start(definitions: JobDefinition[], options: { work: (name: string) => boolean }): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const definition of definitions) {
      this.definitions.set(definition.name, definition);
      const queue = {
        retryLimit: definition.retryLimit ?? 2,
        expireInSeconds: definition.expireInSeconds ?? 900,
      };
      await this.boss.createQueue(definition.name, {
        ...queue,
        ...(definition.heartbeatSeconds ? { heartbeatSeconds: definition.heartbeatSeconds } : {}),
      });
      // A queue made by an older release keeps its options: the declared ones win at every start.
      await this.boss.updateQueue(definition.name, { ...queue, heartbeatSeconds: definition.heartbeatSeconds ?? null });
      if (definition.schedule)
        await this.boss.schedule(definition.name, definition.schedule, { payload: {}, topic: null });
      if (options.work(definition.name)) await this.work(definition);
    }
  }

  private async work(definition: JobDefinition): Promise<void> {
    this.worked.add(definition.name);
    await this.boss.work<Envelope>(
      definition.name,
      {
        batchSize: 1,
        localConcurrency: definition.concurrency ?? 1,
        pollingIntervalSeconds: POLLING_INTERVAL_SECONDS,
        includeMetadata: true,
      },
      async ([job]) => {
        if (!job) return;
        const { topic } = job.data;
        const log = this.log.child({ job: definition.name, jobId: job.id, attempt: job.retryCount + 1 });
        const base = { jobId: job.id, name: definition.name };
        const publish = async (event: JobEvent) => {
          if (topic) await this.bus.publish({ topic, ...event });
        };
        let payload: unknown = null;
        try {
          payload = definition.schema.parse(job.data.payload);
          await definition.handler(payload, {
            jobId: job.id,
            attempt: job.retryCount + 1,
            log,
            signal: AbortSignal.any([this.abort.signal, job.signal]),
            progress: (percent, message) =>
              publish({
                type: EVENT_TYPES.jobProgress,
                data: { ...base, percent: Math.round(percent), message: message ?? null },
              }),
          });
          await publish({ type: EVENT_TYPES.jobCompleted, data: base });
        } catch (thrown) {
          const error = thrown instanceof Error ? thrown : new Error(String(thrown));
          // pg-boss retries until retryCount reaches retryLimit: only then is the failure final.
          if (job.retryCount < (job as JobWithMetadata<Envelope>).retryLimit) {
            log.warn({ err: error }, 'job attempt failed; it will be retried');
            throw error;
          }
          log.error({ err: error }, 'job failed on its last attempt');
          await this.finalFailure(definition, payload, error, { jobId: job.id, log });
          await publish({ type: EVENT_TYPES.jobFailed, data: { ...base, message: error.message } });
          throw error;
        }
      },
    );
  }

  private async finalFailure(
    definition: JobDefinition,
    payload: unknown,
    error: Error,
    context: { jobId: string; log: Logger },
  ): Promise<void> {
    if (!definition.onFinalFailure) return;
    try {
      await definition.onFinalFailure(payload, error, context);
    } catch (hookError) {
      context.log.error({ err: hookError }, 'final-failure hook failed');
    }
  }

  /** Validates the payload against the job's schema before it is queued. */
  async send<S extends z.ZodType>(
    definition: JobType<S>,
    payload: z.input<S>,
    options: SendOptions = {},
  ): Promise<string> {
    const parsed = definition.schema.parse(payload);
    options = withDerived(definition, parsed, options);
    const id = await this.sendValidated(definition.name, parsed, options);
    if (!id && !options.jobId) throw new Error(`Job ${definition.name} was not queued`);
    return id ?? options.jobId!;
  }

  /**
   * Queues a payload already validated by its job's schema (the outbox validates before it records).
   * With `jobId`, a second send of the same job is a no-op and answers null.
   */
  async sendValidated(name: string, payload: unknown, options: SendOptions = {}): Promise<string | null> {
    const envelope: Envelope = { payload, topic: options.topic ?? null };
    const heartbeatSeconds = this.definitions.get(name)?.heartbeatSeconds;
    if (options.again && options.jobId) await this.forgetFinished(name, options.jobId);
    const id = await this.boss.send(name, envelope, {
      ...(heartbeatSeconds ? { heartbeatSeconds } : {}),
      ...(options.jobId ? { id: options.jobId } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    });
    if (id && !options.startAfterSeconds) this.wake(name);
    return id;
  }

  /**
   * A job this node can work starts now rather than at its worker's next poll (up to
   * POLLING_INTERVAL_SECONDS later): an idle worker of that queue fetches at once. Jobs sent by
   * another node are found by polling.
   */
  private wake(name: string): void {
    if (!this.worked.has(name)) return;
    for (const worker of this.boss.getWipData())
      if (worker.name === name && worker.state !== 'stopping') this.boss.notifyWorker(worker.id);
  }

  /** A job's state ('created', 'active', 'completed', 'failed', …), or null when unknown. */
  async state(name: string, id: string): Promise<string | null> {
    return (await this.boss.getJobById(name, id))?.state ?? null;
  }

  /**
   * Fails a running job whose worker is known dead (this node's previous process), so pg-boss
   * retries it now instead of once its heartbeat goes stale. False when it was not running.
   */
  async failRunning(name: string, id: string, reason: string): Promise<boolean> {
    if ((await this.state(name, id)) !== 'active') return false;
    await this.boss.fail(name, id, { message: reason });
    return true;
  }

  /** Removes a finished (completed, failed or cancelled) job, so its id may be sent again. */
  async forgetFinished(name: string, id: string): Promise<void> {
    const state = await this.state(name, id);
    if (state === 'completed' || state === 'failed' || state === 'cancelled') await this.boss.deleteJob(name, id);
  }

  /**
   * Runs pg-boss's supervision of one queue now (what its timer does every minute): jobs whose
   * heartbeat went stale or whose time ran out are failed, and retried where attempts remain.
   */
  async supervise(name: string): Promise<void> {
    // pg-boss skips a queue supervised within the last minute; this pass is asked for now.
    await this.database.db.execute(
      sql`update pgboss.queue set monitor_on = null, monitor_claim_on = null where name = ${name}`,
    );
    await this.boss.supervise(name);
  }

  async check(): Promise<void> {
    await this.boss.getQueues();
  }

  /**
   * Jobs waiting (created or awaiting a retry), running and failed, per queue, counted now. pg-boss's
   * own queue figures are refreshed by its monitor and may lag by a minute; an operator looking at a
   * stuck queue wants the present.
   */
  async stats(): Promise<{ name: string; queued: number; active: number; failed: number }[]> {
    const rows = await queryRows<{ name: string; state: string; n: number }>(
      this.database.db,
      sql`select name, state::text as state, count(*)::int as n from pgboss.job
          where state in ('created', 'retry', 'active', 'failed') group by name, state order by name`,
    );
    const byQueue = new Map<string, { name: string; queued: number; active: number; failed: number }>();
    for (const row of rows) {
      const queue = byQueue.get(row.name) ?? { name: row.name, queued: 0, active: 0, failed: 0 };
      const n = Number(row.n);
      if (row.state === 'active') queue.active += n;
      else if (row.state === 'failed') queue.failed += n;
      else queue.queued += n;
      byQueue.set(row.name, queue);
    }
    return [...byQueue.values()];
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.abort.abort();
    await this.boss.stop({ graceful: true, timeout: 10_000, close: true });
    this.started = false;
  }
}

/** The job id and topic a job type derives from its payload, unless the sender named them. */
export function withDerived<S extends z.ZodType, O extends Pick<SendOptions, 'jobId' | 'topic'>>(
  type: JobType<S>,
  payload: z.output<S>,
  options: O,
): O {
  const topic = options.topic ?? type.topicOf?.(payload) ?? undefined;
  const jobId = options.jobId ?? type.jobIdOf?.(payload);
  return { ...options, ...(topic ? { topic } : {}), ...(jobId ? { jobId } : {}) };
}
