import { createReadStream, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../../test/helpers/s3';
import type { BlobStore } from './blob-store';
import { DiskBlobStore } from './disk-blob-store';
import { S3BlobStore } from './s3-blob-store';
import { UrlSigner } from './url-signer';

/**
 * A body that fails before the store reads it (the file behind a stream is gone: a job's temporary
 * folder removed as the node stopped) is the put's rejection, never an uncaught error that would
 * end the process; and nothing is left stored.
 */
let s3: Awaited<ReturnType<typeof startS3>>;
const root = mkdtempSync(join(tmpdir(), 'mixroom-early-'));

beforeAll(async () => {
  s3 = await startS3();
}, 60_000);
afterAll(async () => {
  await s3?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe.each([
  {
    name: 'disk',
    store: (): BlobStore =>
      new DiskBlobStore(join(root, 'blobs'), new UrlSigner(Buffer.alloc(32, 7), 'http://mixroom.test')),
  },
  {
    name: 's3 (s3rver)',
    store: (): BlobStore => new S3BlobStore({ ...s3.drive, forcePathStyle: true }),
  },
])('$name: put of a stream whose file is gone', ({ store }) => {
  it('rejects with the file error and stores nothing', async () => {
    const blobs = store();
    const gone = createReadStream(join(root, 'no-such-file.m4a'));
    await expect(blobs.put('projects/p/versions/v/preview-lossy.m4a', gone, 'audio/mp4')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await blobs.head('projects/p/versions/v/preview-lossy.m4a')).toBeNull();
  });
});

it('leaves no temporary file behind on disk', () => {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [e.name]));
  expect(walk(join(root, 'blobs')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
});
