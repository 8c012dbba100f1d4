import { createHash, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/platform/clock/clock';
import { copyRetryable } from '../src/platform/drives/copy-guards';
import { createDrive, type DriveCredentials } from '../src/platform/drives/create-drive';
import type { DriveGet } from '../src/platform/drives/drive';
import { DriveError } from '../src/platform/drives/drive-error';
import { outboundPolicyOf, type DriveNetwork } from '../src/platform/drives/drive-http';
import { getIntoFile, getIntoFileUnder, type FileGetOptions } from '../src/platform/drives/file-get';
import { DomainError } from '../src/platform/errors/domain-error';
import { OutboundUrlError } from '../src/platform/net/outbound-fetch';
import { startS3 } from './helpers/s3';
import { TEST_TLS_CERT, TEST_TLS_KEY } from './helpers/self-signed-tls';
import { startWebdav, type TestWebdav } from './helpers/webdav';

const allowed: DriveNetwork = { allowHosts: ['127.0.0.1'], timeoutMs: 10_000 };
const CHANGED = 'The file changed.';
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let dav: TestWebdav;
let s3: Awaited<ReturnType<typeof startS3>>;
let work: string;
const servers: Server[] = [];

beforeAll(async () => {
  [dav, s3] = await Promise.all([startWebdav(), startS3()]);
  work = mkdtempSync(join(tmpdir(), 'mixroom-file-get-'));
}, 60_000);
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all([dav?.stop(), s3?.stop(), ...servers.map((s) => new Promise((r) => s.close(r)))]);
  rmSync(work, { recursive: true, force: true });
});

/** A provider of our own on loopback, answering as each test needs. */
async function serve(handler: RequestListener): Promise<string> {
  const server = createHttpServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let files = 0;
const target = () => join(work, `copy-${(files += 1)}.bin`);

function options(path: string, expected: number, extra: Partial<FileGetOptions> = {}): FileGetOptions {
  return { path, expected, changed: CHANGED, onBytes: () => undefined, ...extra };
}

const plainGet = (url: string): DriveGet => ({ url: new URL(url), headers: {} });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected a failure'),
    (error: unknown) => error,
  );
}

describe.each([
  {
    name: 'webdav (webdav-server)',
    credentials: (): DriveCredentials => ({
      kind: 'webdav',
      url: dav.url,
      username: dav.username,
      password: dav.password,
    }),
  },
  {
    name: 's3 (s3rver)',
    credentials: (): DriveCredentials => s3.drive,
  },
])('$name: the drive’s GET sent from a thread into a file', ({ credentials }) => {
  const data = randomBytes(9 * 1024 * 1024 + 123);

  beforeAll(async () => {
    const drive = createDrive(credentials(), allowed, systemClock);
    await drive.write('/take.bin', Readable.from([data]), data.length);
  });

  it('copies the whole file, telling its progress', async () => {
    const drive = createDrive(credentials(), allowed, systemClock);
    const path = target();
    const seen: number[] = [];
    const outcome = await getIntoFile(
      await drive.getRequest!('/take.bin'),
      allowed,
      options(path, data.length, { onBytes: (done) => seen.push(done) }),
    );
    expect(outcome).toEqual({ copied: true, bytes: data.length });
    expect(sha(readFileSync(path))).toBe(sha(data));
    expect(seen.at(-1)).toBe(data.length);
    expect(seen.length).toBeGreaterThan(1);
  });

  it('copies a range into the file at its offset, after the bytes already there', async () => {
    const drive = createDrive(credentials(), allowed, systemClock);
    const path = target();
    const start = 5 * 1024 * 1024 + 7;
    writeFileSync(path, data.subarray(0, start));
    const range = { start, end: data.length - 1 };
    const outcome = await getIntoFile(
      await drive.getRequest!('/take.bin', range),
      allowed,
      options(path, data.length - start, { position: start, range }),
    );
    expect(outcome).toEqual({ copied: true, bytes: data.length - start });
    expect(sha(readFileSync(path))).toBe(sha(data));
  });

  it('refuses a file whose size is not the one listed, writing nothing', async () => {
    const drive = createDrive(credentials(), allowed, systemClock);
    const path = target();
    const error = await failure(
      getIntoFile(await drive.getRequest!('/take.bin'), allowed, options(path, data.length + 1)),
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: 409, code: 'FILE_CHANGED', message: CHANGED });
    expect(readFileSync(path).length).toBe(0);
  });

  it('hands back a missing file’s answer for the ordinary client to word', async () => {
    const drive = createDrive(credentials(), allowed, systemClock);
    const path = target();
    const outcome = await getIntoFile(await drive.getRequest!('/gone.bin'), allowed, options(path, 10));
    expect(outcome).toEqual({ copied: false, status: 404 });
    expect(readFileSync(path).length).toBe(0);
  });
});

describe('the GET thread', () => {
  it('refuses loopback and metadata addresses unless the operator allowed the host, before a byte is sent', async () => {
    let asked = 0;
    const base = await serve((_request, response) => {
      asked += 1;
      response.end('secret');
    });
    const guarded: DriveNetwork = { allowHosts: [], timeoutMs: 2000 };
    for (const url of [`${base}/file`, 'http://169.254.169.254/latest/meta-data/']) {
      const error = await failure(getIntoFile(plainGet(url), guarded, options(target(), 6)));
      expect(error).toBeInstanceOf(DriveError);
      expect(error).toMatchObject({ code: 'DRIVE_URL' });
    }
    expect(asked).toBe(0);
  });

  it('does not follow a redirect or take a chunked answer itself: both go back to the ordinary client', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/moved') {
        response.writeHead(302, { location: 'http://169.254.169.254/' });
        return void response.end();
      }
      response.writeHead(200, { 'transfer-encoding': 'chunked' });
      response.end(Buffer.alloc(1000));
    });
    const moved = target();
    expect(await getIntoFile(plainGet(`${base}/moved`), allowed, options(moved, 1000))).toEqual({
      copied: false,
      status: 302,
    });
    expect(readFileSync(moved).length).toBe(0);
    const chunked = target();
    expect(await getIntoFile(plainGet(`${base}/chunked`), allowed, options(chunked, 1000))).toEqual({
      copied: false,
      status: 200,
    });
    expect(readFileSync(chunked).length).toBe(0);
  });

  it('a provider that closes mid-file or falls silent fails the copy with an error worth another try', async () => {
    const base = await serve((request, response) => {
      response.writeHead(200, { 'content-length': 4 * 1024 * 1024 });
      response.write(Buffer.alloc(1024 * 1024));
      // Cut: the connection ends a quarter in. Silent: it stays open and sends nothing more.
      if (request.url === '/cut') setImmediate(() => response.socket?.destroy());
    });
    const quick: DriveNetwork = { allowHosts: ['127.0.0.1'], timeoutMs: 1000 };
    for (const [path, words] of [
      ['/cut', /could not be reached/],
      ['/silent', /did not answer within 1000 ms/],
    ] as const) {
      const error = await failure(getIntoFile(plainGet(`${base}${path}`), quick, options(target(), 4 * 1024 * 1024)));
      expect(error).toBeInstanceOf(OutboundUrlError);
      expect((error as Error).message).toMatch(words);
      expect(copyRetryable(error)).toBe(true);
    }
  });

  it('stops when its job is stopped, mid-file or before it began, and copies again afterwards', async () => {
    const controller = new AbortController();
    const stop = new Error('stopped by the test');
    const base = await serve((request, response) => {
      if (request.url === '/whole') {
        response.writeHead(200, { 'content-length': 1000 });
        return void response.end(Buffer.alloc(1000, 1));
      }
      response.writeHead(200, { 'content-length': 4 * 1024 * 1024 });
      // The thread is reading the body when the job stops.
      response.write(Buffer.alloc(64 * 1024), () => controller.abort(stop));
    });
    const copy = getIntoFile(
      plainGet(`${base}/slow`),
      allowed,
      options(target(), 4 * 1024 * 1024, { signal: controller.signal }),
    );
    expect(await failure(copy)).toBe(stop);
    const early = new AbortController();
    early.abort(stop);
    const notStarted = getIntoFile(
      plainGet(`${base}/slow`),
      allowed,
      options(target(), 4 * 1024 * 1024, { signal: early.signal }),
    );
    expect(await failure(notStarted)).toBe(stop);
    // The thread that ran them takes the next copy.
    const path = target();
    expect(await getIntoFile(plainGet(`${base}/whole`), allowed, options(path, 1000))).toEqual({
      copied: true,
      bytes: 1000,
    });
    expect(readFileSync(path)).toEqual(Buffer.alloc(1000, 1));
  });

  it('speaks TLS, checking the certificate against the host name', async () => {
    const data = randomBytes(3 * 1024 * 1024);
    const server = createHttpsServer({ cert: TEST_TLS_CERT, key: TEST_TLS_KEY }, (_request, response) => {
      response.writeHead(200, { 'content-length': data.length });
      response.end(data);
    });
    servers.push(server);
    // Where the outbound check will connect for "localhost" (its first address).
    const { address } = await lookup('localhost', { verbatim: true });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    const port = (server.address() as AddressInfo).port;
    const trusting = { ...outboundPolicyOf({ allowHosts: ['localhost'], timeoutMs: 5000 }), extraCa: TEST_TLS_CERT };
    const path = target();
    const get = plainGet(`https://localhost:${port}/take.bin`);
    expect(await getIntoFileUnder(get, trusting, options(path, data.length))).toEqual({
      copied: true,
      bytes: data.length,
    });
    expect(sha(readFileSync(path))).toBe(sha(data));
    // Without the test's authority the certificate is not trusted, and nothing is written.
    const untrusted = target();
    const error = await failure(getIntoFileUnder(get, { ...trusting, extraCa: null }, options(untrusted, data.length)));
    expect((error as Error).message).toMatch(/certificate/);
    expect(readFileSync(untrusted).length).toBe(0);
  });
});
