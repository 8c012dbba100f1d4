import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './database';

/** A uuid[] literal built from bound parameters (never string-concatenated). */
export function uuidArray(ids: readonly string[]): SQL {
  if (ids.length === 0) return sql`'{}'::uuid[]`;
  return sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
}

/** Escapes LIKE wildcards so user input matches literally. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Runs raw SQL and returns its rows. Both drivers (pg and PGlite) answer with `{ rows }`, but the
 * shared Db type cannot say so: this is the one place that knows.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
