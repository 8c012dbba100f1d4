import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { connectorAccounts, connectorOAuthStates, connectorTransfers } from '../../db/schema';
import type { Clock } from '../../platform/clock/clock';

export type ConnectorAccountRow = typeof connectorAccounts.$inferSelect;
export type ConnectorTransferRow = typeof connectorTransfers.$inferSelect;
export type OAuthStateRow = typeof connectorOAuthStates.$inferSelect;

/** Listings the Activities panel shows: the latest copies only. */
const TRANSFERS_SHOWN = 50;

/** The only database caller of the connectors module: linked accounts and their copies. */
export class ConnectorsRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  accounts(userId: string): Promise<ConnectorAccountRow[]> {
    return this.db
      .select()
      .from(connectorAccounts)
      .where(eq(connectorAccounts.userId, userId))
      .orderBy(connectorAccounts.createdAt);
  }

  /** The user's account with this id: another user's is the same absence as none. */
  async account(userId: string, id: string): Promise<ConnectorAccountRow | null> {
    const [row] = await this.db
      .select()
      .from(connectorAccounts)
      .where(and(eq(connectorAccounts.id, id), eq(connectorAccounts.userId, userId)));
    return row ?? null;
  }

  /** Null when the user already linked an account of this kind. */
  async insertAccount(row: typeof connectorAccounts.$inferInsert): Promise<ConnectorAccountRow | null> {
    const [inserted] = await this.db.insert(connectorAccounts).values(row).onConflictDoNothing().returning();
    return inserted ?? null;
  }

  async deleteAccount(userId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(connectorAccounts)
      .where(and(eq(connectorAccounts.id, id), eq(connectorAccounts.userId, userId)))
      .returning({ id: connectorAccounts.id });
    return deleted.length > 0;
  }

  /** A refreshed token pair replaces the sealed one (the row may be gone: unlinked meanwhile). */
  async updateCredentials(userId: string, id: string, sealedCredentials: string): Promise<void> {
    await this.db
      .update(connectorAccounts)
      .set({ sealedCredentials })
      .where(and(eq(connectorAccounts.id, id), eq(connectorAccounts.userId, userId)));
  }

  /** Records an authorization in progress, dropping the user's expired ones on the way. */
  async insertOAuthState(row: typeof connectorOAuthStates.$inferInsert): Promise<void> {
    await this.db
      .delete(connectorOAuthStates)
      .where(and(eq(connectorOAuthStates.userId, row.userId), lt(connectorOAuthStates.expiresAt, this.clock.now())));
    await this.db.insert(connectorOAuthStates).values(row);
  }

  /**
   * Consumes a state: deleted and returned in one statement, so a second use (or a race of two
   * callbacks) finds nothing. Another user's state is not touched and answers as none.
   */
  async takeOAuthState(userId: string, stateHash: string): Promise<OAuthStateRow | null> {
    const [row] = await this.db
      .delete(connectorOAuthStates)
      .where(and(eq(connectorOAuthStates.stateHash, stateHash), eq(connectorOAuthStates.userId, userId)))
      .returning();
    return row ?? null;
  }

  async insertTransfer(row: Omit<typeof connectorTransfers.$inferInsert, 'createdAt' | 'updatedAt'>) {
    const now = this.clock.now();
    const [inserted] = await this.db
      .insert(connectorTransfers)
      .values({ ...row, createdAt: now, updatedAt: now })
      .returning();
    return inserted!;
  }

  async transfer(id: string): Promise<ConnectorTransferRow | null> {
    const [row] = await this.db.select().from(connectorTransfers).where(eq(connectorTransfers.id, id));
    return row ?? null;
  }

  transfers(userId: string): Promise<ConnectorTransferRow[]> {
    return this.db
      .select()
      .from(connectorTransfers)
      .where(eq(connectorTransfers.userId, userId))
      .orderBy(desc(connectorTransfers.createdAt))
      .limit(TRANSFERS_SHOWN);
  }

  async updateTransfer(
    id: string,
    values: Partial<Pick<ConnectorTransferRow, 'status' | 'bytesDone' | 'bytesTotal' | 'error'>>,
  ): Promise<ConnectorTransferRow | null> {
    const [row] = await this.db
      .update(connectorTransfers)
      .set({ ...values, updatedAt: this.clock.now() })
      .where(eq(connectorTransfers.id, id))
      .returning();
    return row ?? null;
  }
}
