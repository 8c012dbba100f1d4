import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/platform/clock/clock';
import { createDrive, type DriveCredentials } from '../src/platform/drives/create-drive';
import type { Drive } from '../src/platform/drives/drive';
import { DriveError } from '../src/platform/drives/drive-error';
import type { DriveNetwork } from '../src/platform/drives/drive-http';
import { startS3 } from './helpers/s3';
import { startWebdav, type TestWebdav } from './helpers/webdav';

const allowed: DriveNetwork = { allowHosts: ['127.0.0.1'], timeoutMs: 10_000 };
const guarded: DriveNetwork = { allowHosts: [], timeoutMs: 10_000 };

let dav: TestWebdav;
let s3: Awaited<ReturnType<typeof startS3>>;

beforeAll(async () => {
  [dav, s3] = await Promise.all([startWebdav(), startS3()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([dav?.stop(), s3?.stop()]);
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const webdavCredentials = (): DriveCredentials => ({
  kind: 'webdav',
  url: dav.url,
  username: dav.username,
  password: dav.password,
});
const s3Credentials = (): DriveCredentials => s3.drive;

/** The same checks for every driver: write, list, stat, ranged read, missing files. */
describe.each([
  { name: 'webdav (webdav-server)', credentials: webdavCredentials },
  { name: 's3 (s3rver)', credentials: s3Credentials },
])('$name drive', ({ credentials }) => {
  let drive: Drive;
  const data = randomBytes(300_000);

  beforeAll(() => {
    drive = createDrive(credentials(), allowed, systemClock);
  });

  it('names the account once the credentials work', async () => {
    const account = await drive.account();
    expect(account.name).toContain('127.0.0.1');
  });

  it('writes a file streamed, lists it with its size, and reads it whole and by range', async () => {
    await drive.makeFolder('/Sessions');
    await drive.makeFolder('/Sessions/Mix & Master');
    await drive.write(
      '/Sessions/Mix & Master/take 1.wav',
      Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
      data.length,
    );
    await drive.write('/Sessions/notes.txt', Readable.from([Buffer.from('hi')]), 2);

    const root = await drive.list('/');
    expect(root.entries.map((e) => [e.name, e.kind])).toContainEqual(['Sessions', 'folder']);
    const sessions = await drive.list('/Sessions');
    expect(sessions.entries.map((e) => [e.name, e.kind, e.size])).toEqual([
      ['Mix & Master', 'folder', null],
      ['notes.txt', 'file', 2],
    ]);
    const inner = await drive.list('/Sessions/Mix & Master/');
    expect(inner.path).toBe('/Sessions/Mix & Master');
    expect(inner.entries).toMatchObject([
      { path: '/Sessions/Mix & Master/take 1.wav', kind: 'file', size: data.length },
    ]);
    expect((await drive.list('/Sessions', { search: 'NOTES' })).entries.map((e) => e.name)).toEqual(['notes.txt']);

    const stat = await drive.stat('/Sessions/Mix & Master/take 1.wav');
    expect(stat).toMatchObject({ kind: 'file', size: data.length, name: 'take 1.wav' });

    const whole = await drive.read('/Sessions/Mix & Master/take 1.wav');
    expect(whole.size).toBe(data.length);
    expect(sha(await buffer(whole.body))).toBe(sha(data));

    const part = await drive.read('/Sessions/Mix & Master/take 1.wav', { range: { start: 100, end: 199 } });
    expect(part).toMatchObject({ length: 100, size: data.length });
    expect(await buffer(part.body)).toEqual(data.subarray(100, 200));
  });

  it('states and reads a file larger than a small answer (the object size is not a body)', async () => {
    const size = 17 * 1024 * 1024;
    const big = Buffer.alloc(size, 7);
    await drive.write('/big take.wav', Readable.from([big]), size);
    expect(await drive.stat('/big take.wav')).toMatchObject({ kind: 'file', size });
    const read = await drive.read('/big take.wav');
    expect(read.size).toBe(size);
    expect(sha(await buffer(read.body))).toBe(sha(big));
  });

  it('says a missing file is gone', async () => {
    await expect(drive.stat('/Sessions/gone.wav')).rejects.toMatchObject({ code: 'DRIVE_NOT_FOUND', status: 404 });
    await expect(drive.read('/Sessions/gone.wav')).rejects.toMatchObject({ code: 'DRIVE_NOT_FOUND' });
  });
});

describe('bad input', () => {
  it('wrong credentials are refused with a clear error', async () => {
    const webdavDrive = createDrive(
      { ...webdavCredentials(), password: 'wrong' } as DriveCredentials,
      allowed,
      systemClock,
    );
    await expect(webdavDrive.account()).rejects.toMatchObject({ code: 'DRIVE_CREDENTIALS', status: 422 });
    // s3rver knows one key pair and checks the key id; AWS also checks the signature (same error path).
    const s3Drive = createDrive({ ...s3Credentials(), accessKeyId: 'WRONG' } as DriveCredentials, allowed, systemClock);
    await expect(s3Drive.account()).rejects.toMatchObject({ code: 'DRIVE_CREDENTIALS' });
  });

  it('a bucket that does not exist is named as such', async () => {
    const drive = createDrive(
      { ...s3Credentials(), bucket: 'no-such-bucket' } as DriveCredentials,
      allowed,
      systemClock,
    );
    await expect(drive.account()).rejects.toThrow(/bucket does not exist/);
  });

  it('loopback, private and metadata addresses are refused unless the operator allows the host', async () => {
    for (const url of [
      dav.url.replace('http:', 'https:'),
      'https://169.254.169.254/latest/',
      'https://10.1.2.3/dav/',
      'https://[::1]/',
    ]) {
      const drive = createDrive({ ...webdavCredentials(), url } as DriveCredentials, guarded, systemClock);
      const error = await drive.account().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DriveError);
      expect(error).toMatchObject({ code: 'DRIVE_URL', message: expect.stringMatching(/private network/) });
    }
  });

  it('plain http is refused for hosts the operator did not allow, and odd addresses fail up front', () => {
    expect(() =>
      createDrive(
        { ...webdavCredentials(), url: 'http://cloud.example.com/dav/' } as DriveCredentials,
        guarded,
        systemClock,
      ),
    ).toThrow(/https/);
    expect(() =>
      createDrive({ ...webdavCredentials(), url: 'ftp://example.com/' } as DriveCredentials, guarded, systemClock),
    ).toThrow(/https/);
    expect(() =>
      createDrive({ ...webdavCredentials(), url: 'not a url' } as DriveCredentials, guarded, systemClock),
    ).toThrow(/valid web address/);
    expect(() =>
      createDrive(
        { ...webdavCredentials(), url: 'https://u:p@example.com/' } as DriveCredentials,
        guarded,
        systemClock,
      ),
    ).toThrow(/own fields/);
  });

  it('a path may not climb out of its drive', async () => {
    const drive = createDrive(webdavCredentials(), allowed, systemClock);
    await expect(drive.list('/../..')).rejects.toThrow(/climb/);
  });

  it('reads files put on the server directly (names with spaces and accents)', async () => {
    mkdirSync(join(dav.directory, 'Écoute'), { recursive: true });
    writeFileSync(join(dav.directory, 'Écoute', 'voix finale.wav'), Buffer.from('RIFF'));
    const drive = createDrive(webdavCredentials(), allowed, systemClock);
    const listing = await drive.list('/Écoute');
    expect(listing.entries).toMatchObject([{ name: 'voix finale.wav', size: 4, path: '/Écoute/voix finale.wav' }]);
    expect(readFileSync(join(dav.directory, 'Écoute', 'voix finale.wav')).length).toBe(4);
  });
});
