import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntitlementsRepository } from '../src/access/entitlements.repository';
import { billingSubscriptions, creditBalances, groups, liveUsage, projects, users, versions } from '../src/db/schema';
import { databaseBackends, type OpenedBackend } from './helpers/database-backends';

/**
 * `/api/me` reads the month's usage as columns of one statement. On both databases, that statement
 * must say what each fact's own read says, sizes beyond 32 bits and empty accounts included.
 */
const SINCE = new Date('2026-11-01T00:00:00Z');
const PERIOD = '2026-11';
const GIB = 1024 ** 3;

describe.each(databaseBackends('usage'))('usage in one statement on $name', (backend) => {
  let opened: OpenedBackend;
  let facts: EntitlementsRepository;
  const newUser = async (email: string) => {
    const [row] = await opened.nodeA.db.insert(users).values({ email, displayName: email }).returning();
    return row!.id;
  };

  beforeAll(async () => {
    opened = await backend.open();
    facts = new EntitlementsRepository(opened.nodeA.db);
  });
  afterAll(() => opened.close());

  it('equals the separate reads: storage by kind, transfers this month, live time, balance, subscriptions', async () => {
    const db = opened.nodeA.db;
    const ana = await newUser('ana@usage.test');
    const folder = (await db.insert(groups).values({ name: 'Mixes', path: [], publisherId: ana }).returning())[0]!;
    const project = async (values: Partial<typeof projects.$inferInsert>) =>
      (
        await db
          .insert(projects)
          .values({ name: 'p', type: 'ANY', path: [], publisherId: ana, ...values })
          .returning()
      )[0]!;
    const version = (projectId: string, fileSize: number, number = 1) =>
      db.insert(versions).values({
        projectId,
        number,
        name: 'v',
        fileName: 'v.wav',
        fileExtension: 'wav',
        fileSize,
        blobKey: `k-${projectId}-${number}`,
        status: 'ready',
      });
    const song = await project({ groupId: folder.id });
    await version(song.id, 5 * GIB);
    await version(song.id, 3 * GIB + 7, 2);
    await version((await project({ parentProjectId: song.id })).id, 1234);
    await version((await project({ groupId: folder.id, deletedAt: new Date('2026-11-10T00:00:00Z') })).id, 999);
    const sentNow = await db
      .insert(groups)
      .values({
        name: 'To Rita',
        path: [],
        publisherId: ana,
        mode: 'TRANSFER',
        createdAt: new Date('2026-11-20T00:00:00Z'),
      })
      .returning();
    await version((await project({ groupId: sentNow[0]!.id, mode: 'TRANSFER' })).id, 2 * GIB);
    await db.insert(groups).values({
      name: 'Old',
      path: [],
      publisherId: ana,
      mode: 'TRANSFER',
      createdAt: new Date('2026-10-20T00:00:00Z'),
    });
    await db.insert(liveUsage).values({ userId: ana, period: PERIOD, ms: 90 * 60_000 + 5 });
    await db.insert(liveUsage).values({ userId: ana, period: '2026-10', ms: 60_000 });
    await db.insert(creditBalances).values({ userId: ana, balance: 137 });
    await db.insert(billingSubscriptions).values({
      externalId: 'sub-usage',
      userId: ana,
      shopSku: 'STUDIO',
      sku: 'STUDIO',
      interval: 'month',
      status: 'active',
      startsAt: SINCE,
    });

    const usage = await facts.usage(ana, SINCE, PERIOD);
    expect(usage).toEqual({
      storage: await facts.storageUse(ana),
      transfers: await facts.transfersSince(ana, SINCE),
      liveMs: await facts.liveMsIn(ana, PERIOD),
      balance: await facts.creditBalance(ana),
      hasSubscriptions: true,
    });
    // The separate reads themselves, so both sides cannot be wrong alike.
    expect(usage.storage).toEqual([
      { kind: 'projects', bytes: 8 * GIB + 7 },
      { kind: 'transfers', bytes: 2 * GIB },
      { kind: 'attachments', bytes: 1234 },
      { kind: 'trash', bytes: 999 },
    ]);
    expect(usage).toMatchObject({ transfers: 1, liveMs: 90 * 60_000 + 5, balance: 137 });
  });

  it('reads an account with nothing counted as zeros and no subscriptions', async () => {
    const ben = await newUser('ben@usage.test');
    expect(await facts.usage(ben, SINCE, PERIOD)).toEqual({
      storage: [],
      transfers: 0,
      liveMs: 0,
      balance: 0,
      hasSubscriptions: false,
    });
  });
});
