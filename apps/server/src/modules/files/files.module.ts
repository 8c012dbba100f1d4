import { DiskBlobStore } from '../../platform/blob/disk-blob-store';
import { diskBlobRoutes } from '../../platform/blob/disk-blob.routes';
import type { UrlSigner } from '../../platform/blob/url-signer';
import type { AppModule, CoreDeps } from '../module';

/**
 * Signed file URLs on the disk driver: the app serves them itself. On S3 the browser talks to the
 * store directly, and this module serves nothing.
 */
export function createFilesModule(core: CoreDeps, deps: { signer: UrlSigner }): AppModule {
  const store = core.blobs;
  return {
    name: 'files',
    routes:
      store instanceof DiskBlobStore
        ? [(app) => app.register(async (scope) => diskBlobRoutes(scope, { store, signer: deps.signer }))]
        : [],
    services: {},
  };
}
