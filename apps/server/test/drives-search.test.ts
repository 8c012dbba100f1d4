import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../src/platform/clock/clock';
import { DropboxDrive } from '../src/platform/drives/dropbox-drive';
import { GdriveDrive } from '../src/platform/drives/gdrive-drive';
import { OAuthSession, type OAuthAppConfig } from '../src/platform/drives/oauth-session';
import { LocalDropboxServer } from './helpers/fake-dropbox-server';
import { LocalGoogleDriveServer } from './helpers/fake-google-drive-server';
import { LocalOAuthServer } from './helpers/oauth-server';

/**
 * Searching a whole linked account, Dropbox and Google Drive, against local servers that follow the
 * documented search calls: Drive's files.list "name contains" (word prefixes, values quoted and
 * escaped, pageToken paging bound to the query, parents walked up to My Drive's root) and Dropbox's
 * files/search_v2 with search/continue_v2. Both serve two items a page, so paging is exercised.
 */
const clock = new TestClock();
const network = { allowHosts: ['127.0.0.1'], timeoutMs: 5000 };
let auth: LocalOAuthServer;
let dropbox: LocalDropboxServer;
let google: LocalGoogleDriveServer;
let gdrive: GdriveDrive;
let dbx: DropboxDrive;
const bytes = (n: number) => Buffer.alloc(n, 1);

const appOf = (url: string): OAuthAppConfig => auth.appFor(url);

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
  for (const put of [google.put.bind(google), dropbox.put.bind(dropbox)]) {
    put('/Take 1.wav', bytes(10));
    put('/Sessions/Bass take.wav', bytes(20));
    put('/Sessions/Album/Vocal Take 3.wav', bytes(30));
    put('/Sessions/Album/Retakes', null);
    put('/Archive/2019/Old take.flac', bytes(40));
    put('/Archive/Notes.txt', bytes(5));
    put("/Archive/Mike's \\ mix.wav", bytes(50));
  }
  google.putShared('Shared take.wav', bytes(60));
  google.put('/Masters/Song master.wav', Buffer.from('RIFF-song-master-bytes'), 'audio/wav', 'Studio Team');
  google.put('/Masters/Stems', null, undefined, 'Studio Team');
  google.drive('Label');
  google.drive('Archive Crew');
  gdrive = new GdriveDrive(appOf(google.url), sessionOf(appOf(google.url)), network);
  dbx = new DropboxDrive(appOf(dropbox.url), sessionOf(appOf(dropbox.url)), network);
});
afterAll(async () => Promise.all([auth?.stop(), dropbox?.stop(), google?.stop()]));

const pathsOf = (found: { entries: { path: string }[] }) => found.entries.map((e) => e.path);

describe('Google Drive search', () => {
  it('searches all of My Drive by word prefix, each hit with its path from the root', async () => {
    const before = google.calls.length;
    const found = await gdrive.search('take', { limit: 100 });
    expect(pathsOf(found)).toEqual([
      '/Sessions/Bass take.wav',
      '/Archive/2019/Old take.flac',
      '/Take 1.wav',
      '/Sessions/Album/Vocal Take 3.wav',
    ]);
    expect(found.truncated).toBe(false);
    expect(found.entries.find((e) => e.name === 'Old take.flac')).toMatchObject({ kind: 'file', size: 40 });
    // "Retakes" does not start with "take", and the shared file has no folder in My Drive.
    expect(found.entries.some((e) => e.name === 'Retakes' || e.name === 'Shared take.wav')).toBe(false);
    // Five hits (the shared one among them) at two a page: three pages of files.list.
    const lists = google.calls.slice(before).filter((c) => c === 'GET /drive/v3/files');
    expect(lists).toHaveLength(3);
    // A word's middle matches nothing, as in Drive.
    expect((await gdrive.search('ake', { limit: 100 })).entries).toEqual([]);
  });

  it('finds folders too, and every word must start a word of the name', async () => {
    expect(pathsOf(await gdrive.search('ALB', { limit: 100 }))).toEqual(['/Sessions/Album']);
    expect(pathsOf(await gdrive.search('vocal 3', { limit: 100 }))).toEqual(['/Sessions/Album/Vocal Take 3.wav']);
  });

  it('stops at the limit and says more matched', async () => {
    const found = await gdrive.search('take', { limit: 2 });
    expect(found.entries).toHaveLength(2);
    expect(found.truncated).toBe(true);
  });

  it("escapes quotes and backslashes: a name with ' or \\ is found, and a query can't add clauses", async () => {
    // Unescaped, each of these leaves a quote open or adds an "or" clause: Drive answers 400.
    expect(pathsOf(await gdrive.search("mike's", { limit: 100 }))).toEqual(["/Archive/Mike's \\ mix.wav"]);
    expect(pathsOf(await gdrive.search('mix\\', { limit: 100 }))).toEqual(["/Archive/Mike's \\ mix.wav"]);
    expect(pathsOf(await gdrive.search("mike's \\ mix", { limit: 100 }))).toEqual(["/Archive/Mike's \\ mix.wav"]);
    expect((await gdrive.search("zz' or name contains 'take", { limit: 100 })).entries).toEqual([]);
    expect((await gdrive.search("zz' or trashed = true or name contains '", { limit: 100 })).entries).toEqual([]);
    // The open folder's filter uses the same escaping.
    const inFolder = await gdrive.list('/Archive', { search: "Mike's \\" });
    expect(inFolder.entries.map((e) => e.name)).toEqual(["Mike's \\ mix.wav"]);
  });
});

describe('Dropbox search', () => {
  it('searches the whole account, following search/continue_v2, each hit with its path', async () => {
    const before = dropbox.calls.length;
    const found = await dbx.search('take', { limit: 100 });
    expect(pathsOf(found)).toEqual([
      '/Sessions/Album/Retakes',
      '/Sessions/Bass take.wav',
      '/Archive/2019/Old take.flac',
      '/Take 1.wav',
      '/Sessions/Album/Vocal Take 3.wav',
    ]);
    expect(found.truncated).toBe(false);
    const calls = dropbox.calls.slice(before);
    expect(calls[0]).toBe('files/search_v2');
    expect(calls.filter((c) => c === 'files/search/continue_v2')).toHaveLength(2);
  });

  it('stops at the limit and says more matched', async () => {
    const found = await dbx.search('take', { limit: 3 });
    expect(found.entries).toHaveLength(3);
    expect(found.truncated).toBe(true);
  });

  it('sends quotes and backslashes as they are (the query travels as JSON)', async () => {
    expect(pathsOf(await dbx.search("mike's \\", { limit: 100 }))).toEqual(["/Archive/Mike's \\ mix.wav"]);
    // The open folder's filter searches below it only.
    const below = await dbx.list('/Archive', { search: 'take' });
    expect(below.entries.map((e) => e.path)).toEqual(['/Archive/2019/Old take.flac']);
  });
});

describe('Google shared drives', () => {
  it('shows a folder "Shared drives" beside My Drive\'s items, holding one folder per drive (drives.list paged)', async () => {
    const root = await gdrive.list('/');
    expect(root.entries.filter((e) => e.kind === 'folder').map((e) => e.path)).toEqual([
      '/Archive',
      '/Sessions',
      '/Shared drives',
    ]);
    const drives = await gdrive.list('/Shared drives');
    // Three drives at two a page: drives.list was followed to its second page.
    expect(drives.entries.map((e) => [e.path, e.kind])).toEqual([
      ['/Shared drives/Archive Crew', 'folder'],
      ['/Shared drives/Label', 'folder'],
      ['/Shared drives/Studio Team', 'folder'],
    ]);
    expect((await gdrive.list('/Shared drives', { search: 'stud' })).entries.map((e) => e.name)).toEqual([
      'Studio Team',
    ]);
    expect(await gdrive.stat('/Shared drives')).toMatchObject({ kind: 'folder', name: 'Shared drives' });
    expect((await gdrive.list('/Shared drives/Label')).entries).toEqual([]);
    await expect(gdrive.list('/Shared drives/Nobody')).rejects.toMatchObject({ code: 'DRIVE_NOT_FOUND' });
  });

  it('browses and reads inside a shared drive (Drive hides its items from calls without supportsAllDrives)', async () => {
    const masters = await gdrive.list('/Shared drives/Studio Team/Masters');
    expect(masters.entries.map((e) => [e.path, e.kind, e.size])).toEqual([
      ['/Shared drives/Studio Team/Masters/Stems', 'folder', null],
      ['/Shared drives/Studio Team/Masters/Song master.wav', 'file', 22],
    ]);
    const read = await gdrive.read('/Shared drives/Studio Team/Masters/Song master.wav', {
      range: { start: 5, end: 8 },
    });
    const chunks: Buffer[] = [];
    for await (const chunk of read.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('song');
    expect(read.size).toBe(22);
    // My Drive's own listing never shows a shared drive's items.
    expect((await gdrive.list('/')).entries.some((e) => e.name === 'Masters')).toBe(false);
  });

  it('writes a file and makes a folder in a shared drive; "Shared drives" itself takes no file', async () => {
    const bounce = Buffer.from('a bounce of the session');
    await gdrive.write('/Shared drives/Studio Team/Masters/Bounce.wav', Readable.from([bounce]), bounce.length);
    expect(google.file('/Masters/Bounce.wav', 'Studio Team')).toEqual(bounce);
    expect(google.file('/Masters/Bounce.wav')).toBeNull();
    await gdrive.makeFolder('/Shared drives/Label/Releases');
    expect((await gdrive.list('/Shared drives/Label')).entries.map((e) => e.name)).toEqual(['Releases']);
    await expect(gdrive.write('/Shared drives/Loose.wav', Readable.from([bounce]), bounce.length)).rejects.toThrow(
      'Pick a folder inside one of the shared drives.',
    );
  });

  it('searches the shared drives too, each hit with its path under "Shared drives"', async () => {
    expect(pathsOf(await gdrive.search('song', { limit: 100 }))).toEqual([
      '/Shared drives/Studio Team/Masters/Song master.wav',
    ]);
    expect(pathsOf(await gdrive.search('stems', { limit: 100 }))).toEqual(['/Shared drives/Studio Team/Masters/Stems']);
  });
});
