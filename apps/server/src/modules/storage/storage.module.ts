import { storageLimitBytes } from '@mixroom/shared';
import { z } from 'zod';
import type { Entitlements } from '../../access/entitlements';
import { STORAGE_SCOPE, TRANSFER_SCOPE } from '../../access/item-scope';
import type { MediaTools } from '../../platform/media/ffmpeg';
import { defineScheduledJob } from '../../platform/jobs/job-definition';
import type { CoreDeps, AppModule } from '../module';
import type { UploadsService } from '../uploads';
import type { UsersService } from '../users';
import { attachmentsRoutes } from './projects/attachments.routes';
import { AttachmentsService } from './projects/attachments.service';
import { CatalogService } from './catalog.service';
import { GroupsRepository } from './folders/groups.repository';
import { GroupsService } from './folders/groups.service';
import { mediaJobs } from './media/media.jobs';
import { interruptedVersionIds } from './media/media-work';
import { MediaService } from './media/media.service';
import { ProjectsRepository } from './projects/projects.repository';
import { ProjectsService } from './projects/projects.service';
import type { Notifier } from '../users';
import { SearchRepository } from './search/search.repository';
import { SearchService } from './search/search.service';
import { StorageEvents } from './storage.events';
import { StoragePresenter } from './storage.presenter';
import { storageRoutes } from './storage.routes';
import { StorageSweeper } from './storage-sweeper';
import { TrashRepository } from './trash/trash.repository';
import { TrashService } from './trash/trash.service';
import { VersionsRepository } from './projects/versions.repository';
import { ZipService } from './downloads/zip.service';
import { storageUserData } from './user-data/storage.user-data';
import { UserDataRepository } from './user-data/user-data.repository';

export interface StorageServices {
  groups: GroupsService;
  projects: ProjectsService;
  trash: TrashService;
  search: SearchService;
  zip: ZipService;
  media: MediaService;
  attachments: AttachmentsService;
  catalog: CatalogService;
  presenter: StoragePresenter;
  sweeper: StorageSweeper;
  usage: (userId: string) => Promise<{ usedBytes: number; limitBytes: number }>;
}

export type StorageModule = AppModule<StorageServices>;

const uuidOk = (id: string) => z.uuid().safeParse(id).success;

/** The storage area: folders, projects and versions, media, trash, search and downloads. */
export function createStorageModule(
  core: CoreDeps,
  deps: {
    uploads: UploadsService;
    users: UsersService;
    entitlements: Entitlements;
    mediaTools: MediaTools;
    notifier: Notifier;
  },
): StorageModule {
  const { db, items: policy, accessChanges } = core;
  const signTtlSeconds = core.config.signedUrlTtlSeconds;
  const groupsRepo = new GroupsRepository({ db, scope: STORAGE_SCOPE, clock: core.clock });
  const projectsRepo = new ProjectsRepository({ db, scope: STORAGE_SCOPE, clock: core.clock });
  const versions = new VersionsRepository(db);
  const presenter = new StoragePresenter({
    users: deps.users,
    blobs: core.blobs,
    signedUrlTtlSeconds: signTtlSeconds,
    now: () => core.clock.now(),
  });
  const events = new StorageEvents(core.bus, core.facts);
  const limitsFor = (userId: string) => deps.entitlements.limits(userId);

  const groups = new GroupsService({
    groups: groupsRepo,
    projects: projectsRepo,
    versions,
    policy,
    presenter,
    events,
    accessChanges,
  });
  const projects = new ProjectsService({
    projects: projectsRepo,
    versions,
    policy,
    presenter,
    events,
    accessChanges,
    uploads: deps.uploads,
    blobs: core.blobs,
    outbox: core.outbox,
    unitOfWork: core.unitOfWork,
    limitsFor,
    signTtlSeconds,
    clock: core.clock,
    faults: core.faults,
    notify: (tx, userIds, notice) => deps.notifier.notify(tx, userIds, notice),
  });
  const trash = new TrashService({
    trash: new TrashRepository({ db, scope: STORAGE_SCOPE, clock: core.clock }),
    groups: groupsRepo,
    projects: projectsRepo,
    versions,
    policy,
    presenter,
    events,
    accessChanges,
    blobs: core.blobs,
    uploads: deps.uploads,
    clock: core.clock,
  });
  const search = new SearchService({ repository: new SearchRepository(db, STORAGE_SCOPE), policy });
  // The pipeline also processes transfer files (projects of the TRANSFER area): it learns a project's kind from either area.
  const transferProjects = new ProjectsRepository({ db, scope: TRANSFER_SCOPE, clock: core.clock });
  const anyAreaProjects = {
    find: async (id: string) => (await projectsRepo.find(id)) ?? transferProjects.find(id),
  };
  const media = new MediaService({
    versions,
    projects: anyAreaProjects,
    blobs: core.blobs,
    tools: deps.mediaTools,
    events,
    temp: core.temp,
    signTtlSeconds,
    clock: core.clock,
  });
  const attachments = new AttachmentsService({
    projects,
    projectsRepo,
    versions,
    policy,
    presenter,
    blobs: core.blobs,
    events,
  });
  const zip = new ZipService({
    policy,
    projects: projectsRepo,
    versions,
    blobs: core.blobs,
    bus: core.bus,
    tokens: core.tokens,
    clock: core.clock,
    actorOf: (userId) => deps.users.actorById(userId),
  });
  const catalog = new CatalogService({ groups: groupsRepo, projects: projectsRepo, versions, presenter });
  const sweeper = new StorageSweeper({
    versions,
    facts: core.facts,
    projects,
    uploads: deps.uploads,
    jobs: core.jobs,
    clock: core.clock,
  });
  const usage = async (userId: string) => ({
    usedBytes: await versions.usedBytes(userId),
    limitBytes: Math.min(Number.MAX_SAFE_INTEGER, storageLimitBytes(await limitsFor(userId))),
  });

  const jobs = [
    ...mediaJobs(media, { unitOfWork: core.unitOfWork, outbox: core.outbox, clock: core.clock, faults: core.faults }),
    defineScheduledJob('storage.purge-trash', '17 3 * * *', async ({ log }) => {
      log.info({ purged: await trash.purgeExpired() }, 'trash purged');
    }),
    defineScheduledJob(
      'storage.sweep',
      '*/5 * * * *',
      async ({ log }) => {
        const swept = await sweeper.run();
        if (swept.dropped) log.info(swept, 'storage swept');
      },
      { retryLimit: 0 },
    ),
  ];

  return {
    name: 'storage',
    routes: [
      (app) => app.register(storageRoutes, { groups, projects, trash, search, zip, usage }),
      (app) => app.register(attachmentsRoutes, { attachments }),
    ],
    jobs,
    services: { groups, projects, trash, search, zip, media, attachments, catalog, presenter, sweeper, usage },
    userData: storageUserData(new UserDataRepository(db), core.outbox),
    // A folder's or project's topic is as private as the item; a public link opens it to a grant.
    topics: {
      group: {
        canFollow: async (actor, id) => uuidOk(id) && (await policy.canSee(actor, 'group', id)),
        canFollowPublicly: async (id) => uuidOk(id) && (await core.links.isPublic('group', id)),
      },
      project: {
        canFollow: async (actor, id) => uuidOk(id) && (await policy.canSee(actor, 'project', id)),
        canFollowPublicly: async (id) => uuidOk(id) && (await core.links.isPublic('project', id)),
      },
    },
    // Media jobs the previous process of this node left mid-way are queued again at once.
    onStart: async () => {
      await sweeper.requeueInterrupted(interruptedVersionIds(core.temp.leftovers), core.log);
    },
  };
}
