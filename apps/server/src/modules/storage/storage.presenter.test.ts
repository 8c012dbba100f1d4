import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../platform/blob/blob-store';
import { DiskBlobStore } from '../../platform/blob/disk-blob-store';
import { S3BlobStore } from '../../platform/blob/s3-blob-store';
import { cacheControlOf, UrlSigner } from '../../platform/blob/url-signer';
import type { UsersRepository } from '../users';
import { StoragePresenter } from './storage.presenter';
import type { VersionRow } from './projects/versions.repository';

/** The signed-URL lifetime (SIGNED_URL_TTL_SECONDS' default); thumbnails stay the same for half of it. */
const TTL_SECONDS = 300;
const WINDOW_SECONDS = TTL_SECONDS / 2;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const windowStart = Date.UTC(2026, 10, 24);
const rows = [
  { id: 'v1', thumbnailKey: 'projects/p1/v1/waveform.png' },
  { id: 'v2', thumbnailKey: null },
] as VersionRow[];

const signer = new UrlSigner(Buffer.alloc(32, 7), 'http://mixroom.test');
const stores: { name: string; store: () => BlobStore }[] = [
  { name: 'disk', store: () => new DiskBlobStore(mkdtempSync(join(tmpdir(), 'mixroom-thumbs-')), signer) },
  {
    name: 's3',
    // Presigning is local computation: no S3 server is needed to compare URLs.
    store: () =>
      new S3BlobStore({
        endpoint: 'http://127.0.0.1:9',
        bucket: 'thumbs',
        region: 'us-east-1',
        accessKeyId: 'KEY',
        secretAccessKey: 'SECRET',
        forcePathStyle: true,
      }),
  },
];

/** A presenter whose clock reads what the test sets. */
function presenterAt(store: BlobStore) {
  const clock = { now: new Date(windowStart) };
  return {
    clock,
    presenter: new StoragePresenter({
      users: {} as UsersRepository,
      blobs: store,
      signedUrlTtlSeconds: TTL_SECONDS,
      now: () => clock.now,
    }),
  };
}

describe.each(stores)('thumbnail URLs ($name driver)', ({ store }) => {
  it('are identical for every listing within a window, so browsers fetch each tile image once', async () => {
    const { clock, presenter } = presenterAt(store());
    const first = await presenter.thumbnails(rows);
    clock.now = new Date(windowStart + WINDOW_MS - 1000);
    const later = await presenter.thumbnails(rows);
    expect([...first.keys()]).toEqual(['v1']);
    expect(later.get('v1')).toBe(first.get('v1'));
    clock.now = new Date(windowStart + WINDOW_MS);
    expect((await presenter.thumbnails(rows)).get('v1')).not.toBe(first.get('v1'));
  });
});

describe('disk thumbnail URLs', () => {
  it('live no longer than every other signed URL, at least half of it, and ask browsers to cache them for the window', async () => {
    const { clock, presenter } = presenterAt(stores[0]!.store());
    clock.now = new Date(windowStart + WINDOW_MS - 1000);
    const late = Object.fromEntries(new URL((await presenter.thumbnails(rows)).get('v1')!).searchParams);
    const claims = signer.verify('get', late, windowStart + TTL_SECONDS * 1000 - 1000);
    expect(claims).toMatchObject({
      key: 'projects/p1/v1/waveform.png',
      contentType: 'image/png',
      cacheSeconds: WINDOW_SECONDS,
    });
    expect(cacheControlOf(claims!)).toBe('private, max-age=150');
    expect(signer.verify('get', late, windowStart + TTL_SECONDS * 1000 + 1000)).toBeNull();
    // Handed out at the very start of a window, a URL still ends within the lifetime.
    clock.now = new Date(windowStart);
    const early = Object.fromEntries(new URL((await presenter.thumbnails(rows)).get('v1')!).searchParams);
    expect(signer.verify('get', early, windowStart + TTL_SECONDS * 1000 + 1000)).toBeNull();
    // The cache lifetime is part of the signature.
    expect(signer.verify('get', { ...late, c: '31536000' }, windowStart)).toBeNull();
  });

  it('keeps the signature of URLs signed without a cache lifetime', () => {
    const url = new URL(signer.sign({ action: 'get', key: 'a/b.wav', expires: windowStart / 1000 + 60 }));
    const claims = signer.verify('get', Object.fromEntries(url.searchParams), windowStart);
    expect(claims?.cacheSeconds).toBeUndefined();
    expect(cacheControlOf(claims!)).toBe('private, max-age=3600');
  });
});

describe('S3 thumbnail URLs', () => {
  it('carry the signing date of the window and the Cache-Control the store must answer with', async () => {
    const { presenter } = presenterAt(stores[1]!.store());
    const url = new URL((await presenter.thumbnails(rows)).get('v1')!);
    expect(url.searchParams.get('X-Amz-Date')).toBe('20261124T000000Z');
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(TTL_SECONDS));
    expect(url.searchParams.get('response-cache-control')).toBe('private, max-age=150');
  });
});
