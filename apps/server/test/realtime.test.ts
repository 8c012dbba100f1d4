import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../src/platform/jobs/job-definition';
import { call } from './helpers/api';
import { signInThroughOidc, type Tokens } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer;
let admin: Tokens;
let member: Tokens;
const subjectOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInThroughOidc(server.url, { email: 'admin@rt.test', password: 'admin-password' });
  member = await signInThroughOidc(server.url, { email: 'member@rt.test', password: 'member-password' });
});
afterAll(() => server.close());

describe('realtime WebSocket', () => {
  it('closes a connection that sends an invalid token', async () => {
    const client = await connectRealtime(server.url);
    client.send({ type: 'auth', token: 'forged' });
    await waitFor(() => client.closeCode() === 4401, { what: 'close 4401' });
  });

  it('refuses subscriptions before authentication', async () => {
    const client = await connectRealtime(server.url);
    client.send({ type: 'subscribe', topic: 'admin' });
    await waitFor(() => client.closeCode() === 4401, { what: 'close 4401' });
  });

  it('lets a user follow only the topics they may see', async () => {
    const client = await connectRealtime(server.url);
    await client.auth(member.access_token);
    expect(await client.subscribe(`user:${subjectOf(member.access_token)}`)).toMatchObject({ type: 'subscribed' });
    expect(await client.subscribe(`user:${subjectOf(admin.access_token)}`)).toMatchObject({ type: 'denied' });
    expect(await client.subscribe('admin')).toMatchObject({ type: 'denied' });
    expect(await client.subscribe('group:unknown-kind-of-id')).toMatchObject({ type: 'denied' });
    client.close();
  });

  it('delivers a domain event to the subscribed user and to no one else', async () => {
    const memberId = subjectOf(member.access_token);
    const mine = await connectRealtime(server.url);
    await mine.auth(member.access_token);
    await mine.subscribe(`user:${memberId}`);
    const adminClient = await connectRealtime(server.url);
    await adminClient.auth(admin.access_token);
    await adminClient.subscribe(`user:${subjectOf(admin.access_token)}`);

    const granted = await call(server.url, `/api/admin/users/${memberId}/plans`, {
      method: 'POST',
      token: admin.access_token,
      body: { sku: 'ESSENTIAL' },
    });
    expect(granted.status).toBe(201);
    const event = await waitFor(() => mine.events().find((e) => e.type === 'user.updated'), { what: 'user.updated' });
    expect(event).toMatchObject({ topic: `user:${memberId}`, data: { userId: memberId } });
    // The admin's socket got nothing: its next ping answer arrives with no event before it.
    adminClient.send({ type: 'ping' });
    await waitFor(() => adminClient.messages.some((m) => m.type === 'pong'));
    expect(adminClient.events()).toEqual([]);
    mine.close();
    adminClient.close();
  });

  it('lets a socket re-authenticate with a renewed token', async () => {
    const client = await connectRealtime(server.url);
    await client.auth(member.access_token);
    client.send({ type: 'auth', token: member.access_token });
    await waitFor(() => client.messages.filter((m) => m.type === 'ready').length === 2, { what: 'second ready' });
    expect(client.closeCode()).toBeNull();
    client.close();
  });
});

describe('jobs', () => {
  it('runs a defined job, validates its payload and publishes progress on its topic', async () => {
    const memberId = subjectOf(member.access_token);
    const seen: number[] = [];
    const probe = defineJob(
      { name: 'test.probe', schema: z.object({ steps: z.number().int().min(1) }) },
      async ({ steps }, context) => {
        for (let i = 1; i <= steps; i++) {
          seen.push(i);
          await context.progress((i / steps) * 100);
        }
      },
    );
    await server.context.jobs.start([probe], { work: () => true });

    const client = await connectRealtime(server.url);
    await client.auth(member.access_token);
    await client.subscribe(`user:${memberId}`);
    await expect(server.context.jobs.send(probe, { steps: 0 })).rejects.toThrow();
    const jobId = await server.context.jobs.send(probe, { steps: 4 }, { topic: `user:${memberId}` });

    await waitFor(() => client.events().some((e) => e.type === 'job.completed' && e.data.jobId === jobId), {
      what: 'job.completed',
    });
    const progress = client
      .events()
      .filter((e) => e.type === 'job.progress')
      .map((e) => e.data.percent);
    expect(progress).toEqual([25, 50, 75, 100]);
    expect(seen).toEqual([1, 2, 3, 4]);
    client.close();
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then refuses new ones', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-shutdown-'));
    const local = await startTestServer({}, { keepDataDir: dataDir });
    const url = await local.context.blobs.signUploadUrl('t/slow.bin', { expiresInSeconds: 60 });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const parts = ['first half, ', 'second half'];
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 1) await gate;
        const next = parts[sent++];
        if (next === undefined) return controller.close();
        controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const upload = fetch(url, { method: 'PUT', body, duplex: 'half' });
    // The handler is mid-request once the store's temporary file exists.
    const folder = join(dataDir, 'blobs', 'objects', 't');
    await waitFor(() => existsSync(folder) && readdirSync(folder).some((f) => f.endsWith('.tmp')), {
      what: 'the upload in flight',
    });
    const stopping = local.stop();
    release();
    expect((await upload).status).toBe(200);
    await stopping;
    expect(readFileSync(join(folder, 'slow.bin'), 'utf8')).toBe('first half, second half');
    await expect(fetch(`${local.url}/api/health`)).rejects.toThrow();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
