import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ece from 'http_ece';
import { call } from './helpers/api';
import { freePort } from './helpers/free-port';
import { TEST_TLS_CERT, TEST_TLS_KEY } from './helpers/self-signed-tls';
import { signInThroughOidc } from './helpers/oidc-flow';
import { inviteCode } from './helpers/invite';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/**
 * A stand-in push service (what FCM or Mozilla's autopush are to a browser) on https with a
 * self-signed certificate: it keeps each request. Mixroom sends only to public addresses, so the
 * test names its loopback host in the test-only allow-list and hands over its certificate.
 */
interface Received {
  path: string;
  authorization: string;
  encoding: string;
  body: Buffer;
}

let server: TestServer;
let pushService: Server;
let pushPort: number;
const received: Received[] = [];
let answerGone = false;
const certDir = mkdtempSync(join(tmpdir(), 'mixroom-push-ca-'));

beforeAll(async () => {
  pushPort = await freePort();
  pushService = createServer({ cert: TEST_TLS_CERT, key: TEST_TLS_KEY }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        authorization: String(request.headers.authorization),
        encoding: String(request.headers['content-encoding']),
        body: Buffer.concat(chunks),
      });
      response.statusCode = answerGone ? 410 : 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(pushPort, '127.0.0.1', resolve));
  writeFileSync(join(certDir, 'ca.pem'), TEST_TLS_CERT);
  server = await startTestServer({ PUSH_TEST_ALLOW_HOSTS: '127.0.0.1', PUSH_TEST_CA_FILE: join(certDir, 'ca.pem') });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => pushService.close(() => resolve()));
  rmSync(certDir, { recursive: true, force: true });
});

/** A browser-side subscription: its own P-256 key pair and auth secret, as PushManager makes. */
function subscription(path: string) {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  const auth = randomBytes(16);
  return {
    keys,
    auth,
    body: {
      endpoint: `https://127.0.0.1:${pushPort}/${path}`,
      keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}

describe('Web Push', () => {
  it('pushes a join request to the publisher’s device, encrypted for that device and signed with VAPID', async () => {
    const publicKey = await call(server.url, '/api/push/public-key');
    expect(String(publicKey.body.publicKey)).toMatch(/^[A-Za-z0-9_-]{80,}$/);

    const ana = (await signInThroughOidc(server.url, { email: 'ana@push.test', password: 'ana-password' }))
      .access_token;
    const bob = (
      await signInThroughOidc(server.url, { email: 'bob@push.test', password: 'bob-password', displayName: 'Bob Bass' })
    ).access_token;
    const device = subscription('ana-laptop');
    expect(
      (
        await call(server.url, '/api/push/devices/ana-laptop-1', {
          method: 'PUT',
          token: ana,
          body: { subscription: device.body },
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await call(server.url, '/api/push/devices/x', {
          method: 'PUT',
          token: ana,
          body: { subscription: device.body },
        })
      ).status,
    ).toBe(400);

    const folder = await storageClient(server.url, ana).createFolder('Pushed', null);
    await call(server.url, '/api/join-requests', {
      method: 'POST',
      token: bob,
      body: { type: 'group', id: folder.id, invite: await inviteCode(server.url, ana, 'group', folder.id) },
    });
    const message = await waitFor(() => received.find((r) => r.path === '/ana-laptop'), { what: 'the push message' });
    expect(message.encoding).toBe('aes128gcm');
    expect(message.authorization).toMatch(/^vapid t=.+, k=/);
    const payload = JSON.parse(
      ece
        .decrypt(message.body, {
          version: 'aes128gcm',
          privateKey: device.keys,
          authSecret: device.auth.toString('base64url'),
        })
        .toString(),
    ) as { title: string; body: string };
    expect(payload).toMatchObject({ title: 'Join Request', body: 'Bob Bass asks to join “Pushed”.' });
  });

  it('forgets a device whose subscription is gone (410)', async () => {
    const cid = (await signInThroughOidc(server.url, { email: 'cid@push.test', password: 'cid-password' }))
      .access_token;
    const dee = (await signInThroughOidc(server.url, { email: 'dee@push.test', password: 'dee-password' }))
      .access_token;
    await call(server.url, '/api/push/devices/cid-phone-1', {
      method: 'PUT',
      token: cid,
      body: { subscription: subscription('cid-phone').body },
    });
    answerGone = true;
    const folder = await storageClient(server.url, cid).createFolder('Gone Device', null);
    await call(server.url, '/api/join-requests', {
      method: 'POST',
      token: dee,
      body: { type: 'group', id: folder.id, invite: await inviteCode(server.url, cid, 'group', folder.id) },
    });
    const cidId = JSON.parse(Buffer.from(cid.split('.')[1]!, 'base64url').toString()).sub as string;
    await waitFor(async () => (await server.context.services.pushDevices.devicesOf(cidId)).length === 0, {
      what: 'the device to be forgotten',
    });
    answerGone = false;
  });

  it('sends nothing to a user who turned push notifications off', async () => {
    const signUp = async (name: string) =>
      (await signInThroughOidc(server.url, { email: `${name}@push.test`, password: `${name}-password` })).access_token;
    const [eve, fay, gus] = [await signUp('eve'), await signUp('fay'), await signUp('gus')];
    for (const [token, path] of [
      [eve, 'eve-phone'],
      [gus, 'gus-phone'],
    ] as const)
      await call(server.url, `/api/push/devices/${path}-1`, {
        method: 'PUT',
        token,
        body: { subscription: subscription(path).body },
      });
    await call(server.url, '/api/me/notifications', {
      method: 'PUT',
      token: eve,
      body: { email: true, push: false, inApp: true },
    });
    for (const owner of [eve, gus]) {
      const folder = await storageClient(server.url, owner).createFolder('Quiet', null);
      await call(server.url, '/api/join-requests', {
        method: 'POST',
        token: fay,
        body: { type: 'group', id: folder.id, invite: await inviteCode(server.url, owner, 'group', folder.id) },
      });
    }
    // Push messages leave one queue in order: once Gus's has arrived, Eve's was decided.
    await waitFor(() => received.find((r) => r.path === '/gus-phone'), { what: 'the push to the other owner' });
    expect(received.filter((r) => r.path === '/eve-phone')).toEqual([]);
  });
});
