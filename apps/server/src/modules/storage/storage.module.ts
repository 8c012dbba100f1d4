import { mergePlans, storageLimitBytes } from '@mixroom/shared';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { ItemAccessRepository } from '../../access/item-access.repository';
import type { BlobStore } from '../../platform/blob/blob-store';
import { defineJob, type JobDefinition } from '../../platform/jobs/job-definition';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { MediaTools } from '../../platform/media/ffmpeg';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { TopicPolicy } from '../../platform/realtime/topic-policy';
import type { UploadsService } from '../uploads/uploads.service';
import type { UsersRepository } from '../users/users.repository';
import type { UsersService } from '../users/users.service';
import { AttachmentsService } from './attachments.service';
import { GroupsRepository } from './groups.repository';
import { GroupsService } from './groups.service';
import { mediaJobs } from './media.jobs';
import { MediaService } from './media.service';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { SearchService } from './search.service';
import { StorageEvents } from './storage.events';
import { StoragePresenter } from './storage.presenter';
import type { StorageRouteDeps } from './storage.routes';
import { TrashRepository } from './trash.repository';
import { TrashService } from './trash.service';
import { VersionsRepository } from './versions.repository';
import { ZipService } from './zip.service';
import type { TokenSigner } from '../../platform/secrets/token-signer';

export interface StorageModule extends StorageRouteDeps {
  media: MediaService;
  attachments: AttachmentsService;
  repositories: { groups: GroupsRepository; projects: ProjectsRepository; versions: VersionsRepository; access: ItemAccessRepository };
  presenter: StoragePresenter;
  jobs: JobDefinition[];
}

/** Wires the storage area: repositories, services, its jobs and who may follow a folder's events. */
export function createStorageModule(deps: {
  db: Db;
  blobs: BlobStore;
  bus: EventBus;
  jobs: JobQueue;
  uploads: UploadsService;
  users: UsersService;
  usersRepository: UsersRepository;
  topics: TopicPolicy;
  mediaTools: MediaTools;
  signTtlSeconds: number;
  tokens: TokenSigner;
}): StorageModule {
  const access = new ItemAccessRepository(deps.db);
  const groupsRepo = new GroupsRepository(deps.db);
  const projectsRepo = new ProjectsRepository(deps.db);
  const versionsRepo = new VersionsRepository(deps.db);
  const presenter = new StoragePresenter(deps.usersRepository, deps.blobs);
  const events = new StorageEvents(deps.bus);
  const limitsFor = async (userId: string) => mergePlans(await deps.users.activeSkus(userId));
  const groups = new GroupsService(groupsRepo, projectsRepo, versionsRepo, access, presenter, events);
  const projects = new ProjectsService(
    projectsRepo,
    versionsRepo,
    groupsRepo,
    groups,
    access,
    presenter,
    events,
    deps.uploads,
    deps.blobs,
    deps.jobs,
    limitsFor,
    deps.signTtlSeconds,
  );
  const trash = new TrashService(new TrashRepository(deps.db), groupsRepo, projectsRepo, versionsRepo, access, presenter, events, deps.blobs);
  const search = new SearchService(deps.db, access);
  const media = new MediaService(versionsRepo, projectsRepo, deps.blobs, deps.mediaTools, events, deps.signTtlSeconds);
  const attachments = new AttachmentsService(projects, projectsRepo, versionsRepo, presenter, deps.blobs, events);
  const zip = new ZipService(deps.db, groups, projects, versionsRepo, access, deps.blobs, deps.bus, deps.tokens);

  // `group:root` carries only ids of changed root items; each client refetches what it may see.
  deps.topics.register('group', async (actor, id) => {
    if (id === 'root') return true;
    if (!z.uuid().safeParse(id).success) return false;
    const group = await groupsRepo.find(id);
    return group ? (await access.roleFor(actor.userId, group)) !== 'NONE' : false;
  });

  const purge = defineJob(
    { name: 'storage.purge-trash', schema: z.object({}).passthrough(), schedule: '17 3 * * *', retryLimit: 1 },
    async (_payload, { log }) => {
      log.info({ purged: await trash.purgeExpired() }, 'trash purged');
    },
  );

  return {
    groups,
    projects,
    trash,
    search,
    media,
    zip,
    attachments,
    repositories: { groups: groupsRepo, projects: projectsRepo, versions: versionsRepo, access },
    presenter,
    usage: async (userId) => ({
      usedBytes: await versionsRepo.usedBytes(userId),
      limitBytes: Math.min(Number.MAX_SAFE_INTEGER, storageLimitBytes(await limitsFor(userId))),
    }),
    jobs: [...mediaJobs(media), purge],
  };
}
