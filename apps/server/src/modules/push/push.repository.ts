import { and, eq } from 'drizzle-orm';
import type { PushSubscription } from 'web-push';
import type { Db } from '../../db/database';
import { systemClock, type Clock } from '../../platform/clock/clock';
import { pushDevices } from '../../db/schema';

export class PushRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  async save(userId: string, deviceId: string, subscription: PushSubscription): Promise<void> {
    const row = { userId, deviceId, subscription: JSON.stringify(subscription), lastUpdate: this.clock.now() };
    await this.db
      .insert(pushDevices)
      .values(row)
      .onConflictDoUpdate({
        target: [pushDevices.userId, pushDevices.deviceId],
        set: { subscription: row.subscription, lastUpdate: row.lastUpdate },
      });
  }

  async remove(userId: string, deviceId: string): Promise<void> {
    await this.db.delete(pushDevices).where(and(eq(pushDevices.userId, userId), eq(pushDevices.deviceId, deviceId)));
  }

  async devicesOf(userId: string): Promise<{ deviceId: string; subscription: PushSubscription }[]> {
    const rows = await this.db.select().from(pushDevices).where(eq(pushDevices.userId, userId));
    return rows.map((r) => ({ deviceId: r.deviceId, subscription: JSON.parse(r.subscription) as PushSubscription }));
  }
}
