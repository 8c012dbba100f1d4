import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../src/platform/clock/clock';
import { DropboxDrive } from '../src/platform/drives/dropbox-drive';
import { GdriveDrive } from '../src/platform/drives/gdrive-drive';
import { OAuthSession, type OAuthAppConfig, type OAuthTokens } from '../src/platform/drives/oauth-session';
import { LocalDropboxServer } from './helpers/fake-dropbox-server';
import { LocalGoogleDriveServer } from './helpers/fake-google-drive-server';
import { LocalOAuthServer } from './helpers/oauth-server';

/**
 * The Dropbox and Google Drive drivers on their own, against local servers following the documented
 * APIs: ranged reads, Dropbox's upload session for a file past the single-call limit (and a session
 * that fails midway, which leaves no file), Google's resumable upload replacing a file, and a
 * refreshed token handed to the keeper.
 */
const clock = new TestClock();
const network = { allowHosts: ['127.0.0.1'], timeoutMs: 5000 };
let auth: LocalOAuthServer;
let dropbox: LocalDropboxServer;
let google: LocalGoogleDriveServer;
const people = { someone: { displayName: 'Someone', email: 'someone@example.com' } };
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  auth = await new LocalOAuthServer({
    clientId: 'app',
    clientSecret: 'secret',
    clientAuth: 'basic',
    now: () => clock.now().getTime(),
    accessTtlSeconds: 600,
  }).start();
  dropbox = await new LocalDropboxServer(auth, people).start();
  google = await new LocalGoogleDriveServer(auth, people).start();
});
afterAll(async () => Promise.all([auth?.stop(), dropbox?.stop(), google?.stop()]));

const appOf = (url: string): OAuthAppConfig => auth.appFor(url);

function sessionOf(app: OAuthAppConfig, kept: OAuthTokens[] = []): OAuthSession {
  const tokens = auth.grantFor('someone');
  return new OAuthSession(app, 'basic', network, clock, tokens, async (fresh) => {
    kept.push(fresh);
  });
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('Dropbox driver', () => {
  it('writes a file past the single-call limit through an upload session, piece by piece', async () => {
    const app = appOf(dropbox.url);
    const drive = new DropboxDrive(app, sessionOf(app), network, {
      singleUploadBytes: 256 * 1024,
      chunkBytes: 100 * 1024,
    });
    const data = randomBytes(350 * 1024);
    const before = dropbox.calls.length;
    await drive.write('/Big take.wav', Readable.from([data.subarray(0, 70_000), data.subarray(70_000)]), data.length);
    expect(dropbox.calls.slice(before)).toEqual([
      'files/upload_session/start',
      'files/upload_session/append_v2',
      'files/upload_session/append_v2',
      'files/upload_session/finish',
    ]);
    expect(sha(dropbox.file('/Big take.wav')!)).toBe(sha(data));
    const ranged = await drive.read('/Big take.wav', { range: { start: 1000, end: 1999 } });
    expect([ranged.length, ranged.size]).toEqual([1000, data.length]);
    expect((await readAll(ranged.body)).equals(data.subarray(1000, 2000))).toBe(true);
    // An answer without Content-Length: its length is the listed size.
    dropbox.chunkedDownloads = true;
    try {
      const whole = await drive.read('/Big take.wav');
      expect([whole.length, whole.size]).toEqual([data.length, data.length]);
      expect(sha(await readAll(whole.body))).toBe(sha(data));
    } finally {
      dropbox.chunkedDownloads = false;
    }
  });

  it('a session whose source fails midway leaves no file', async () => {
    const app = appOf(dropbox.url);
    const drive = new DropboxDrive(app, sessionOf(app), network, { singleUploadBytes: 1024, chunkBytes: 1024 });
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1500));
        this.destroy(new Error('source lost'));
      },
    });
    await expect(drive.write('/Broken.wav', failing, 5000)).rejects.toThrow();
    expect(dropbox.file('/Broken.wav')).toBeNull();
  });

  it('refreshes a token near its expiry and hands the new pair to its keeper', async () => {
    const app = appOf(dropbox.url);
    const kept: OAuthTokens[] = [];
    const drive = new DropboxDrive(app, sessionOf(app, kept), network);
    clock.advance(590 * 1000);
    expect((await drive.account()).name).toBe('someone@example.com');
    expect(kept).toHaveLength(1);
    expect(auth.validate(kept[0]!.accessToken)).toBe('someone');
  });
});

describe('token endpoint', () => {
  it("a wrong client secret is the operator's to fix, not the user's link", async () => {
    const app = { ...appOf(dropbox.url), clientSecret: 'wrong' };
    const tokens = auth.grantFor('someone');
    const session = new OAuthSession(app, 'basic', network, clock, { ...tokens, expiresAt: 0 }, async () => {});
    await expect(session.accessToken()).rejects.toMatchObject({ code: 'OAUTH_CLIENT', status: 502 });
    const right = new OAuthSession(
      appOf(dropbox.url),
      'basic',
      network,
      clock,
      { ...tokens, expiresAt: 0 },
      async () => {},
    );
    expect(auth.validate(await right.accessToken())).toBe('someone');
  });
});

describe('Google Drive driver', () => {
  it('replaces a file with a resumable upload and reads a range of it', async () => {
    const app = appOf(google.url);
    const drive = new GdriveDrive(app, sessionOf(app), network);
    google.put('/Mixes/Song.wav', Buffer.from('old'));
    const data = randomBytes(200 * 1024);
    await drive.write('/Mixes/Song.wav', Readable.from([data]), data.length);
    expect(sha(google.file('/Mixes/Song.wav')!)).toBe(sha(data));
    expect((await drive.list('/Mixes')).entries.map((e) => e.name)).toEqual(['Song.wav']);
    const ranged = await drive.read('/Mixes/Song.wav', { range: { start: 10, end: 19 } });
    expect([ranged.length, ranged.size]).toEqual([10, data.length]);
    expect((await readAll(ranged.body)).equals(data.subarray(10, 20))).toBe(true);
    await drive.makeFolder('/Mixes/Stems');
    await drive.makeFolder('/Mixes/Stems');
    expect((await drive.stat('/Mixes/Stems')).kind).toBe('folder');
  });
});
