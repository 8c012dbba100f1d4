import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database';
import { retiredTransferTokens, transferRecipients, transfers, users } from '../../db/schema';
import type { TransferFacts, TransferLink } from '../../access/transfer.policy';

type TransferRow = typeof transfers.$inferSelect;

/**
 * How a link's token finds its transfer: the transfer's shared token (someone with the link) or one
 * recipient's own (their e-mail's link); the tokens of deleted transfers; whether the owner's account
 * may still hand out links.
 */
export class TransferLinksRepository implements TransferFacts {
  constructor(private readonly db: Db) {}

  async find(id: string): Promise<TransferRow | null> {
    const [row] = await this.db.select().from(transfers).where(eq(transfers.id, id));
    return row ?? null;
  }

  async findLink(token: string): Promise<TransferLink | null> {
    const [shared] = await this.db.select().from(transfers).where(eq(transfers.token, token));
    if (shared) return { transfer: shared, email: null };
    const [own] = await this.db
      .select({ transfer: transfers, email: transferRecipients.email })
      .from(transferRecipients)
      .innerJoin(transfers, eq(transfers.id, transferRecipients.transferId))
      .where(eq(transferRecipients.token, token));
    return own ? { transfer: own.transfer, email: own.email.toLowerCase() } : null;
  }

  async isRetired(token: string): Promise<boolean> {
    const [row] = await this.db
      .select({ token: retiredTransferTokens.token })
      .from(retiredTransferTokens)
      .where(eq(retiredTransferTokens.token, token));
    return Boolean(row);
  }

  /** Not disabled by an administrator and not being deleted. */
  async ownerActive(userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.disabledAt), isNull(users.deletionRequestedAt)));
    return Boolean(row);
  }

  /** Keeps the link tokens of a transfer about to be deleted (its shared one and its recipients'). */
  async retire(transferId: string, at: Date, tx: Db | Tx = this.db): Promise<void> {
    const [transfer] = await tx.select({ token: transfers.token }).from(transfers).where(eq(transfers.id, transferId));
    if (!transfer) return;
    const recipients = await tx
      .select({ token: transferRecipients.token })
      .from(transferRecipients)
      .where(eq(transferRecipients.transferId, transferId));
    await tx
      .insert(retiredTransferTokens)
      .values([transfer, ...recipients].map(({ token }) => ({ token, retiredAt: at })))
      .onConflictDoNothing();
  }
}
