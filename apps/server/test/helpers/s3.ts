import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { DriveCredentials } from '../../src/platform/drives/create-drive';
import { freePort } from './free-port';

export const TEST_BUCKET = 'mixroom-test';

/** CORS as an operator would set it, so browsers may PUT parts and read their ETag. */
export const CORS_CONFIG = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>`;

/** A real S3-compatible server (s3rver) on a free port, with one bucket. */
export async function startS3(): Promise<{
  env: Record<string, string>;
  /** The bucket as a linked account (a connector's or a transfer's drive) sees it. */
  drive: DriveCredentials & { kind: 's3' };
  directory: string;
  stop(): Promise<void>;
}> {
  const directory = mkdtempSync(join(tmpdir(), 'mixroom-s3-'));
  const port = await freePort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET, configs: [CORS_CONFIG] }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    directory,
    drive: {
      kind: 's3',
      endpoint,
      bucket: TEST_BUCKET,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
    env: {
      BLOB_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: TEST_BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
