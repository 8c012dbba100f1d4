import { SharingUserDataRepository, sharingUserData } from './sharing.user-data';
import type { CoreDeps, AppModule } from '../module';
import { sendPushJob } from '../push';
import type { CatalogService } from '../storage';
import type { ProjectsService } from '../storage';
import type { ZipService } from '../storage';
import { AttemptLimiter } from '../../platform/security/attempt-limiter';
import { AttemptLimitsRepository } from '../../platform/security/attempt-limits.repository';
import { InviteLookupsService } from './invite-lookups.service';
import { PublicShareService } from './public-share.service';
import { SharingRepository } from './sharing.repository';
import { sharingRoutes } from './sharing.routes';
import { SharingService } from './sharing.service';

export type SharingModule = AppModule<{ sharing: SharingService; publicShare: PublicShareService }>;

/** Collaborators, invitations, join requests and public links. */
export function createSharingModule(
  core: CoreDeps,
  deps: { catalog: CatalogService; zip: ZipService; projects: ProjectsService },
): SharingModule {
  const repository = new SharingRepository(core.db, core.clock);
  const sharing = new SharingService({
    repository,
    policy: core.items,
    accessChanges: core.accessChanges,
    jobs: core.jobs,
    bus: core.bus,
    publicUrl: core.config.publicUrl,
    clock: core.clock,
    pushTo: (userId, message) => core.jobs.send(sendPushJob, { userId, ...message }).then(() => undefined),
  });
  const publicShare = new PublicShareService({
    links: core.links,
    catalog: deps.catalog,
    zip: deps.zip,
    blobs: core.blobs,
    grants: core.grants,
    signTtlSeconds: core.config.signedUrlTtlSeconds,
    playback: (version, canDownload) => deps.projects.signPlayback(version, canDownload),
  });
  const inviteLookups = new InviteLookupsService(new AttemptLimiter(new AttemptLimitsRepository(core.db), core.clock));
  return {
    name: 'sharing',
    routes: [(app) => app.register(sharingRoutes, { sharing, publicShare, inviteLookups })],
    jobs: [],
    services: { sharing, publicShare },
    userData: sharingUserData(new SharingUserDataRepository(core.db)),
  };
}
