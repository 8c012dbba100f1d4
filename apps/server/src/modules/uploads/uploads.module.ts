import type { AppModule, CoreDeps } from '../module';
import { UploadsRepository } from './uploads.repository';
import { uploadsRoutes } from './uploads.routes';
import { UploadsService } from './uploads.service';

export type UploadsModule = AppModule<{ uploads: UploadsService }>;

/** Direct-to-storage uploads in parallel parts, for versions and transfers alike. */
export function createUploadsModule(core: CoreDeps): UploadsModule {
  const uploads = new UploadsService({
    repository: new UploadsRepository(core.db, core.clock),
    store: core.blobs,
    signedUrlTtlSeconds: core.config.signedUrlTtlSeconds,
    clock: core.clock,
  });
  return { name: 'uploads', routes: [(app) => app.register(uploadsRoutes, { uploads })], services: { uploads } };
}
