import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@mixroom/shared';
import { call } from './helpers/api';
import { startDatabaseLink, type DatabaseLink } from './helpers/database-link';
import { refreshTokens, signInThroughOidc, WEB_CLIENT_ID } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { createTestDatabase, startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

/**
 * PostgreSQL unreachable for a while (restarted, failed over, a network blip): requests fail with a
 * clear 503 that says to retry, nothing is half written, and the node recovers by itself — pool,
 * queue and the realtime LISTEN connection — without a restart. Runs where TEST_DATABASE_URL is set
 * (the test script leaves *.postgres.test.ts out elsewhere).
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let link: DatabaseLink;
let server: TestServer;
let token: string;
let refreshToken: string;

beforeAll(async () => {
  database = await createTestDatabase(adminUrl);
  link = await startDatabaseLink(Number(new URL(adminUrl).port || 5432));
  server = await startTestServer({ DATABASE_URL: link.through(database.url) });
  const tokens = await signInThroughOidc(server.url, { email: 'ana@outage.test', password: 'ana-password-long' });
  token = tokens.access_token;
  refreshToken = tokens.refresh_token!;
}, 120_000);

afterAll(async () => {
  await server.close();
  await link.close();
  await database.drop();
});

describe('the database out of reach', () => {
  it('answers 503 with a retry hint while it lasts, keeps nothing half written, and recovers without a restart', async () => {
    const ana = storageClient(server.url, token);
    const me = ((await call(server.url, '/api/me', { token })).body as { id: string }).id;
    await ana.createFolder('Before', null);
    const socket = await connectRealtime(server.url);
    await socket.auth(token);
    await socket.subscribe(`user:${me}`);

    await link.cut();
    const during = await call(server.url, '/api/groups', {
      method: 'POST',
      token,
      body: { name: 'During', parentId: null },
    });
    expect(during.status).toBe(503);
    expect(during.body.error).toEqual({ code: 'UNAVAILABLE', message: MESSAGES.serviceUnavailable });
    expect(during.headers.get('retry-after')).toBe('5');
    expect((await call(server.url, '/api/groups/root/items', { token })).status).toBe(503);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(503);
    // The sign-in provider's token renewal says the same (its own answer to a storage failure is 500).
    const renewal = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: WEB_CLIENT_ID }),
    });
    expect(renewal.status).toBe(503);
    expect(renewal.headers.get('retry-after')).toBe('5');
    expect(await renewal.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: MESSAGES.serviceUnavailable,
    });

    await link.restore();
    await waitFor(async () => (await call(server.url, '/api/groups/root/items', { token })).status === 200, {
      timeoutMs: 60_000,
      what: 'the node back on its database',
    });
    await ana.createFolder('After', null);
    const names = (await ana.list(null)).items.map((item) => item.name).sort();
    expect(names).toEqual(['After', 'Before']);
    // The requests may come back before the node's event fan-out listens again, and what was
    // published in between is lost: once it listens, the open socket is told to refetch…
    await waitFor(() => socket.messages.find((m) => m.type === 'resync'), {
      timeoutMs: 60_000,
      what: 'the socket told to refetch',
    });
    // …and a change made now reaches it as an event.
    const seen = socket.events().length;
    await ana.createFolder('Later', null);
    await waitFor(
      () =>
        socket
          .events()
          .slice(seen)
          .find((e) => e.type === 'storage.changed' && e.data.action === 'created'),
      { timeoutMs: 60_000, what: 'a storage event after the outage' },
    );
    await waitFor(async () => (await fetch(`${server.url}/api/health`)).status === 200, {
      timeoutMs: 60_000,
      what: 'health ok again',
    });
    // The refresh token the failed renewal carried still renews.
    expect((await refreshTokens(server.url, refreshToken)).access_token).toBeTruthy();
    socket.close();
  });

  it('a connection cut while a transaction holds it fails that transaction and does not end the process', async () => {
    // Found by the load harness: a lent-out client whose connection dropped emitted an 'error'
    // nobody listened to, and the node died with the database cut.
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const { db } = server.context.database;
      const transaction = db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        holding();
        await gate;
        await tx.execute(sql`select 1`);
      });
      const outcome = transaction.then(
        () => 'committed',
        () => 'failed',
      );
      await held;
      // The next query meets the dropped connection; the client reports the drop as an 'error'
      // in the same turn as it fails the query.
      await link.cut();
      release();
      expect(await outcome).toBe('failed');
      await link.restore();
      await waitFor(async () => (await call(server.url, '/api/groups/root/items', { token })).status === 200, {
        timeoutMs: 60_000,
        what: 'the node back on its database',
      });
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });
});
