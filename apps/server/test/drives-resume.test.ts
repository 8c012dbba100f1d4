import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartialBlob } from '../src/platform/blob/blob-store';
import { TestClock } from '../src/platform/clock/clock';
import type { Drive } from '../src/platform/drives/drive';
import { fillFromDrive } from '../src/platform/drives/drive-file-fill';
import { DropboxDrive } from '../src/platform/drives/dropbox-drive';
import { GdriveDrive } from '../src/platform/drives/gdrive-drive';
import { OAuthSession, type OAuthAppConfig } from '../src/platform/drives/oauth-session';
import { LocalDropboxServer } from './helpers/fake-dropbox-server';
import { LocalGoogleDriveServer } from './helpers/fake-google-drive-server';
import { LocalOAuthServer } from './helpers/oauth-server';

/**
 * A Dropbox or Google Drive import cut mid-file goes on from the bytes already copied: the copy's GET
 * (Dropbox's content download as GET with its Dropbox-API-Arg header, Drive's alt=media) is sent
 * from the copy thread with a fresh token, and the next attempt asks only for the rest with Range,
 * against local servers that follow both documented APIs (the real services can't be reached here).
 */
const clock = new TestClock();
const network = { allowHosts: ['127.0.0.1'], timeoutMs: 5000 };
const dir = mkdtempSync(join(tmpdir(), 'mixroom-drive-resume-'));
const SIZE = 4 * 1024 * 1024;
const content = randomBytes(SIZE);
let auth: LocalOAuthServer;
let dropbox: LocalDropboxServer;
let google: LocalGoogleDriveServer;

const sessionOf = (app: OAuthAppConfig) =>
  new OAuthSession(app, 'basic', network, clock, auth.grantFor('someone'), async () => {});

beforeAll(async () => {
  auth = await new LocalOAuthServer({
    clientId: 'app',
    clientSecret: 'secret',
    clientAuth: 'basic',
    now: () => clock.now().getTime(),
    accessTtlSeconds: 600,
  }).start();
  const people = { someone: { displayName: 'Someone', email: 'someone@example.com' } };
  dropbox = await new LocalDropboxServer(auth, people).start();
  google = await new LocalGoogleDriveServer(auth, people).start();
  dropbox.put('/Sessions/Long take.wav', content);
  google.put('/Sessions/Long take.wav', content);
});
afterAll(async () => {
  await Promise.all([auth?.stop(), dropbox?.stop(), google?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** The upload's local file as the uploads service keeps it between attempts: its bytes and its note. */
function partialFile(name: string) {
  const path = join(dir, name);
  let note: string | null = null;
  return async (fill: (partial: PartialBlob) => Promise<number | null>) => {
    const bytes = existsSync(path) ? statSync(path).size : 0;
    return (await fill({ path, bytes, note, setNote: async (next) => void (note = next) })) !== null;
  };
}

const attempt = (drive: Drive, fillUpload: ReturnType<typeof partialFile>, resumed: number[]) =>
  fillFromDrive({
    drive,
    path: '/Sessions/Long take.wav',
    total: SIZE,
    network,
    fillUpload,
    changed: 'The file changed at the provider.',
    onBytes: () => undefined,
    signal: new AbortController().signal,
    onResume: (from) => resumed.push(from),
  });

describe('a Dropbox or Google Drive import cut mid-file', () => {
  const providers = [
    {
      name: 'Dropbox',
      method: 'GET',
      stand: () => dropbox,
      drive: () => new DropboxDrive(auth.appFor(dropbox.url), sessionOf(auth.appFor(dropbox.url)), network),
    },
    {
      name: 'Google Drive',
      method: undefined,
      stand: () => google,
      drive: () => new GdriveDrive(auth.appFor(google.url), sessionOf(auth.appFor(google.url)), network),
    },
  ];
  for (const provider of providers)
    it(`${provider.name}: the next attempt asks for the rest only, with Range, and the file is whole`, async () => {
      const file = `${provider.name}.bin`;
      const drive = provider.drive();
      const fillUpload = partialFile(file);
      const resumed: number[] = [];
      provider.stand().cutNextDownloadAfter = SIZE / 4;
      await expect(attempt(drive, fillUpload, resumed)).rejects.toThrow('The address could not be reached.');
      const kept = statSync(join(dir, file)).size;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(SIZE / 4);

      expect(await attempt(drive, fillUpload, resumed)).toBe(true);
      expect(resumed).toEqual([kept]);
      // Dropbox's download goes as a GET (its documented alternative to POST for content downloads).
      const method = provider.method ? { method: provider.method } : {};
      expect(provider.stand().downloads).toEqual([
        { ...method, range: null },
        { ...method, range: `bytes=${kept}-${SIZE - 1}` },
      ]);
      expect(readFileSync(join(dir, file)).equals(content)).toBe(true);
    });

  it('an expired token is renewed before the copy thread sends its GET', async () => {
    const drive = new DropboxDrive(auth.appFor(dropbox.url), sessionOf(auth.appFor(dropbox.url)), network);
    // The session's access token (valid 10 minutes) is an hour old: the provider would refuse it.
    clock.advance(3600 * 1000);
    const refreshes = auth.refreshes;
    expect(await attempt(drive, partialFile('renewed.bin'), [])).toBe(true);
    expect(auth.refreshes).toBe(refreshes + 1);
    expect(readFileSync(join(dir, 'renewed.bin')).equals(content)).toBe(true);
  });
});
