import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ItemMode } from '../db/rows';
import { groups, projects } from '../db/schema';

type ItemTable = typeof groups | typeof projects;

/**
 * The one definition of "which rows of the item tables a query may return". Folders and projects
 * are twin tables (same path, publisher, flag and mode columns); every storage query, whatever
 * its table, goes through these predicates so the rules can't drift apart again:
 * - mode: a repository is bound to one area (STORAGE or TRANSFER) and never sees the other's rows;
 * - own flag: DELETE / DELETING rows are in the trash or being removed; a project flagged CREATE is
 *   still uploading and shows only to its collaborators (as an "Uploading…" tile);
 * - ancestors: an item under a trashed folder is as gone as the folder, even when it was shared
 *   on its own.
 * We keep two tables rather than one item model because their foreign keys differ (versions hang
 * off projects, folders nest through parent_id) and the migrations already hold data; one
 * predicate builder gives the same guarantee with no data move.
 */
export class ItemScope {
  constructor(readonly mode: ItemMode) {}

  /** The table's rows of this area only. */
  inMode(table: ItemTable): SQL {
    return eq(table.mode, this.mode);
  }

  /** Not in the trash itself; `uploading` admits projects still being created. */
  ownFlagLive(table: ItemTable, options: { uploading: boolean }): SQL {
    return options.uploading && table === projects
      ? inArray(projects.flag, ['NONE', 'CREATE'])
      : eq(table.flag, 'NONE');
  }

  /** No folder above the row (its path, itself excluded) is in the trash. */
  noTrashedAncestor(table: ItemTable): SQL {
    return sql`not exists (select 1 from ${groups} anc where anc.id = any(${table.path}) and anc.id <> ${table.id} and anc.flag <> 'NONE')`;
  }

  /** Everything a live listing of this area needs: mode, own flag and ancestors. */
  live(table: ItemTable, options: { uploading: boolean } = { uploading: true }): SQL {
    return and(this.inMode(table), this.ownFlagLive(table, options), this.noTrashedAncestor(table))!;
  }
}

export const STORAGE_SCOPE = new ItemScope('STORAGE');
export const TRANSFER_SCOPE = new ItemScope('TRANSFER');
