import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/database';
import { versionDifferences, versions } from '../../db/schema';

export type DifferenceRow = typeof versionDifferences.$inferSelect;
export interface DifferencePair {
  versionId: string;
  otherVersionId: string;
}

const of = (pair: DifferencePair) =>
  and(eq(versionDifferences.versionId, pair.versionId), eq(versionDifferences.otherVersionId, pair.otherVersionId));

/** The kept "what changed" lanes, one row per ordered pair of versions. */
export class DifferenceRepository {
  constructor(private readonly db: Db) {}

  async find(pair: DifferencePair): Promise<DifferenceRow | null> {
    const [row] = await this.db.select().from(versionDifferences).where(of(pair));
    return row ?? null;
  }

  /** A pending row for a pair not asked for before; false when another request made it first. */
  async create(tx: Tx, pair: DifferencePair, at: Date): Promise<boolean> {
    const made = await tx
      .insert(versionDifferences)
      .values({ ...pair, updatedAt: at })
      .onConflictDoNothing()
      .returning({ versionId: versionDifferences.versionId });
    return made.length > 0;
  }

  /** Back to pending (a retry, or a lane kept from before offsets were checked); false when the row is not in `from`. */
  async restart(tx: Tx, pair: DifferencePair, from: DifferenceRow['status'], at: Date): Promise<boolean> {
    const made = await tx
      .update(versionDifferences)
      .set({ status: 'pending', progress: 0, error: null, updatedAt: at })
      .where(and(of(pair), eq(versionDifferences.status, from)))
      .returning({ versionId: versionDifferences.versionId });
    return made.length > 0;
  }

  /** The project of A, whose review screen shows the lane. */
  async projectIdOf(versionId: string, tx: Tx | Db = this.db): Promise<string | null> {
    const [row] = await tx
      .select({ projectId: versions.projectId })
      .from(versions)
      .where(eq(versions.id, versionId))
      .limit(1);
    return row?.projectId ?? null;
  }

  async progress(pair: DifferencePair, progress: number, at: Date): Promise<void> {
    await this.db.update(versionDifferences).set({ progress, updatedAt: at }).where(of(pair));
  }

  /** The lane stored, in the transaction that completes its stage; only over a pending row. */
  async finish(
    tx: Tx,
    pair: DifferencePair,
    result: { offsetSeconds: number | null; overall: unknown; windowSeconds: number; levels: Buffer },
    at: Date,
  ): Promise<void> {
    await tx
      .update(versionDifferences)
      .set({ ...result, status: 'ready', progress: 100, error: null, updatedAt: at })
      .where(and(of(pair), eq(versionDifferences.status, 'pending')));
  }

  async fail(pair: DifferencePair, error: string, at: Date, tx: Tx | Db = this.db): Promise<void> {
    await tx
      .update(versionDifferences)
      .set({ status: 'failed', error, updatedAt: at })
      .where(and(of(pair), eq(versionDifferences.status, 'pending')));
  }
}
