import { and, asc, count, eq, gte, lt, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { sfuNodes, sfuPlacements } from '../../db/schema';

/** A node that carries media, as the others see it. */
export interface SfuNodeRow {
  id: string;
  url: string;
  heartbeatAt: Date;
}

/** The only SQL of SFU routing: node presence and where each media room lives. */
export class SfuRoutingRepository {
  constructor(private readonly db: Db) {}

  async register(node: { id: string; url: string }, now: Date): Promise<void> {
    await this.db
      .insert(sfuNodes)
      .values({ ...node, startedAt: now, heartbeatAt: now })
      .onConflictDoUpdate({ target: sfuNodes.id, set: { url: node.url, heartbeatAt: now } });
  }

  /** False when the row is gone (swept while this node could not beat): the caller registers again. */
  async beat(id: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(sfuNodes)
      .set({ heartbeatAt: now })
      .where(eq(sfuNodes.id, id))
      .returning({ id: sfuNodes.id });
    return rows.length > 0;
  }

  /** A node's row and, by the foreign key, every room it holds. */
  async remove(id: string): Promise<void> {
    await this.db.delete(sfuNodes).where(eq(sfuNodes.id, id));
  }

  /** Forgets nodes silent since `before` (their rooms go with them). */
  async sweep(before: Date): Promise<number> {
    const rows = await this.db.delete(sfuNodes).where(lt(sfuNodes.heartbeatAt, before)).returning({ id: sfuNodes.id });
    return rows.length;
  }

  /** The node holding a room, alive or not. */
  async holder(roomKey: string): Promise<SfuNodeRow | null> {
    const [row] = await this.db
      .select({ id: sfuNodes.id, url: sfuNodes.url, heartbeatAt: sfuNodes.heartbeatAt })
      .from(sfuPlacements)
      .innerJoin(sfuNodes, eq(sfuNodes.id, sfuPlacements.nodeId))
      .where(eq(sfuPlacements.roomKey, roomKey));
    return row ?? null;
  }

  async node(id: string): Promise<SfuNodeRow | null> {
    const [row] = await this.db
      .select({ id: sfuNodes.id, url: sfuNodes.url, heartbeatAt: sfuNodes.heartbeatAt })
      .from(sfuNodes)
      .where(eq(sfuNodes.id, id));
    return row ?? null;
  }

  /** Nodes that beat since `aliveSince`, the one holding the fewest rooms first. */
  async liveNodes(aliveSince: Date): Promise<(SfuNodeRow & { rooms: number })[]> {
    const rooms = count(sfuPlacements.roomKey);
    return this.db
      .select({ id: sfuNodes.id, url: sfuNodes.url, heartbeatAt: sfuNodes.heartbeatAt, rooms })
      .from(sfuNodes)
      .leftJoin(sfuPlacements, eq(sfuPlacements.nodeId, sfuNodes.id))
      .where(gte(sfuNodes.heartbeatAt, aliveSince))
      .groupBy(sfuNodes.id)
      .orderBy(asc(rooms), asc(sfuNodes.id));
  }

  /**
   * Puts a room on a node unless a live node holds it already, in one statement: two nodes placing
   * the same room at once agree on one holder, and a gone holder's room is taken over.
   */
  async place(roomKey: string, nodeId: string, now: Date, aliveSince: Date): Promise<void> {
    const alive = this.db.select({ id: sfuNodes.id }).from(sfuNodes).where(gte(sfuNodes.heartbeatAt, aliveSince));
    await this.db
      .insert(sfuPlacements)
      .values({ roomKey, nodeId, placedAt: now })
      .onConflictDoUpdate({
        target: sfuPlacements.roomKey,
        set: { nodeId, placedAt: now },
        setWhere: notInArray(sfuPlacements.nodeId, alive),
      });
  }

  /**
   * Moves a room from `fromNodeId` to `toNodeId` only if `fromNodeId` still holds it (two nodes
   * taking it over at once agree: the second finds it moved). True when this call moved it.
   */
  async takeOver(roomKey: string, fromNodeId: string, toNodeId: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(sfuPlacements)
      .set({ nodeId: toNodeId, placedAt: now })
      .where(and(eq(sfuPlacements.roomKey, roomKey), eq(sfuPlacements.nodeId, fromNodeId)))
      .returning({ roomKey: sfuPlacements.roomKey });
    return rows.length > 0;
  }

  async roomsOf(nodeId: string): Promise<string[]> {
    const rows = await this.db
      .select({ roomKey: sfuPlacements.roomKey })
      .from(sfuPlacements)
      .where(eq(sfuPlacements.nodeId, nodeId));
    return rows.map((r) => r.roomKey);
  }
}
