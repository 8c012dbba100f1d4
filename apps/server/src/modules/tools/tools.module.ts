import type { MediaTools } from '../../platform/media/ffmpeg';
import type { CreditsService } from '../credits';
import type { AttachmentsService, ProjectsService } from '../storage';
import type { AppModule, CoreDeps } from '../module';
import type { UploadsService } from '../uploads';
import { ToolsAdminService } from './tools-admin.service';
import { interruptedSessionIds, ToolsHousekeepingService } from './tools-housekeeping.service';
import { ToolsInputService } from './tools-input.service';
import { ToolsLibraryService } from './tools-library.service';
import { createToolProcessors, type ToolProcessors } from './tools-processors';
import { ToolsStageWork } from './tools-stage';
import type { LinkedFileReader, ToolsDeps } from './tools.deps';
import { toolsJobs } from './tools.jobs';
import { ToolsRepository } from './tools.repository';
import { toolsAdminRoutes, toolsRoutes } from './tools.routes';
import { ToolsService } from './tools.service';
import { toolsUserData } from './tools.user-data';

export type ToolsModule = AppModule<{
  tools: ToolsService;
  admin: ToolsAdminService;
  stages: ToolsStageWork;
  processors: ToolProcessors;
}>;

/**
 * AI tools: Revoice and Stem Separation tasks. API nodes take tasks (input checks, the running-task
 * and credit rules); worker nodes run their stages as jobs with the configured processors.
 */
export function createToolsModule(
  core: CoreDeps,
  deps: {
    uploads: UploadsService;
    credits: CreditsService;
    projects: ProjectsService;
    attachments: AttachmentsService;
    mediaTools: MediaTools;
    /** Tests put a processor of their own in place of the configured one. */
    processors?: ToolProcessors;
    linkedFiles?: LinkedFileReader;
  },
): ToolsModule {
  const processors = deps.processors ?? createToolProcessors(core.config.tools, deps.mediaTools);
  const shared: ToolsDeps = {
    repository: new ToolsRepository(core.db),
    uploads: deps.uploads,
    credits: deps.credits,
    items: core.items,
    blobs: core.blobs,
    outbox: core.outbox,
    jobs: core.jobs,
    bus: core.bus,
    unitOfWork: core.unitOfWork,
    clock: core.clock,
    faults: core.faults,
    temp: core.temp,
    mediaTools: deps.mediaTools,
    processors,
    config: core.config.tools,
    signTtlSeconds: core.config.signedUrlTtlSeconds,
    linkedFiles: deps.linkedFiles ?? null,
  };
  const tools = new ToolsService(shared, new ToolsInputService(shared));
  const admin = new ToolsAdminService(shared);
  const stages = new ToolsStageWork(shared);
  const housekeeping = new ToolsHousekeepingService(shared);
  const library = new ToolsLibraryService({
    tools,
    blobs: core.blobs,
    items: core.items,
    uploads: deps.uploads,
    projects: deps.projects,
    attachments: deps.attachments,
  });
  return {
    name: 'tools',
    routes: [
      (app) => app.register(toolsRoutes, { tools, library }),
      (app) => app.register(toolsAdminRoutes, { admin }),
    ],
    jobs: toolsJobs(
      stages,
      { unitOfWork: core.unitOfWork, outbox: core.outbox, clock: core.clock, faults: core.faults },
      housekeeping,
    ),
    services: { tools, admin, stages, processors },
    userData: toolsUserData(shared.repository),
    // Stages a dead process of this host left mid-way are retried at once.
    onStart: async () => {
      await housekeeping.requeueInterrupted(interruptedSessionIds(core.temp.leftovers), core.log);
    },
  };
}
