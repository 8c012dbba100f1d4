import { existsSync, readdirSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorTransfer, Version } from '@mixroom/contracts';
import { call } from './helpers/api';
import { connectorSteps } from './helpers/connector-steps';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';
import { writeWav } from './helpers/wav';
import { startWebdav, type TestWebdav } from './helpers/webdav';

/** One GET of the file as the provider served it: the range asked for and the bytes that left. */
interface ServedGet {
  range: string | null;
  bytes: number;
}

/**
 * A WebDAV server (webdav-server) behind a relay that passes every call through, except that it
 * cuts the first GET of a file once `cutAfter` bytes have left: the provider failing mid-file.
 */
async function startCuttingRelay(
  dav: TestWebdav,
  cutAfter: number,
): Promise<{ url: string; gets: ServedGet[]; server: Server }> {
  const target = new URL(dav.url);
  const gets: ServedGet[] = [];
  const server = createServer((incoming, outgoing) => {
    const isGet = incoming.method === 'GET';
    const served: ServedGet = { range: incoming.headers.range ?? null, bytes: 0 };
    if (isGet) gets.push(served);
    const cut = isGet && gets.length === 1;
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          served.bytes += chunk.length;
          if (!outgoing.write(chunk)) answer.pause();
          if (cut && served.bytes >= cutAfter) {
            answer.destroy();
            outgoing.socket?.destroy();
          }
        });
        outgoing.on('drain', () => answer.resume());
        answer.on('end', () => outgoing.end());
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, gets, server };
}

let server: TestServer;
let dav: TestWebdav;
let relay: Awaited<ReturnType<typeof startCuttingRelay>>;
let token: string;
const account = { email: 'resume@example.com', password: 'correct horse battery 1' };
const SIZE = 48 * 1024 * 1024;

beforeAll(async () => {
  dav = await startWebdav();
  relay = await startCuttingRelay(dav, SIZE / 3);
  server = await startTestServer({ CONNECTORS_ENABLED: 'webdav', CONNECTORS_ALLOW_HOSTS: '127.0.0.1' });
  token = (await signInThroughOidc(server.url, account)).access_token;
}, 120_000);
afterAll(async () => {
  await server?.close();
  relay?.server.closeAllConnections();
  await Promise.all([dav?.stop(), new Promise((resolve) => relay?.server.close(resolve))]);
});

const api = (_who: 'user', path: string, init: { method?: string; body?: unknown } = {}) =>
  call(server.url, path, { ...init, token });
const { newProject, finished, sha256Of } = connectorSteps(api, 240_000);

describe('an import cut mid-file', () => {
  it('resumes from the bytes already stored: the provider serves only the rest, and the file is whole', async () => {
    const wav = await writeWav(join(dav.directory, 'Long take.wav'), SIZE);
    const linked = await api('user', '/api/connectors', {
      method: 'POST',
      body: { kind: 'webdav', url: relay.url, username: dav.username, password: dav.password },
    });
    expect(linked.status).toBe(201);
    const projectId = await newProject('user', 'Resumed');
    const answer = await api('user', `/api/connectors/${linked.body.id as string}/imports`, {
      method: 'POST',
      body: { path: '/Long take.wav', projectId, versionName: 'v1' },
    });
    expect(answer.status).toBe(202);
    const transfer = await finished('user', (answer.body.transfer as ConnectorTransfer).id);
    expect(transfer, transfer.error ?? '').toMatchObject({ status: 'done', bytesDone: wav.size });

    // The first GET was cut a third in; the next asked for the rest only, and got exactly that.
    expect(relay.gets.length).toBe(2);
    const [first, second] = relay.gets as [ServedGet, ServedGet];
    expect(first.range).toBeNull();
    expect(first.bytes).toBeLessThan(wav.size / 2);
    const start = Number(/^bytes=(\d+)-(\d+)$/.exec(second.range ?? '')?.[1]);
    expect(second.range).toBe(`bytes=${start}-${wav.size - 1}`);
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThanOrEqual(first.bytes);
    expect(second.bytes).toBe(wav.size - start);

    expect(await sha256Of('user', (answer.body.version as Version).id)).toBe(wav.sha256);
    // Nothing of the partial is left beside the blob.
    const multipart = join(server.dataDir, 'blobs', 'multipart');
    expect(existsSync(multipart) ? readdirSync(multipart) : []).toEqual([]);
  });
});
