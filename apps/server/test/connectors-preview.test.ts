import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClock } from '../src/platform/clock/clock';
import { call } from './helpers/api';
import { startClockedServer } from './helpers/clocked-server';
import { userWithLinkedWebdav } from './helpers/connector-steps';
import { signInThroughOidc } from './helpers/oidc-flow';
import { revokeRefreshToken } from './helpers/oidc-interaction';
import { waitFor } from './helpers/wait-for';
import type { TestServer } from './helpers/test-server';
import { writeWav } from './helpers/wav';
import { startWebdav, type TestWebdav } from './helpers/webdav';

/**
 * Hearing a linked audio file before importing it: a preview link the browser's player streams
 * through the server, with Range, straight from the provider (webdav-server here), checked again
 * on every request of it.
 */
let server: TestServer & { clock: TestClock };
let dav: TestWebdav;
let token: string;
let id: string;
let wav: Buffer;

const preview = (path: string, as = token) =>
  call(server.url, `/api/connectors/${id}/preview?path=${encodeURIComponent(path)}`, { token: as });
const fetchPreview = (url: string, range?: string) =>
  fetch(new URL(url, server.url), range ? { headers: { range } } : {});

beforeAll(async () => {
  [server, dav] = await Promise.all([
    startClockedServer({ CONNECTORS_ENABLED: 'webdav', CONNECTORS_ALLOW_HOSTS: '127.0.0.1' }),
    startWebdav(),
  ]);
  mkdirSync(join(dav.directory, 'Mixes'));
  await writeWav(join(dav.directory, 'Mixes', 'Final mix.wav'), 1024 * 1024);
  wav = readFileSync(join(dav.directory, 'Mixes', 'Final mix.wav'));
  writeFileSync(join(dav.directory, 'Mixes', 'Notes.txt'), 'words');
  ({ token, connectorId: id } = await userWithLinkedWebdav(server.url, 'ana@preview.test', dav));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await dav?.stop();
});

describe('previewing a linked audio file', () => {
  it('streams the whole file, and any range of it, as the provider has it', async () => {
    const link = await preview('/Mixes/Final mix.wav');
    expect(link.status).toBe(200);
    const url = String(link.body.url);
    expect(url).not.toContain(dav.password);
    const whole = await fetchPreview(url);
    expect([whole.status, whole.headers.get('content-type'), whole.headers.get('accept-ranges')]).toEqual([
      200,
      'audio/wav',
      'bytes',
    ]);
    expect(whole.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await whole.arrayBuffer()).equals(wav)).toBe(true);

    // What a player asks for when it seeks.
    const part = await fetchPreview(url, 'bytes=1000-1999');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${wav.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(wav.subarray(1000, 2000))).toBe(true);
    const tail = await fetchPreview(url, `bytes=${wav.length - 10}-`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(wav.subarray(wav.length - 10))).toBe(true);
    const beyond = await fetchPreview(url, `bytes=${wav.length}-`);
    expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${wav.length}`]);
  });

  it('ends a preview whose file changed at the provider since the link was made', async () => {
    const take = join(dav.directory, 'Mixes', 'Take 2.wav');
    await writeWav(take, 256 * 1024);
    const url = String((await preview('/Mixes/Take 2.wav')).body.url);
    expect((await fetchPreview(url, 'bytes=0-9')).status).toBe(206);
    await writeWav(take, 512 * 1024);
    const changed = await fetchPreview(url, 'bytes=0-9');
    expect(changed.status).toBe(409);
    expect(((await changed.json()) as { error: { message: string } }).error.message).toBe(
      'This file changed at the storage provider. Open its preview again.',
    );
  });

  it('answers an empty file with no bytes, and a range of it as unsatisfiable', async () => {
    writeFileSync(join(dav.directory, 'Mixes', 'Empty.wav'), '');
    const url = String((await preview('/Mixes/Empty.wav')).body.url);
    const whole = await fetchPreview(url);
    expect([whole.status, whole.headers.get('content-length'), (await whole.arrayBuffer()).byteLength]).toEqual([
      200,
      '0',
      0,
    ]);
    const range = await fetchPreview(url, 'bytes=0-9');
    expect([range.status, range.headers.get('content-range')]).toEqual([416, 'bytes */0']);
  });

  it('refuses what is not audio, a folder, a missing file and a path that climbs', async () => {
    expect((await preview('/Mixes/Notes.txt')).body.error).toMatchObject({
      code: 'NOT_AUDIO',
      message: 'Only audio files can be previewed.',
    });
    expect((await preview('/Mixes/Gone.wav')).status).toBe(404);
    expect((await preview('/Mixes/../../etc/passwd.wav')).status).toBe(400);
    expect((await preview('/')).status).toBe(400);
  });

  it('refuses a link that was changed, that expired by the clock, or whose account was unlinked', async () => {
    const url = String((await preview('/Mixes/Final mix.wav')).body.url);
    const tampered = url.replace(/.(?=$)/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await fetchPreview(tampered)).status).toBe(403);
    // Another file than the link names can't be asked for: the path is in the signed link.
    const other = await fetchPreview(`${url}&path=/Mixes/Notes.txt`, 'bytes=0-3');
    expect([other.status, other.headers.get('content-type')]).toEqual([206, 'audio/wav']);
    expect(Buffer.from(await other.arrayBuffer()).toString()).toBe('RIFF');

    server.clock.advance(31 * 60 * 1000);
    try {
      const expired = await fetchPreview(url);
      expect(expired.status).toBe(403);
      expect(((await expired.json()) as { error: { message: string } }).error.message).toBe(
        'This preview link is invalid or has expired.',
      );
    } finally {
      server.clock.advance(-31 * 60 * 1000);
    }

    // A link ends with the sign-in session that asked for it (a sign-out, a password reset).
    const session = await signInThroughOidc(
      server.url,
      { email: 'ana@preview.test', password: 'correct horse battery 1' },
      'signin',
    );
    const ofSession = String((await preview('/Mixes/Final mix.wav', session.access_token)).body.url);
    expect((await fetchPreview(ofSession, 'bytes=0-9')).status).toBe(206);
    expect(await revokeRefreshToken(server.url, session.refresh_token!)).toBe(200);
    await waitFor(async () => (await fetchPreview(ofSession, 'bytes=0-9')).status === 403, {
      what: 'the link of the ended session to be refused',
    });

    const fresh = String((await preview('/Mixes/Final mix.wav')).body.url);
    expect((await fetchPreview(fresh, 'bytes=0-9')).status).toBe(206);
    expect((await call(server.url, `/api/connectors/${id}`, { method: 'DELETE', token })).status).toBe(200);
    expect((await fetchPreview(fresh, 'bytes=0-9')).status).toBe(404);
  });
});
