import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/database';
import { oidcModels } from '../../db/schema';
import { systemClock, type Clock } from '../clock/clock';

/**
 * oidc-provider reckons lifetimes by the real time (and the purge job by the database's now()), so
 * its store reads the system clock, never a clock a test moved.
 */
const providerClock = systemClock;

/**
 * A rotated refresh token still renews for this long after its first use. The answer to a renewal
 * can be lost (the node that gave it died, the tab's connection dropped), and the client then tries
 * again with the token it holds; without a grace, that retry looks like a stolen token's reuse and
 * oidc-provider ends the whole grant, signing the user out. Past the grace, a reuse still ends it.
 */
export const REFRESH_REUSE_GRACE_MS = 60_000;

/**
 * oidc-provider's storage (sessions, grants, codes, tokens) in our database, so nodes share it.
 * `clock` (the app's, which tests move) times only the refresh tokens' reuse grace.
 */
export function createOidcAdapterClass(db: Db, clock: Clock = systemClock) {
  return class DbAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id,
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(providerClock.now().getTime() + expiresIn * 1000) : null,
      };
      await db
        .insert(oidcModels)
        .values(row)
        .onConflictDoUpdate({ target: [oidcModels.model, oidcModels.id], set: row });
    }

    private async findWhere(where: ReturnType<typeof and>): Promise<AdapterPayload | undefined> {
      const [row] = await db.select().from(oidcModels).where(where).limit(1);
      if (!row) return undefined;
      if (row.expiresAt && row.expiresAt.getTime() < providerClock.now().getTime()) return undefined;
      const consumed = row.consumedAt && !this.inReuseGrace(row.consumedAt) ? row.consumedAt : null;
      return {
        ...(row.payload as AdapterPayload),
        ...(consumed ? { consumed: Math.floor(consumed.getTime() / 1000) } : {}),
      };
    }

    /** A refresh token used moments ago reads as unused, so a retried renewal rotates it again. */
    private inReuseGrace(consumedAt: Date): boolean {
      return this.model === 'RefreshToken' && clock.now().getTime() - consumedAt.getTime() <= REFRESH_REUSE_GRACE_MS;
    }

    find(id: string) {
      return this.findWhere(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(and(eq(oidcModels.model, this.model), eq(oidcModels.userCode, userCode)));
    }

    findByUid(uid: string) {
      return this.findWhere(and(eq(oidcModels.model, this.model), eq(oidcModels.uid, uid)));
    }

    /** The first use counts: a reuse within the grace must not stretch it. */
    async consume(id: string): Promise<void> {
      await db
        .update(oidcModels)
        .set({ consumedAt: clock.now() })
        .where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id), isNull(oidcModels.consumedAt)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcModels).where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcModels).where(eq(oidcModels.grantId, grantId));
    }
  };
}

/** Deletes rows whose expiry has passed (run by the maintenance job). */
export async function purgeExpiredOidcRows(db: Db): Promise<number> {
  const deleted = await db
    .delete(oidcModels)
    .where(lt(oidcModels.expiresAt, sql`now()`))
    .returning({ id: oidcModels.id });
  return deleted.length;
}

/**
 * Deletes every session, grant, code and token of one account, so its refresh tokens stop working at
 * once; answers the grants that ended, whose access tokens the caller refuses from now on.
 */
export async function revokeOidcRowsOfAccount(db: Db, accountId: string): Promise<string[]> {
  const deleted = await db
    .delete(oidcModels)
    .where(
      sql`${oidcModels.payload}->>'accountId' = ${accountId} or ${oidcModels.payload}->'session'->>'accountId' = ${accountId} or ${oidcModels.payload}->'result'->'login'->>'accountId' = ${accountId}`,
    )
    .returning({ id: oidcModels.id, model: oidcModels.model, grantId: oidcModels.grantId });
  const grants = deleted.map((row) => (row.model === 'Grant' ? row.id : row.grantId));
  return [...new Set(grants.filter((id): id is string => id !== null))];
}

/** Deletes one grant and every code and token issued under it. */
export async function revokeOidcGrant(db: Db, grantId: string): Promise<void> {
  await db
    .delete(oidcModels)
    .where(or(eq(oidcModels.grantId, grantId), and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, grantId))));
}
