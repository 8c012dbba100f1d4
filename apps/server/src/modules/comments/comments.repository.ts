import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { systemClock, type Clock } from '../../platform/clock/clock';
import { comments, users } from '../../db/schema';

export type CommentRow = typeof comments.$inferSelect;

export class CommentsRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  async find(id: string): Promise<CommentRow | null> {
    const [row] = await this.db.select().from(comments).where(eq(comments.id, id));
    return row ?? null;
  }

  /** Top-level comments newest first; replies oldest first (a conversation reads downwards). */
  async forVersion(versionId: string): Promise<{ top: CommentRow[]; replies: CommentRow[] }> {
    const rows = await this.db
      .select()
      .from(comments)
      .where(eq(comments.versionId, versionId))
      .orderBy(desc(comments.createdAt));
    return {
      top: rows.filter((r) => !r.parentId),
      replies: rows.filter((r) => r.parentId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
    };
  }

  async insert(values: typeof comments.$inferInsert): Promise<CommentRow> {
    const [row] = await this.db.insert(comments).values(values).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async updateText(id: string, text: string): Promise<void> {
    await this.db.update(comments).set({ text, updatedAt: this.clock.now() }).where(eq(comments.id, id));
  }

  async setResolved(id: string, resolved: { at: Date; by: string } | null): Promise<void> {
    await this.db
      .update(comments)
      .set({ resolvedAt: resolved?.at ?? null, resolvedBy: resolved?.by ?? null })
      .where(eq(comments.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(comments).where(eq(comments.id, id));
  }

  async authors(ids: string[]) {
    if (ids.length === 0) return [];
    return this.db
      .select({ id: users.id, displayName: users.displayName, photoUrl: users.photoUrl })
      .from(users)
      .where(inArray(users.id, [...new Set(ids)]))
      .orderBy(asc(users.id));
  }
}
