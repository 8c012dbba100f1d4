import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../src/platform/blob/s3-blob-store';
import { thumbnailSigning } from '../src/modules/storage/storage.presenter';
import { startS3 } from './helpers/s3';

let s3: Awaited<ReturnType<typeof startS3>>;
let store: S3BlobStore;

beforeAll(async () => {
  s3 = await startS3();
  store = new S3BlobStore({
    endpoint: s3.env.S3_ENDPOINT,
    bucket: s3.env.S3_BUCKET!,
    region: s3.env.S3_REGION!,
    accessKeyId: s3.env.S3_ACCESS_KEY_ID,
    secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
  });
});
afterAll(() => s3.stop());

describe('thumbnails on an S3-compatible store', () => {
  it('answer the stable URL with the image and the Cache-Control it was signed with', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await store.put('projects/p/v/waveform.png', png, 'image/png');
    const signing = thumbnailSigning(new Date(), 300);
    const url = await store.signDownloadUrl('projects/p/v/waveform.png', { ...signing, contentType: 'image/png' });
    expect(await store.signDownloadUrl('projects/p/v/waveform.png', { ...signing, contentType: 'image/png' })).toBe(
      url,
    );
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, max-age=150');
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(png);
  });
});
