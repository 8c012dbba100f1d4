import { gt, lt } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { sessionRevocations } from '../../db/schema';
import type { Clock } from '../clock/clock';
import type { EventBus } from '../realtime/event-bus';
import type { VerifiedToken } from './token-verifier';

/** The access-token claim that names the grant (the sign-in session) a token was issued under. */
export const GRANT_CLAIM = 'gid';
/** Grants per bus message: a message carries a few kilobytes at most. */
const GRANTS_PER_EVENT = 100;
/** How often a node reads the table again, in case it missed news the bus did not bring. */
const RELOAD_EVERY_MS = 60_000;

/**
 * Access tokens are JWTs checked by their signature, so ending a session (a sign-out, a revoked
 * refresh token, a password reset, an account disabled) would leave its last access token working
 * for the rest of its short life. This refuses them at once. Every node keeps the ended grants in
 * memory, so the check costs no query per request; an ending is written to the database and told to
 * every node on the bus, and a node that starts, or hears the bus again after a gap, reads the
 * table again. A grant is remembered for as long as a token of it could still be unexpired.
 */
export class SessionRevocations {
  /** Grant id → ms since the epoch past which it need not be remembered. */
  private readonly endedUntil = new Map<string, number>();

  constructor(
    private readonly deps: {
      db: Db;
      bus: EventBus;
      clock: Clock;
      log: Logger;
      /** How long an access token lives. */
      tokenLifetimeSeconds: number;
    },
  ) {}

  /** Reads what is still in force and follows the other nodes' news; returns the unsubscribe. */
  async start(): Promise<() => void> {
    const stopEvents = this.deps.bus.subscribe((event) => {
      if (event.type === 'session.revoked')
        for (const grantId of event.data.grantIds) this.endedUntil.set(grantId, event.data.until);
    });
    const reload = () => {
      void this.load().catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'session revocations not reloaded'),
      );
    };
    // After a gap in the bus's news, and now and then in case news was lost without a gap.
    const stopResumed = this.deps.bus.onResumed(reload);
    const timer = setInterval(reload, RELOAD_EVERY_MS);
    timer.unref();
    await this.load();
    return () => {
      stopEvents();
      stopResumed();
      clearInterval(timer);
    };
  }

  /**
   * Ends grants at once on every node: written to the table (a node that starts, or missed the
   * news, reads it there) and told on the bus. Neither failing stops the other, and neither fails
   * the call that ended the session (it is logged; the grants are gone from the provider anyway).
   */
  async revoke(userId: string | null, grantIds: readonly string[]): Promise<void> {
    const unique = [...new Set(grantIds)].filter((grantId) => !this.endedUntil.has(grantId));
    if (unique.length === 0) return;
    const now = this.deps.clock.now().getTime();
    // The token's lifetime plus the verifier's leeway and a margin for clocks between nodes.
    const until = now + (this.deps.tokenLifetimeSeconds + 60) * 1000;
    // This node refuses them before anything is awaited: the call that ended them may be answered
    // (a revocation endpoint that does not wait for this) before the write below is done.
    for (const grantId of unique) this.endedUntil.set(grantId, until);
    this.forgetPast(now);
    await this.deps.db
      .insert(sessionRevocations)
      .values(unique.map((grantId) => ({ userId, grantId, expiresAt: new Date(until) })))
      .catch((error: unknown) => this.deps.log.error({ err: error, userId }, 'ended sessions not recorded'));
    for (let i = 0; i < unique.length; i += GRANTS_PER_EVENT)
      await this.deps.bus.publishOrLog({
        topic: 'system',
        type: 'session.revoked',
        data: { grantIds: unique.slice(i, i + GRANTS_PER_EVENT), until },
      });
  }

  /** Drops grants none of whose tokens can still be unexpired, so the map holds only what counts. */
  private forgetPast(now: number): void {
    for (const [grantId, until] of this.endedUntil) if (until <= now) this.endedUntil.delete(grantId);
  }

  /** Whether a sign-in session (grant) ended and a token of it could still be unexpired. */
  ended(grantId: string): boolean {
    const until = this.endedUntil.get(grantId);
    return until !== undefined && until > this.deps.clock.now().getTime();
  }

  /** Whether a verified token belongs to a session that ended. A token without a grant claim is judged by its signature alone. */
  refuses(token: VerifiedToken): boolean {
    const grantId = token.claims[GRANT_CLAIM];
    if (typeof grantId !== 'string') return false;
    const until = this.endedUntil.get(grantId);
    if (until === undefined) return false;
    if (until > this.deps.clock.now().getTime()) return true;
    this.endedUntil.delete(grantId);
    return false;
  }

  private async load(): Promise<void> {
    const rows = await this.deps.db
      .select({ grantId: sessionRevocations.grantId, expiresAt: sessionRevocations.expiresAt })
      .from(sessionRevocations)
      .where(gt(sessionRevocations.expiresAt, this.deps.clock.now()));
    for (const row of rows) this.endedUntil.set(row.grantId, row.expiresAt.getTime());
    this.forgetPast(this.deps.clock.now().getTime());
  }
}

/** Drops ended grants no token can hold any more (the maintenance job). */
export async function purgeEndedSessions(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(sessionRevocations)
    .where(lt(sessionRevocations.expiresAt, now))
    .returning({ id: sessionRevocations.id });
  return gone.length;
}
