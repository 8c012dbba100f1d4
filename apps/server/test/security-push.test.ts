import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../src/platform/net/public-address';
import {
  checkPushEndpoint,
  postToPushEndpoint,
  PUSH_ENDPOINT_NOT_HTTPS,
  PUSH_ENDPOINT_NOT_PUBLIC,
} from '../src/platform/push/push-endpoint';
import { call } from './helpers/api';
import { freePort } from './helpers/free-port';
import { signInThroughOidc } from './helpers/oidc-flow';
import { TEST_TLS_CERT, TEST_TLS_KEY } from './helpers/self-signed-tls';
import { startTestServer, type TestServer } from './helpers/test-server';

/**
 * Push endpoints come from browsers and the server POSTs to them, so they must not reach this host
 * or its networks (blind SSRF). This server runs with the default configuration: no allow-list.
 */
let server: TestServer;
let token: string;
let localService: Server;
let localPort: number;
const hits: string[] = [];
let silent: Server;
let silentPort: number;

beforeAll(async () => {
  localPort = await freePort();
  localService = createServer({ cert: TEST_TLS_CERT, key: TEST_TLS_KEY }, (request, response) => {
    hits.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.writeHead(201).end());
  });
  await new Promise<void>((resolve) => localService.listen(localPort, '127.0.0.1', resolve));
  silentPort = await freePort();
  // Accepts the request and never answers.
  silent = createServer({ cert: TEST_TLS_CERT, key: TEST_TLS_KEY }, (request) => request.resume());
  await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
  server = await startTestServer();
  token = (await signInThroughOidc(server.url, { email: 'eve@ssrf.test', password: 'eve-password' })).access_token;
});
afterAll(async () => {
  await server.close();
  silent.closeAllConnections();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
  await new Promise<void>((resolve) => localService.close(() => resolve()));
});

function subscriptionTo(endpoint: string) {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  return {
    endpoint,
    keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

const subscribe = (endpoint: string) =>
  call(server.url, '/api/push/devices/eve-device-1', {
    method: 'PUT',
    token,
    body: { subscription: subscriptionTo(endpoint) },
  });

describe('push subscriptions', () => {
  it.each([
    ['loopback', () => `https://127.0.0.1:${localPort}/loopback`],
    ['10/8', () => 'https://10.20.30.40/push'],
    ['the cloud metadata address', () => 'https://169.254.169.254/latest/meta-data'],
    ['a name that resolves to 127.0.0.1', () => `https://localhost:${localPort}/named`],
    ['IPv6 loopback', () => `https://[::1]:${localPort}/v6`],
    ['IPv4-mapped loopback', () => `https://[::ffff:127.0.0.1]:${localPort}/mapped`],
    ['carrier-grade NAT', () => 'https://100.64.0.9/push'],
    ['172.16/12', () => 'https://172.31.255.1/push'],
  ])('refuses %s with a clear 400', async (_name, endpoint) => {
    const answer = await subscribe(endpoint());
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ code: 'PUSH_ENDPOINT_REFUSED', message: PUSH_ENDPOINT_NOT_PUBLIC });
  });

  it('refuses plain http', async () => {
    const answer = await subscribe('http://push.example.com/send/abc');
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toBe(PUSH_ENDPOINT_NOT_HTTPS);
  });

  it('stores nothing for a refused endpoint and contacted nobody', async () => {
    const eveId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
    expect(await server.context.services.pushDevices.devicesOf(eveId)).toEqual([]);
    expect(hits).toEqual([]);
  });
});

describe('sending', () => {
  it('checks again at send time: a saved endpoint whose name now points at loopback is not contacted and is forgotten', async () => {
    // As if the name had resolved to a public address when it was saved (DNS rebinding).
    const device = { deviceId: 'rebound-1', subscription: subscriptionTo(`https://localhost:${localPort}/rebound`) };
    const { gone } = await server.context.services.push.send([device], { title: 't', body: 'b', url: '/' });
    expect(gone).toEqual(['rebound-1']);
    expect(hits).toEqual([]);
  });

  it('connects to the address that was checked, not to a second lookup of the name', async () => {
    // push.invalid resolves nowhere: the request can only arrive if it went to the pinned address,
    // and TLS still verified the certificate against the name.
    const policy = { allowHosts: [], extraCa: TEST_TLS_CERT, timeoutMs: 5000 };
    const target = {
      url: new URL(`https://push.invalid:${localPort}/pinned`),
      address: '127.0.0.1',
      family: 4 as const,
      allowListed: true,
    };
    expect(await postToPushEndpoint(target, { headers: {}, body: Buffer.from('x') }, policy)).toBe(201);
    expect(hits).toEqual(['/pinned']);
  });

  it('gives up on a push service that does not answer in time', async () => {
    const policy = { allowHosts: ['127.0.0.1'], extraCa: TEST_TLS_CERT, timeoutMs: 300 };
    const target = await checkPushEndpoint(`https://127.0.0.1:${silentPort}/never`, policy);
    await expect(postToPushEndpoint(target, { headers: {}, body: Buffer.from('x') }, policy)).rejects.toThrow(
      /did not answer within 300 ms/,
    );
  });

  it('does not trust a self-signed certificate without the test CA', async () => {
    const policy = { allowHosts: ['127.0.0.1'], extraCa: null, timeoutMs: 5000 };
    const target = await checkPushEndpoint(`https://127.0.0.1:${localPort}/untrusted`, policy);
    await expect(postToPushEndpoint(target, { headers: {}, body: Buffer.from('x') }, policy)).rejects.toThrow(
      /self-signed|certificate/,
    );
  });
});

describe('public addresses', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::',
    '::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '142.250.74.110', '2606:4700:4700::1111', '2a00:1450:4001::200e'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
