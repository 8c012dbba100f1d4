import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/database';
import { oidcModels } from '../../db/schema';
import { systemClock } from '../clock/clock';

/**
 * oidc-provider reckons lifetimes by the real time (and the purge job by the database's now()), so
 * its store reads the system clock, never a clock a test moved.
 */
const providerClock = systemClock;

/** oidc-provider's storage (sessions, grants, codes, tokens) in our database, so nodes share it. */
export function createOidcAdapterClass(db: Db) {
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
      return {
        ...(row.payload as AdapterPayload),
        ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
      };
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

    async consume(id: string): Promise<void> {
      await db
        .update(oidcModels)
        .set({ consumedAt: providerClock.now() })
        .where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
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
 * once (JWT access tokens already issued live out their short lifetime).
 */
export async function revokeOidcRowsOfAccount(db: Db, accountId: string): Promise<number> {
  const deleted = await db
    .delete(oidcModels)
    .where(
      sql`${oidcModels.payload}->>'accountId' = ${accountId} or ${oidcModels.payload}->'session'->>'accountId' = ${accountId} or ${oidcModels.payload}->'result'->'login'->>'accountId' = ${accountId}`,
    )
    .returning({ id: oidcModels.id });
  return deleted.length;
}

/** Deletes one grant and every code and token issued under it. */
export async function revokeOidcGrant(db: Db, grantId: string): Promise<void> {
  await db
    .delete(oidcModels)
    .where(or(eq(oidcModels.grantId, grantId), and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, grantId))));
}
