import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing, Version } from '@mixroom/contracts';
import { call } from './helpers/api';
import { audioDir, generateAudio, makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/**
 * One odd file must not break a folder for everyone: a digitally silent WAV has no true peak
 * (ebur128 says −inf) and a 100-byte WAV has no audio at all. Both go through the real media job;
 * the folder, the project and the trash still list, with the measurements that don't exist as null.
 */
let server: TestServer;
let token: string;
const ana = () => storageClient(server.url, token);

/** A 44-byte WAV header announcing 16-bit stereo, then 56 bytes of nothing: 100 bytes. */
function hundredByteWav(): string {
  const bytes = Buffer.alloc(100);
  bytes.write('RIFF', 0);
  bytes.writeUInt32LE(92, 4);
  bytes.write('WAVEfmt ', 8);
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(2, 22);
  bytes.writeUInt32LE(48_000, 24);
  bytes.writeUInt32LE(48_000 * 4, 28);
  bytes.writeUInt16LE(4, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write('data', 36);
  bytes.writeUInt32LE(56, 40);
  const path = join(audioDir, 'Hundred bytes.wav');
  writeFileSync(path, bytes);
  return path;
}

/**
 * Waits until the media job is done with every version of a project, whatever it concluded. An
 * answer other than 200 ends the wait at once: it is what this test is about.
 */
async function settled(projectId: string): Promise<Version[]> {
  const answer = await waitFor(
    async () => {
      const response = await call(server.url, `/api/projects/${projectId}`, { token });
      if (response.status !== 200) return response;
      const { versions } = response.body as { versions: Version[] };
      const done = versions.every((v) => (v.status === 'ready' && v.progress === 100) || v.status === 'corrupt');
      return versions.length > 0 && done ? response : null;
    },
    { what: 'the media job', timeoutMs: 90_000 },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { versions: Version[] }).versions;
}

beforeAll(async () => {
  server = await startTestServer();
  token = (await signInThroughOidc(server.url, { email: 'ana@odd-media.test', password: 'ana-password-long' }))
    .access_token;
});
afterAll(() => server.close());

describe('a folder holding a silent WAV and a 100-byte WAV', () => {
  it('lists the folder, the projects and the trash with null measurements', { timeout: 180_000 }, async () => {
    const folder = await ana().createFolder('Odd files', null);
    const silent = generateAudio(join(audioDir, 'Silence.wav'), 'anullsrc=r=48000:cl=stereo:d=3', [
      '-c:a',
      'pcm_s16le',
    ]);
    const uploads = [
      await ana().upload(silent, folder.id),
      await ana().upload(hundredByteWav(), folder.id),
      await ana().upload(makeAudio('Tone.wav', { seconds: 2 }), folder.id),
    ];
    const [silentVersions, tinyVersions] = await Promise.all(uploads.map((u) => settled(u.ticket.project.id)));

    // The silent file plays: no true peak and no meaningful loudness, said as null.
    const quiet = silentVersions![0]!;
    expect(quiet.status).toBe('ready');
    expect(quiet.loudness?.truePeak ?? null).toBeNull();
    expect(quiet.loudness?.integrated ?? null).toBeNull();
    // The 100-byte file holds fourteen frames of silence at most: nothing to measure either.
    const tiny = tinyVersions![0]!;
    expect([tiny.loudness?.integrated ?? null, tiny.loudness?.truePeak ?? null]).toEqual([null, null]);

    const listing = await call(server.url, `/api/groups/${folder.id}/items`, { token });
    expect(listing.status).toBe(200);
    const items = (listing.body as Listing).items;
    expect(items).toHaveLength(3);
    const tone = items.find((i) => i.name === 'Tone');
    // The healthy file keeps its measurements next to the odd ones.
    expect(tone && 'latestVersion' in tone ? tone.latestVersion?.loudness?.truePeak : null).toEqual(expect.any(Number));

    for (const { ticket } of uploads) {
      const project = await call(server.url, `/api/projects/${ticket.project.id}`, { token });
      expect(project.status).toBe(200);
    }

    await ana().api('/api/items/trash', {
      method: 'POST',
      body: { items: uploads.map(({ ticket }) => ({ kind: 'project', id: ticket.project.id })) },
    });
    const trash = await call(server.url, '/api/trash', { token });
    expect(trash.status).toBe(200);
    expect((trash.body as { items: { id: string }[] }).items).toHaveLength(3);
  });
});
