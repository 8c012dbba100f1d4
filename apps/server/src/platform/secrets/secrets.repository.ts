import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { appSecrets } from '../../db/schema';

/**
 * Secrets generated once and shared by every node through the database (signing keys, cookie keys,
 * URL-signing key, VAPID keys). The first writer wins; others read what it wrote.
 */
export class SecretsRepository {
  constructor(private readonly db: Db) {}

  async getOrCreate<T>(key: string, create: () => T | Promise<T>): Promise<T> {
    const existing = await this.db.select().from(appSecrets).where(eq(appSecrets.key, key));
    if (existing[0]) return existing[0].value as T;
    await this.db
      .insert(appSecrets)
      .values({ key, value: await create() })
      .onConflictDoNothing();
    const [row] = await this.db.select().from(appSecrets).where(eq(appSecrets.key, key));
    if (!row) throw new Error(`Secret ${key} could not be stored`);
    return row.value as T;
  }
}
