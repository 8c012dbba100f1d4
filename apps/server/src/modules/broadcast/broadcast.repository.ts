import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database';
import { broadcastRooms } from '../../db/schema';

export type BroadcastRoomRow = typeof broadcastRooms.$inferSelect;
export type BroadcastStatus = BroadcastRoomRow['status'];

/** The only SQL of broadcasts: one streaming room per user. */
export class BroadcastRepository {
  constructor(private readonly db: Db) {}

  async ofUser(userId: string, tx: Db | Tx = this.db): Promise<BroadcastRoomRow | null> {
    const [row] = await tx.select().from(broadcastRooms).where(eq(broadcastRooms.userId, userId));
    return row ?? null;
  }

  async byBroadcasterCode(code: string): Promise<BroadcastRoomRow | null> {
    const [row] = await this.db.select().from(broadcastRooms).where(eq(broadcastRooms.broadcasterCode, code));
    return row ?? null;
  }

  async byViewerCode(code: string): Promise<BroadcastRoomRow | null> {
    const [row] = await this.db.select().from(broadcastRooms).where(eq(broadcastRooms.viewerCode, code));
    return row ?? null;
  }

  /** Creates the room unless the user has one (two first reads race harmlessly). */
  async create(row: typeof broadcastRooms.$inferInsert): Promise<void> {
    await this.db.insert(broadcastRooms).values(row).onConflictDoNothing({ target: broadcastRooms.userId });
  }

  async update(
    userId: string,
    set: Partial<Omit<typeof broadcastRooms.$inferInsert, 'userId'>>,
    tx: Db | Tx = this.db,
  ): Promise<BroadcastRoomRow | null> {
    const [row] = await tx.update(broadcastRooms).set(set).where(eq(broadcastRooms.userId, userId)).returning();
    return row ?? null;
  }

  async erase(tx: Tx, userId: string): Promise<void> {
    await tx.delete(broadcastRooms).where(eq(broadcastRooms.userId, userId));
  }
}
