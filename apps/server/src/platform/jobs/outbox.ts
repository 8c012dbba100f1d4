import type { DomainEventInput } from '@mixroom/contracts';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/database';
import { outbox } from '../../db/schema';
import { queryRows } from '../../db/sql';
import type { EventBus } from '../realtime/event-bus';
import type { JobType } from './job-definition';
import { withDerived, type JobQueue, type SendOptions } from './job-queue';

type OutboxRow = typeof outbox.$inferSelect;

const BATCH = 100;
const INTERVAL_MS = 2_000;
const CLAIM_MS = 30_000;

/**
 * What must happen after a write — a job to run, an event to announce — is recorded in the write's
 * own transaction and dispatched after it commits (the transactional outbox). Rows leave the table
 * only once dispatched; a crash between commit and dispatch leaves them for the next flush, at start
 * and every two seconds, on whichever node gets there first (rows are claimed for a while, so a
 * node that dies mid-dispatch leaves them to the next).
 * Jobs keep the id recorded with them, so a row dispatched twice queues its job once.
 */
export class Outbox {
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
    private readonly bus: EventBus,
    private readonly log: Logger,
  ) {}

  /** Records a job, validated now, to be queued once `tx` commits. */
  async job<S extends z.ZodType>(
    tx: Tx,
    type: JobType<S>,
    payload: z.input<S>,
    options: Pick<SendOptions, 'topic' | 'startAfterSeconds' | 'jobId' | 'again'> = {},
  ): Promise<void> {
    const parsed = type.schema.parse(payload);
    const { jobId, ...rest } = withDerived(type, parsed, options);
    await tx
      .insert(outbox)
      .values({ kind: 'job', name: type.name, payload: parsed, options: rest, ...(jobId ? { jobId } : {}) });
  }

  /** Records an event to be published once `tx` commits. */
  async event(tx: Tx, event: DomainEventInput): Promise<void> {
    await tx
      .insert(outbox)
      .values({ kind: 'event', name: event.type, payload: event.data, options: { topic: event.topic } });
  }

  /** Dispatches what is recorded; concurrent calls share one pass. Returns the rows dispatched. */
  flush(): Promise<number> {
    this.flushing ??= this.drain().finally(() => (this.flushing = null));
    return this.flushing;
  }

  /** Flushes now and every few seconds (what a crashed node left, what another node recorded). */
  start(): void {
    if (this.timer) return;
    void this.flush().catch((error: unknown) => this.log.error({ err: error }, 'outbox flush failed'));
    this.timer = setInterval(
      () => void this.flush().catch((error: unknown) => this.log.warn({ err: error }, 'outbox flush failed')),
      INTERVAL_MS,
    );
    this.timer.unref();
  }

  /** Flushes in the background, right after a write recorded work; a failure is logged and retried by the timer. */
  kick(): void {
    void this.flush().catch((error: unknown) => this.log.warn({ err: error }, 'outbox flush failed; retried shortly'));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flushing?.catch(() => undefined);
  }

  private async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await this.claim();
      for (const row of rows) {
        try {
          await this.dispatch(row);
          await this.db.delete(outbox).where(eq(outbox.id, row.id));
          total += 1;
        } catch (error) {
          // Left claimed: another pass takes it again once the claim lapses.
          this.log.warn({ err: error, outbox: row.id, name: row.name }, 'outbox dispatch failed; will retry');
        }
      }
      if (rows.length < BATCH) return total;
    }
  }

  /**
   * Takes the oldest unclaimed rows for CLAIM_MS in one statement, so two nodes never dispatch the
   * same row at once (and no transaction stays open while dispatching: PGlite has one connection).
   */
  private async claim(): Promise<OutboxRow[]> {
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`update ${outbox} set claimed_until = now() + make_interval(secs => ${CLAIM_MS / 1000}), attempts = attempts + 1
          where id in (select id from ${outbox} where claimed_until is null or claimed_until < now() order by id limit ${BATCH} for update skip locked)
          returning id`,
    );
    if (rows.length === 0) return [];
    return this.db
      .select()
      .from(outbox)
      .where(
        inArray(
          outbox.id,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(outbox.id));
  }

  private async dispatch(row: OutboxRow): Promise<void> {
    const options = row.options as { topic?: string; startAfterSeconds?: number; again?: boolean };
    if (row.kind === 'job') {
      await this.jobs.sendValidated(row.name, row.payload, { ...options, jobId: row.jobId });
      return;
    }
    // The event was built from a typed DomainEventInput when it was recorded.
    await this.bus.publish({ topic: options.topic ?? 'system', type: row.name, data: row.payload } as DomainEventInput);
  }

  /** Rows still waiting (health and tests). */
  async pending(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(outbox);
    return row?.n ?? 0;
  }
}
