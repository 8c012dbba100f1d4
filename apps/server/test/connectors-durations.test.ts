import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriveEntry } from '@mixroom/contracts';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { userWithLinkedWebdav } from './helpers/connector-steps';
import { startTestServer, type TestServer } from './helpers/test-server';
import { writeWav } from './helpers/wav';
import { startWebdav, type TestWebdav } from './helpers/webdav';

/**
 * The cloud browser shows how long each audio file of a linked folder is before anyone plays it:
 * the server reads each file's first 64 KiB from the provider (webdav-server here) and takes the
 * length its header declares.
 */
let server: TestServer;
let dav: TestWebdav;
let ana: { token: string; connectorId: string };
let ben: { token: string; connectorId: string };
const folder = () => join(dav.directory, 'Mixes');

/** The folder as the browser lists it: the sizes and dates it sends back with the paths. */
async function listing(): Promise<DriveEntry[]> {
  const answer = await call(server.url, `/api/connectors/${ana.connectorId}/files?path=/Mixes`, { token: ana.token });
  expect(answer.status).toBe(200);
  return (answer.body as unknown as { entries: DriveEntry[] }).entries.filter((e) => e.kind === 'file');
}
const durations = (files: { path: string; size: number | null; modifiedAt: string | null }[], as = ana) =>
  call(server.url, `/api/connectors/${as.connectorId}/durations`, {
    method: 'POST',
    token: as.token,
    body: { files: files.map(({ path, size, modifiedAt }) => ({ path, size, modifiedAt })) },
  });

/** An MP3 behind an ID3 tag larger than the 64 KiB first read (cover art, here padding). */
function withLargeId3(mp3: Buffer, tagBytes: number): Buffer {
  const header = Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1');
  // Syncsafe: 7 bits per byte.
  for (let i = 0; i < 4; i++) header[9 - i] = (tagBytes >> (7 * i)) & 0x7f;
  return Buffer.concat([header, Buffer.alloc(tagBytes), mp3]);
}

beforeAll(async () => {
  [server, dav] = await Promise.all([
    startTestServer({ CONNECTORS_ENABLED: 'webdav', CONNECTORS_ALLOW_HOSTS: '127.0.0.1' }),
    startWebdav(),
  ]);
  mkdirSync(folder());
  await writeWav(join(folder(), 'Final mix.wav'), 5 * 192_000 + 44);
  for (const [name, seconds, codec] of [
    ['Stems.flac', 7, 'flac'],
    ['Vocal.aiff', 2, 'pcm_s16be'],
    ['Demo.mp3', 4, 'libmp3lame'],
  ] as const) {
    const made = makeAudio(name, { seconds, codec });
    writeFileSync(join(folder(), name), readFileSync(made));
  }
  writeFileSync(join(folder(), 'Bounce.mp3'), withLargeId3(readFileSync(join(folder(), 'Demo.mp3')), 150_000));
  writeFileSync(join(folder(), 'Cut.wav'), Buffer.from('RIFF\x00\x00\x00\x00WAVEjunk', 'latin1'));
  writeFileSync(join(folder(), 'Notes.txt'), 'words');
  ana = await userWithLinkedWebdav(server.url, 'ana@durations.test', dav);
  ben = await userWithLinkedWebdav(server.url, 'ben@durations.test', dav);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await dav?.stop();
});

describe('lengths of linked audio files', () => {
  it("reads each length from the file's header: WAV, FLAC, AIFF, MP3 (behind a large ID3 tag too)", async () => {
    const answer = await durations(await listing());
    expect(answer.status).toBe(200);
    const found = answer.body.durations as Record<string, number | null>;
    expect(found['/Mixes/Final mix.wav']).toBe(5);
    expect(found['/Mixes/Stems.flac']).toBeCloseTo(7, 3);
    expect(found['/Mixes/Vocal.aiff']).toBeCloseTo(2, 3);
    // An MP3's frames hold the encoder's padding: within one frame of the length asked of ffmpeg.
    expect(Math.abs(found['/Mixes/Demo.mp3']! - 4)).toBeLessThan(0.1);
    expect(found['/Mixes/Bounce.mp3']).toBe(found['/Mixes/Demo.mp3']);
    // What the header does not say is unknown, never a guess; what is not audio is not read.
    expect(found['/Mixes/Cut.wav']).toBeNull();
    expect(found['/Mixes/Notes.txt']).toBeNull();
    // The lengths ffmpeg itself reports for the same files.
    const probe = (name: string) =>
      Number(
        execFileSync('ffprobe', [
          '-v',
          'error',
          '-show_entries',
          'format=duration',
          '-of',
          'csv=p=0',
          join(folder(), name),
        ])
          .toString()
          .trim(),
      );
    for (const name of ['Final mix.wav', 'Stems.flac', 'Vocal.aiff', 'Demo.mp3'])
      expect(Math.abs(found[`/Mixes/${name}`]! - probe(name)), name).toBeLessThan(0.05);
  });

  it('remembers a length by the listed size and date, and reads a file again once either changed', async () => {
    const files = await listing();
    const stems = files.find((f) => f.name === 'Stems.flac')!;
    expect((await durations([stems])).body.durations).toEqual({ '/Mixes/Stems.flac': expect.closeTo(7, 3) });
    // Gone from the provider: the same listing's length comes from memory, without a read…
    rmSync(join(folder(), 'Stems.flac'));
    expect((await durations([stems])).body.durations).toEqual({ '/Mixes/Stems.flac': expect.closeTo(7, 3) });
    // …and a listing that says the file changed reads it again: it is gone, so its length is unknown.
    const changed = {
      ...stems,
      modifiedAt: new Date(Date.parse(stems.modifiedAt ?? '2026-01-01') + 1000).toISOString(),
    };
    expect((await durations([changed])).body.durations).toEqual({ '/Mixes/Stems.flac': null });
  });

  it("refuses another user's account, a caller signed out, too many files and a path that climbs out", async () => {
    const files = await listing();
    // Ben's token with Ana's account: her account is not his, so it does not exist for him.
    const foreign = await call(server.url, `/api/connectors/${ana.connectorId}/durations`, {
      method: 'POST',
      token: ben.token,
      body: { files: [{ path: files[0]!.path, size: files[0]!.size, modifiedAt: files[0]!.modifiedAt }] },
    });
    expect(foreign.status).toBe(404);
    const anonymous = await call(server.url, `/api/connectors/${ana.connectorId}/durations`, {
      method: 'POST',
      body: { files: [{ path: '/Mixes/Final mix.wav', size: 1, modifiedAt: null }] },
    });
    expect(anonymous.status).toBe(401);
    const many = Array.from({ length: 101 }, (_, i) => ({ path: `/Mixes/${i}.wav`, size: 1, modifiedAt: null }));
    const tooMany = await durations(many);
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain('Ask for at most 100 files at a time.');
    expect((await durations([{ path: '/Mixes/../../etc/passwd', size: 1, modifiedAt: null }])).status).toBe(400);
    expect((await durations([])).status).toBe(400);
  });
});
