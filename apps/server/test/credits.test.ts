import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Entitlements } from '../src/access/entitlements';
import { EntitlementsRepository } from '../src/access/entitlements.repository';
import type { Database } from '../src/db/database';
import { planGrants, users } from '../src/db/schema';
import { TestClock } from '../src/platform/clock/clock';
import type { EventBus } from '../src/platform/realtime/event-bus';
import { databaseBackends } from './helpers/database-backends';
import { CreditsRepository } from '../src/modules/credits/credits.repository';
import { CreditsService } from '../src/modules/credits/credits.service';

/**
 * The credits ledger on real databases: PGlite always, and PostgreSQL (where transactions truly run
 * side by side on a pool) when TEST_DATABASE_URL is set. Each "node" is its own service instance;
 * on PostgreSQL each node also has its own connection pool.
 */
const backends = databaseBackends('credits');
type Backend = (typeof backends)[number];

const published: string[] = [];
const bus: EventBus = {
  publish: async (event) => void published.push(`${event.type}@${event.topic}`),
  publishOrLog: async (event) => void published.push(`${event.type}@${event.topic}`),
  subscribe: () => () => undefined,
  onResumed: () => () => undefined,
  close: async () => undefined,
};

describe.each(backends)('credits on $name', (backend) => {
  let databases: Awaited<ReturnType<Backend['open']>>;
  const clock = new TestClock(new Date('2026-11-24T10:00:00Z'));
  let nodeA: CreditsService;
  let nodeB: CreditsService;
  let repository: CreditsRepository;

  const node = (database: Database) => {
    const entitlements = new Entitlements(new EntitlementsRepository(database.db), clock);
    return new CreditsService({ repository: new CreditsRepository(database.db), entitlements, clock, bus });
  };
  const newUser = async (email: string) => {
    const [row] = await databases.nodeA.db
      .insert(users)
      .values({ email, displayName: email.split('@')[0]! })
      .returning();
    return row!.id;
  };
  /** The kept balance always equals the ledger's sum. */
  const expectBalance = async (userId: string, balance: number) => {
    expect(await repository.balance(userId)).toBe(balance);
    expect(await repository.ledgerSum(userId)).toBe(balance);
  };

  beforeAll(async () => {
    databases = await backend.open();
    nodeA = node(databases.nodeA);
    nodeB = node(databases.nodeB);
    repository = new CreditsRepository(databases.nodeA.db);
  });
  afterAll(() => databases?.close());

  it('gives the monthly grant once when two nodes run the job at the same time, and again next month', async () => {
    const free = await newUser('free@credits.test');
    const studio = await newUser('studio@credits.test');
    await databases.nodeA.db
      .insert(planGrants)
      .values({ userId: studio, sku: 'STUDIO', startsAt: new Date('2026-01-01T00:00:00Z') });
    const before = published.length;

    const runs = await Promise.all([
      nodeA.grantMonthlyToAll(1),
      nodeB.grantMonthlyToAll(1),
      nodeA.grantMonthlyToAll(),
      nodeB.grantMonthlyToAll(),
    ]);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
    await expectBalance(free, 20);
    await expectBalance(studio, 400);
    // Once more on the same day: nothing new.
    await Promise.all([
      nodeA.grantMonthlyToAll(),
      nodeB.grantMonthlyToAll(),
      nodeA.ensureMonthlyGrant(free),
      nodeB.ensureMonthlyGrant(studio),
    ]);
    await expectBalance(free, 20);
    await expectBalance(studio, 400);
    // Each owner's screens heard about their credits exactly once.
    expect(published.slice(before).filter((e) => e === `user.updated@user:${free}`)).toHaveLength(1);

    // December: a second grant; unused credits carry over.
    clock.set(new Date('2026-12-01T00:05:00Z'));
    await Promise.all([nodeA.grantMonthlyToAll(), nodeB.grantMonthlyToAll()]);
    await expectBalance(free, 40);
    await expectBalance(studio, 800);
    clock.set(new Date('2026-11-24T10:00:00Z'));
  });

  it('tops the month up when a bigger plan arrives mid-month, once', async () => {
    const user = await newUser('upgrade@credits.test');
    await nodeA.ensureMonthlyGrant(user);
    await expectBalance(user, 20);
    await databases.nodeA.db
      .insert(planGrants)
      .values({ userId: user, sku: 'ESSENTIAL', startsAt: new Date('2026-11-20T00:00:00Z') });
    await Promise.all([nodeA.ensureMonthlyGrant(user), nodeB.ensureMonthlyGrant(user), nodeA.balance(user)]);
    await expectBalance(user, 200);
  });

  it('50 concurrent spends of 5 on a balance of 20: exactly 4 succeed and the balance ends at 0', async () => {
    const user = await newUser('spender@credits.test');
    await nodeA.ensureMonthlyGrant(user);
    await expectBalance(user, 20);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? nodeA : nodeB).spend(user, 5, 'Stem separation', `task-spender-${i}`),
      ),
    );
    expect(results.filter((r) => r.status === 'spent')).toHaveLength(4);
    expect(results.filter((r) => r.status === 'insufficient')).toHaveLength(46);
    await expectBalance(user, 0);
    expect(await nodeA.canAfford(user, 5)).toBe(false);
    expect(await nodeA.canAfford(user, 0)).toBe(true);
  });

  it('a spend with one ref counts once, even when sent twice at the same time', async () => {
    const user = await newUser('twice@credits.test');
    expect(await nodeA.canAfford(user, 20)).toBe(true);
    const [first, second] = await Promise.all([
      nodeA.spend(user, 5, 'Voice conversion', 'task-twice'),
      nodeB.spend(user, 5, 'Voice conversion', 'task-twice'),
    ]);
    expect([first.status, second.status].sort()).toEqual(['already-spent', 'spent']);
    const third = await nodeA.spend(user, 5, 'Voice conversion', 'task-twice');
    expect(third).toEqual({ status: 'already-spent', balance: 15 });
    await expectBalance(user, 15);
    // Another account can't use (or learn the balance behind) someone else's reference.
    const other = await newUser('other@credits.test');
    await expect(nodeA.spend(other, 5, 'Voice conversion', 'task-twice')).rejects.toThrow(
      'This reference belongs to another account.',
    );
    await expectBalance(other, 20);
  });

  it('a refund restores what the spend took, once', async () => {
    const user = await newUser('refund@credits.test');
    expect((await nodeA.spend(user, 5, 'Stem separation', 'task-refund')).status).toBe('spent');
    await expectBalance(user, 15);
    const refunds = await Promise.all([nodeA.refund('task-refund'), nodeB.refund('task-refund')]);
    expect(refunds.map((r) => r.status).sort()).toEqual(['already-refunded', 'refunded']);
    await expectBalance(user, 20);
    await expect(nodeA.refund('task-never-spent')).rejects.toThrow('Nothing was spent for this reference.');
    const { entries } = await nodeA.mine({ userId: user, isAdmin: false, email: '', displayName: '' }, { limit: 10 });
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ['refund', 5],
      ['spend', -5],
      ['grant', 20],
    ]);
  });

  it('an administrator adjusts with a reason; taking more than the balance is refused', async () => {
    const admin = await newUser('admin@credits.test');
    const user = await newUser('adjusted@credits.test');
    const adminActor = { userId: admin, isAdmin: true, email: '', displayName: '' };
    const entry = await nodeA.adjust(adminActor, user, { amount: 30, reason: 'Support: failed render' });
    expect(entry).toMatchObject({ kind: 'adjustment', amount: 30, reason: 'Support: failed render' });
    await expectBalance(user, 50);
    await expect(nodeA.adjust(adminActor, user, { amount: -51, reason: 'Too much' })).rejects.toThrow(
      "Credits can't go below zero: this user has 50 credits.",
    );
    await expectBalance(user, 50);
    await expect(
      nodeA.adjust({ ...adminActor, userId: user, isAdmin: false }, user, { amount: 5, reason: 'Myself' }),
    ).rejects.toMatchObject({ status: 403 });
  });
});
