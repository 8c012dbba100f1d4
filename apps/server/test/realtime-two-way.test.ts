import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../src/platform/jobs/job-definition';
import { call } from './helpers/api';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer;
let ana: ReturnType<typeof storageClient>;
let anaToken: string;

beforeAll(async () => {
  server = await startTestServer();
  anaToken = (await signInThroughOidc(server.url, { email: 'ana@twoway.test', password: 'ana-password' })).access_token;
  ana = storageClient(server.url, anaToken);
});
afterAll(() => server.close());

const errors = (client: Awaited<ReturnType<typeof connectRealtime>>) =>
  client.messages.flatMap((m) => (m.type === 'error' ? [m] : []));

describe('client messages', () => {
  it('refuses an unknown type, a wrong shape and non-JSON with a clear error, and the socket stays up', async () => {
    const client = await connectRealtime(server.url);
    await client.auth(anaToken);
    client.send({ type: 'teleport', to: 'mars' });
    client.send({ type: 'subscribe' });
    client.send({ type: 'presence.join', topic: 'user:x', scope: 'has spaces' });
    client.send('not json at all');
    await waitFor(() => errors(client).length === 4, { what: 'four errors' });
    expect(errors(client)).toEqual([
      { type: 'error', code: 'UNKNOWN_TYPE', message: 'Unknown message type ("teleport").' },
      {
        type: 'error',
        code: 'BAD_MESSAGE',
        message: expect.stringMatching(/^Malformed "subscribe" message at topic: /),
      },
      {
        type: 'error',
        code: 'BAD_MESSAGE',
        message: expect.stringMatching(/^Malformed "presence.join" message at scope/),
      },
      // A JSON string is JSON but no message: it has no type.
      { type: 'error', code: 'UNKNOWN_TYPE', message: 'Unknown message type (missing).' },
    ]);
    client.send({ type: 'ping' });
    await waitFor(() => client.messages.some((m) => m.type === 'pong'), { what: 'pong' });
    expect(client.closeCode()).toBeNull();
    client.close();
  });

  it('refuses topic kinds nobody declared (a job topic is not a topic)', async () => {
    const client = await connectRealtime(server.url);
    await client.auth(anaToken);
    client.send({ type: 'subscribe', topic: 'job:123' });
    await waitFor(() => errors(client).length === 1, { what: 'refusal' });
    expect(errors(client)[0]).toMatchObject({
      code: 'BAD_MESSAGE',
      message: expect.stringContaining('Unknown topic.'),
    });
    client.close();
  });
});

describe('public grants for signed-out sockets', () => {
  it('follow the one shared folder, hear its events and nothing else, and are let go when the link is turned off', async () => {
    const shared = await ana.createFolder('Shared mixes', null);
    const other = await ana.createFolder('Private', null);
    const link = await ana.api<{ url: string }>(`/api/share/group/${shared.id}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const token = new URL(link.url).searchParams.get('shared_group')!;
    const granted = await call(server.url, '/api/public/realtime-grant', { method: 'POST', body: { token } });
    expect(granted.status).toBe(200);
    const { grant, topic } = granted.body as { grant: string; topic: string };
    expect(topic).toBe(`group:${shared.id}`);
    expect(
      (await call(server.url, '/api/public/realtime-grant', { method: 'POST', body: { token: 'x'.repeat(22) } }))
        .status,
    ).toBe(404);

    const visitor = await connectRealtime(server.url);
    visitor.send({ type: 'grant', grant });
    await waitFor(() => visitor.messages.find((m) => m.type === 'ready'), { what: 'ready' });
    expect(visitor.messages.find((m) => m.type === 'ready')).toEqual({ type: 'ready', userId: null, topic });
    expect(await visitor.subscribe(topic)).toMatchObject({ type: 'subscribed' });
    expect(await visitor.subscribe(`group:${other.id}`)).toMatchObject({ type: 'denied' });
    expect(await visitor.subscribe('admin')).toMatchObject({ type: 'denied' });
    const anaId = JSON.parse(Buffer.from(anaToken.split('.')[1]!, 'base64url').toString()).sub as string;
    expect(await visitor.subscribe(`user:${anaId}`)).toMatchObject({ type: 'denied' });
    // A visitor may watch but not be seen.
    visitor.send({ type: 'presence.join', topic, scope: 'listing' });
    await waitFor(() => errors(visitor).length === 1, { what: 'presence refusal' });
    expect(errors(visitor)[0]).toMatchObject({ code: 'NOT_SUBSCRIBED', message: 'Sign in to be seen.' });

    await ana.createFolder('Inside the share', shared.id);
    await ana.createFolder('Inside the private one', other.id);
    await waitFor(() => visitor.events().some((e) => e.type === 'storage.changed'), { what: 'the share changing' });
    // Ana's own socket proves the second change was published before we look at what the visitor got.
    const own = await connectRealtime(server.url);
    await own.auth(anaToken);
    await own.subscribe(`group:${other.id}`);
    await ana.createFolder('Second inside the private one', other.id);
    await waitFor(() => own.events().some((e) => e.type === 'storage.changed'), { what: 'the private change' });
    expect(visitor.events().every((e) => e.topic === topic)).toBe(true);

    await ana.api(`/api/share/group/${shared.id}/public-link`, { method: 'PUT', body: { isActive: false } });
    await waitFor(() => visitor.messages.some((m) => m.type === 'revoked' && m.topic === topic), { what: 'revoked' });
    visitor.messages.length = 0;
    expect(await visitor.subscribe(topic)).toMatchObject({ type: 'denied' });
    expect((await call(server.url, '/api/public/realtime-grant', { method: 'POST', body: { token } })).status).toBe(
      404,
    );
    visitor.close();
    own.close();
  });

  it('closes a socket with a forged grant, and a grant socket may not sign in as someone', async () => {
    const forged = await connectRealtime(server.url);
    forged.send({ type: 'grant', grant: 'eyJwIjoicmVhbHRpbWUtZ3JhbnQifQ.forged' });
    await waitFor(() => forged.closeCode() === 4401, { what: 'close 4401' });

    const folder = await ana.createFolder('Another share', null);
    const link = await ana.api<{ url: string }>(`/api/share/group/${folder.id}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const token = new URL(link.url).searchParams.get('shared_group')!;
    const { grant } = (await call(server.url, '/api/public/realtime-grant', { method: 'POST', body: { token } }))
      .body as {
      grant: string;
    };
    const visitor = await connectRealtime(server.url);
    visitor.send({ type: 'grant', grant });
    await waitFor(() => visitor.messages.find((m) => m.type === 'ready'), { what: 'ready' });
    visitor.send({ type: 'auth', token: anaToken });
    await waitFor(() => visitor.closeCode() === 4400, { what: 'close 4400' });
  });
});

describe('staged failure of jobs', () => {
  it('fires the final-failure hook once, on the last attempt only', async () => {
    const attempts: number[] = [];
    const finals: { payload: unknown; message: string }[] = [];
    const flaky = defineJob(
      { name: 'test.flaky', schema: z.object({ failTimes: z.number().int(), key: z.string() }), retryLimit: 2 },
      async ({ failTimes, key }) => {
        const count = attempts.push(1) && attempts.length;
        if (key === 'always' || count <= failTimes) throw new Error(`attempt ${count} failed`);
      },
      {
        onFinalFailure: async (payload, error) => {
          finals.push({ payload, message: error.message });
        },
      },
    );
    await server.context.jobs.start([flaky], { work: () => true });

    // Fails twice, succeeds on the third (last) attempt: retried, never final.
    const recovered = await server.context.jobs.send(flaky, { failTimes: 2, key: 'recovers' });
    await waitFor(async () => (await server.context.jobs.state(flaky.name, recovered)) === 'completed', {
      what: 'the recovering job',
    });
    expect(attempts).toHaveLength(3);
    expect(finals).toEqual([]);

    attempts.length = 0;
    const doomed = await server.context.jobs.send(flaky, { failTimes: 0, key: 'always' });
    await waitFor(async () => (await server.context.jobs.state(flaky.name, doomed)) === 'failed', {
      what: 'the failing job',
    });
    await waitFor(() => finals.length === 1, { what: 'the final-failure hook' });
    expect(attempts).toHaveLength(3);
    expect(finals).toEqual([{ payload: { failTimes: 0, key: 'always' }, message: 'attempt 3 failed' }]);
  });
});
