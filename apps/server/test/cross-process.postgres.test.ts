import { randomBytes, createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_PART_SIZE } from '../src/modules/uploads/uploads.service';
import { UsersRepository } from '../src/modules/users/users.repository';
import { call } from './helpers/api';
import { freePort } from './helpers/free-port';
import { signInThroughOidc, type Tokens } from './helpers/oidc-flow';
import { spawnServer, type Spawned } from './helpers/spawn-server';
import { createTestDatabase, startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

const adminUrl = process.env.TEST_DATABASE_URL ?? '';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let nodeA: TestServer;
let nodeB: Spawned;
let nodeBUrl: string;
let nodeBDir: string;
let admin: Tokens;
let member: Tokens;
const subjectOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

beforeAll(async () => {
  database = await createTestDatabase(adminUrl);
  const portA = await freePort();
  // Nodes of one installation share PUBLIC_URL (a load balancer would sit in front).
  const shared = { DATABASE_URL: database.url, PUBLIC_URL: `http://localhost:${portA}` };
  nodeA = await startTestServer({ ...shared, PORT: String(portA) });
  const portB = await freePort();
  nodeBDir = mkdtempSync(join(tmpdir(), 'mixroom-node-b-'));
  nodeB = spawnServer({ ...shared, PORT: String(portB), DATA_DIR: nodeBDir, LOG_LEVEL: 'warn' });
  nodeBUrl = `http://127.0.0.1:${portB}`;
  await waitFor(async () => (await fetch(`${nodeBUrl}/api/health`).catch(() => null))?.ok, {
    timeoutMs: 60_000,
    what: 'node B',
  });
  admin = await signInThroughOidc(nodeA.url, { email: 'admin@pg.test', password: 'admin-password' });
  member = await signInThroughOidc(nodeA.url, { email: 'member@pg.test', password: 'member-password' });
});

afterAll(async () => {
  nodeB.child.kill('SIGTERM');
  await nodeB.exited;
  await nodeA.close();
  rmSync(nodeBDir, { recursive: true, force: true });
  await database.drop();
});

describe('two Mixroom processes on one PostgreSQL', () => {
  it('accept each other’s tokens (shared signing keys in the database)', async () => {
    const me = await call(nodeBUrl, '/api/me', { token: member.access_token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('member@pg.test');
  });

  it('deliver an event published on node A to a browser connected to node B', async () => {
    const memberId = subjectOf(member.access_token);
    const client = await connectRealtime(nodeBUrl);
    await client.auth(member.access_token);
    expect(await client.subscribe(`user:${memberId}`)).toMatchObject({ type: 'subscribed' });

    const granted = await call(nodeA.url, `/api/admin/users/${memberId}/plans`, {
      method: 'POST',
      token: admin.access_token,
      body: { sku: 'STUDIO' },
    });
    expect(granted.status).toBe(201);
    const event = await waitFor(() => client.events().find((e) => e.type === 'user.updated'), {
      what: 'the event on node B',
    });
    expect(event.data).toEqual({ userId: memberId });
    expect((await call(nodeBUrl, '/api/me', { token: member.access_token })).body).toMatchObject({
      limits: { storageMb: 5_000_000 },
    });
    client.close();
  });
});

describe('the data layer on PostgreSQL', () => {
  it('reports a healthy database, storage and queue', async () => {
    expect((await call(nodeA.url, '/api/health')).body).toMatchObject({ status: 'ok' });
  });

  it('makes exactly one administrator when first sign-ups race', async () => {
    const fresh = await createTestDatabase(adminUrl);
    const server = await startTestServer({ DATABASE_URL: fresh.url });
    try {
      const repo = new UsersRepository(server.context.database.db);
      const created = await Promise.all(
        Array.from({ length: 6 }, (_, i) => repo.create({ email: `racer${i}@pg.test`, displayName: `Racer ${i}` })),
      );
      expect(created.filter((u) => u.isAdmin)).toHaveLength(1);
    } finally {
      await server.close();
      await fresh.drop();
    }
  });

  it('records multipart parts and completes an upload', async () => {
    const owner = subjectOf(member.access_token);
    const uploads = nodeA.context.services.uploads;
    const source = randomBytes(MIN_PART_SIZE + 1000);
    const session = await uploads.start(owner, 'pg/test.bin', source.length, MIN_PART_SIZE);
    for (const partNumber of [2, 1]) {
      const { url } = await uploads.partUrl(owner, session.id, partNumber);
      const bytes = source.subarray((partNumber - 1) * MIN_PART_SIZE, partNumber * MIN_PART_SIZE);
      const response = await fetch(url, { method: 'PUT', body: bytes });
      await uploads.recordPart(owner, session.id, {
        partNumber,
        etag: response.headers.get('etag') ?? '',
        size: bytes.length,
      });
    }
    expect((await uploads.get(owner, session.id)).parts.map((p) => p.partNumber)).toEqual([1, 2]);
    await uploads.complete(owner, session.id);
    const stored = Buffer.concat(await (await nodeA.context.blobs.get('pg/test.bin')).toArray());
    expect(createHash('sha256').update(stored).digest('hex')).toBe(createHash('sha256').update(source).digest('hex'));
  });
});
