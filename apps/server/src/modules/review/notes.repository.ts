import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { VersionRow } from '../../db/rows';
import { versions } from '../../db/schema';

/** A version's rich-text notes: the review owns these two columns of the versions table. */
export class NotesRepository {
  constructor(private readonly db: Db) {}

  async save(versionId: string, html: string, at: Date): Promise<VersionRow> {
    const [row] = await this.db
      .update(versions)
      .set({ note: html, noteUpdatedAt: at })
      .where(eq(versions.id, versionId))
      .returning();
    if (!row) throw new Error('update matched nothing');
    return row;
  }
}
