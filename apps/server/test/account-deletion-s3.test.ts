import { readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startS3 } from './helpers/s3';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/** Account deletion on the S3 driver: the user's files leave the bucket of a real S3-compatible server. */
let s3: Awaited<ReturnType<typeof startS3>>;
let server: TestServer;

/** Every object s3rver keeps on its disk, as paths relative to its folder. */
const storedFiles = () =>
  readdirSync(s3.directory, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('._S3rver_object'));

beforeAll(async () => {
  s3 = await startS3();
  server = await startTestServer(s3.env);
});
afterAll(async () => {
  await server.close();
  await s3.stop();
});

describe('account deletion on S3', () => {
  it('removes the files, the picture and the rows of the account', async () => {
    const token = (await signInThroughOidc(server.url, { email: 'gone@s3.test', password: 'gone-password' }))
      .access_token;
    const me = storageClient(server.url, token);
    const { ticket } = await me.upload(makeAudio('Bucket.wav', { seconds: 1 }), null);
    await waitFor(async () => (await me.project(ticket.project.id)).versions[0]?.status === 'ready', {
      what: 'processing',
      timeoutMs: 60_000,
    });
    // A 1×1 PNG as the profile picture.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const photo = await call(server.url, '/api/me/photo', {
      method: 'PUT',
      token,
      body: { image: png.toString('base64') },
    });
    expect(photo.status).toBe(200);
    const before = await server.context.blobs.head(`projects/${ticket.project.id}/${ticket.version.id}/peaks.json`);
    expect(before).not.toBeNull();
    expect(storedFiles().some((f) => f.includes(ticket.project.id))).toBe(true);
    expect(storedFiles().some((f) => f.includes('avatars'))).toBe(true);
    // A "download my data" archive: a copy of the files, kept under the user's id.
    const userId = ((await call(server.url, '/api/me', { token })).body as { id: string }).id;
    expect((await call(server.url, '/api/me/exports', { method: 'POST', token })).status).toBe(202);
    await waitFor(
      async () =>
        ((await call(server.url, '/api/me/exports', { token })).body.exports as { status: string }[]).some(
          (e) => e.status === 'ready',
        ),
      { what: 'the archive', timeoutMs: 20_000 },
    );
    expect(storedFiles().some((f) => f.includes(`exports/${userId}`))).toBe(true);

    const deleted = await call(server.url, '/api/me/deletion', {
      method: 'POST',
      token,
      body: { email: 'gone@s3.test' },
    });
    expect(deleted.status).toBe(202);
    const { db } = server.context.database;
    await waitFor(async () => (await db.select().from(users).where(eq(users.email, 'gone@s3.test'))).length === 0, {
      what: 'the account erased',
      timeoutMs: 20_000,
    });
    expect(await server.context.blobs.head(`projects/${ticket.project.id}/${ticket.version.id}/peaks.json`)).toBeNull();
    // The version was ready before the deletion, but its lossy preview may still have been encoding:
    // a job that stores a file for a version gone meanwhile removes it once it finds the row gone.
    const leftovers = () =>
      storedFiles().filter((f) => f.includes(ticket.project.id) || f.includes('avatars/') || f.includes(userId));
    await waitFor(() => leftovers().length === 0, {
      what: `no file of the account left (${leftovers().join(', ')})`,
      timeoutMs: 60_000,
    });
  });
});
