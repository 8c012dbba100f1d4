import type { AppConfig } from '../../config/config';
import type { BlobStore } from './blob-store';
import { DiskBlobStore } from './disk-blob-store';
import { S3BlobStore } from './s3-blob-store';
import type { UrlSigner } from './url-signer';

export function createBlobStore(config: AppConfig['blob'], signer: UrlSigner): BlobStore {
  return config.driver === 's3' ? new S3BlobStore(config) : new DiskBlobStore(config.root, signer);
}
