import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsersRepository } from '../src/modules/users/users.repository';
import { MIN_PART_SIZE } from '../src/modules/uploads/uploads.service';
import { startS3 } from './helpers/s3';
import { startTestServer, type TestServer } from './helpers/test-server';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface DriverCase {
  name: string;
  env(): Record<string, string>;
  setup(): Promise<void>;
  teardown(): Promise<void>;
}

let s3: Awaited<ReturnType<typeof startS3>> | null = null;
const drivers: DriverCase[] = [
  { name: 'disk', env: () => ({}), setup: async () => undefined, teardown: async () => undefined },
  {
    name: 's3 (s3rver)',
    env: () => s3?.env ?? {},
    setup: async () => {
      s3 = await startS3();
    },
    teardown: async () => {
      await s3?.stop();
    },
  },
];

describe.each(drivers)('blob store: $name', (driver) => {
  let dataDir: string;
  let server: TestServer;
  let ownerId: string;

  const start = async () => startTestServer(driver.env(), { keepDataDir: dataDir });

  beforeAll(async () => {
    await driver.setup();
    dataDir = mkdtempSync(join(tmpdir(), 'mixroom-blob-'));
    server = await start();
    const owner = await new UsersRepository(server.context.database.db).create({
      email: `owner-${driver.name.length}@test.io`,
      displayName: 'Owner',
    });
    ownerId = owner.id;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    await driver.teardown();
  });

  it('puts, reads, sizes and deletes blobs', async () => {
    const blobs = server.context.blobs;
    await blobs.put('t/one/a.bin', Buffer.from('hello mixroom'));
    await blobs.put('t/one/b.bin', Readable.from([Buffer.from('streamed '), Buffer.from('bytes')]));
    await blobs.put('t/two/c.bin', Buffer.from('other'));
    expect(await blobs.head('t/one/a.bin')).toEqual({ size: 13 });
    expect(await text(await blobs.get('t/one/b.bin'))).toBe('streamed bytes');
    expect(await text(await blobs.get('t/one/a.bin', { start: 6, end: 12 }))).toBe('mixroom');
    expect(await blobs.deletePrefix('t/one/')).toBe(2);
    expect(await blobs.head('t/one/a.bin')).toBeNull();
    expect(await blobs.head('t/two/c.bin')).toEqual({ size: 5 });
    await blobs.delete('t/two/c.bin');
    expect(await blobs.head('t/two/c.bin')).toBeNull();
    // Reading what is gone (removed between a listing and the read) is a missing file, a 404.
    await expect(blobs.get('t/two/c.bin')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await server.context.blobs.check()).toBeUndefined();
  });

  it('refuses keys that could escape the store', async () => {
    await expect(server.context.blobs.put('../escape', Buffer.from('x'))).rejects.toThrow(/Invalid blob key/);
    await expect(server.context.blobs.put('a//b', Buffer.from('x'))).rejects.toThrow(/Invalid blob key/);
  });

  it('accepts bytes on a signed upload URL and serves them on a signed download URL with Range', async () => {
    const data = randomBytes(100_000);
    const uploadUrl = await server.context.blobs.signUploadUrl('t/signed/file.wav', { expiresInSeconds: 60 });
    const put = await fetch(uploadUrl, { method: 'PUT', body: data });
    expect(put.status).toBe(200);

    const name = `Mix "final" – été 🎧.wav`;
    const downloadUrl = await server.context.blobs.signDownloadUrl('t/signed/file.wav', {
      expiresInSeconds: 60,
      fileName: name,
    });
    const whole = await fetch(downloadUrl);
    expect(whole.status).toBe(200);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(data));
    expect(decodeURIComponent(whole.headers.get('content-disposition')?.split("UTF-8''")[1] ?? '')).toBe(name);

    const part = await fetch(downloadUrl, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 1000-1999/100000');
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(1000, 2000))).toBe(true);

    const tail = await fetch(downloadUrl, { headers: { range: 'bytes=99990-' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(-10))).toBe(true);

    const past = await fetch(downloadUrl, { headers: { range: 'bytes=200000-' } });
    expect(past.status).toBe(416);
  });

  it('resumes a multipart upload after the server restarts, from the parts the database recorded', async () => {
    const size = 2 * MIN_PART_SIZE + 123_457;
    const source = randomBytes(size);
    const uploads = () => server.context.services.uploads;
    const session = await uploads().start(ownerId, 't/multipart/big.wav', size, MIN_PART_SIZE);
    expect(session.partCount).toBe(3);

    const sendPart = async (partNumber: number) => {
      const { url } = await uploads().partUrl(ownerId, session.id, partNumber);
      const bytes = source.subarray((partNumber - 1) * session.partSize, partNumber * session.partSize);
      const response = await fetch(url, { method: 'PUT', body: bytes });
      expect(response.status).toBe(200);
      const etag = response.headers.get('etag');
      expect(etag).toBeTruthy();
      await uploads().recordPart(ownerId, session.id, { partNumber, etag: etag!, size: bytes.length });
    };

    await sendPart(1);
    await sendPart(2);
    await expect(uploads().complete(ownerId, session.id)).rejects.toThrow(/1 part\(s\) are still missing/);

    // The interruption: the whole server goes away and comes back on the same data.
    await server.close();
    server = await start();

    const resumed = await uploads().get(ownerId, session.id);
    expect(resumed.parts.map((p) => p.partNumber)).toEqual([1, 2]);
    await sendPart(3);
    await uploads().complete(ownerId, session.id);

    const stored = Buffer.concat(await (await server.context.blobs.get('t/multipart/big.wav')).toArray());
    expect(stored.length).toBe(size);
    expect(sha256(stored)).toBe(sha256(source));
  });

  it('checks part sizes, ownership and closes aborted uploads', async () => {
    const size = MIN_PART_SIZE + 10;
    const uploads = server.context.services.uploads;
    const session = await uploads.start(ownerId, 't/multipart/aborted.wav', size, MIN_PART_SIZE);
    await expect(uploads.recordPart(ownerId, session.id, { partNumber: 2, etag: '"x"', size: 99 })).rejects.toThrow(
      /should hold 10 bytes/,
    );
    await expect(uploads.get('00000000-0000-4000-8000-000000000000', session.id)).rejects.toThrow(/No such upload/);
    await uploads.abort(ownerId, session.id);
    await expect(uploads.partUrl(ownerId, session.id, 1)).rejects.toThrow(/Upload aborted/);
    await expect(uploads.start(ownerId, 't/multipart/empty.wav', 0)).rejects.toThrow(/empty/);
  });
});

describe('disk driver signatures', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.context.blobs.put('t/private.bin', Buffer.from('secret'));
  });
  afterAll(() => server.close());

  it('refuses a tampered or expired signed URL', async () => {
    const url = new URL(await server.context.blobs.signDownloadUrl('t/private.bin', { expiresInSeconds: 60 }));
    url.searchParams.set('k', 't/other.bin');
    expect((await fetch(url)).status).toBe(403);
    const expired = await server.context.blobs.signDownloadUrl('t/private.bin', { expiresInSeconds: -120 + 30 });
    const parsed = new URL(expired);
    parsed.searchParams.set('e', String(Math.floor(Date.now() / 1000) - 10));
    expect((await fetch(parsed)).status).toBe(403);
    const upload = new URL(await server.context.blobs.signDownloadUrl('t/private.bin', { expiresInSeconds: 60 }));
    expect(
      (await fetch(upload.toString().replace('/api/blob/get', '/api/blob/put'), { method: 'PUT', body: 'x' })).status,
    ).toBe(403);
  });
});
