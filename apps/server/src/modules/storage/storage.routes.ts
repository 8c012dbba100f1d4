import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { storageEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { GroupsService } from './folders/groups.service';
import type { ProjectsService } from './projects/projects.service';
import type { SearchService } from './search/search.service';
import type { TrashService } from './trash/trash.service';
import type { ZipService } from './downloads/zip.service';
import { contentDisposition } from '../../platform/blob/content-disposition';

export interface StorageRouteDeps {
  groups: GroupsService;
  projects: ProjectsService;
  trash: TrashService;
  search: SearchService;
  zip: ZipService;
  usage: (userId: string) => Promise<{ usedBytes: number; limitBytes: number }>;
}

export const storageRoutes: FastifyPluginAsyncZod<StorageRouteDeps> = async (app, deps) => {
  route(app, endpoints.listRoot, (request) => deps.groups.list(requireActor(request), null, request.query));
  route(app, endpoints.listGroup, (request) =>
    deps.groups.list(requireActor(request), request.params.id, request.query),
  );
  route(app, endpoints.folders, async (request) => ({ folders: await deps.groups.folders(requireActor(request)) }));
  route(app, endpoints.createGroup, (request) => deps.groups.create(requireActor(request), request.body));
  route(app, endpoints.updateGroup, (request) =>
    deps.groups.update(requireActor(request), request.params.id, request.body),
  );
  route(app, endpoints.ensureFolders, async (request) => ({
    folders: await deps.groups.ensureFolders(requireActor(request), request.body.parentId, request.body.paths),
  }));

  route(app, endpoints.createProject, (request) => deps.projects.create(requireActor(request), request.body));
  route(app, endpoints.project, (request) => deps.projects.get(requireActor(request), request.params.id));
  route(app, endpoints.updateProject, (request) =>
    deps.projects.update(requireActor(request), request.params.id, request.body),
  );
  route(app, endpoints.uploadProject, (request) => deps.projects.uploadFile(requireActor(request), request.body));
  route(app, endpoints.startVersion, (request) =>
    deps.projects.startVersion(requireActor(request), request.params.id, request.body),
  );
  route(app, endpoints.completeVersion, (request) =>
    deps.projects.completeUpload(requireActor(request), request.params.id),
  );
  route(app, endpoints.cancelVersion, (request) =>
    deps.projects.cancelUpload(requireActor(request), request.params.id),
  );
  route(app, endpoints.downloadUrl, (request) => deps.projects.downloadUrl(requireActor(request), request.params.id));
  for (const [endpoint, kind] of [
    [endpoints.thumbnail, 'thumbnail'],
    [endpoints.peaks, 'peaks'],
    [endpoints.preview, 'preview'],
  ] as const) {
    route(app, endpoint, async (request, reply) =>
      reply.redirect(await deps.projects.derivedUrl(requireActor(request), request.params.id, kind), 302),
    );
  }
  route(app, endpoints.setApproval, (request) =>
    deps.projects.setApproval(requireActor(request), request.params.id, request.body.approval),
  );
  route(app, endpoints.renameVersion, (request) =>
    deps.projects.renameVersion(requireActor(request), request.params.id, request.body.name),
  );
  route(app, endpoints.deleteVersion, (request) =>
    deps.projects.deleteVersion(requireActor(request), request.params.id),
  );

  route(app, endpoints.moveToTrash, (request) => deps.trash.moveToTrash(requireActor(request), request.body.items));
  route(app, endpoints.recover, (request) => deps.trash.recover(requireActor(request), request.body.items));
  route(app, endpoints.deleteForever, (request) => deps.trash.deleteForever(requireActor(request), request.body.items));
  route(app, endpoints.trash, async (request) => ({
    items: await deps.trash.list(requireActor(request), request.query.sort),
  }));
  route(app, endpoints.emptyTrash, async (request) => ({ deleted: await deps.trash.empty(requireActor(request)) }));

  route(app, endpoints.prepareZip, (request) => deps.zip.prepare(requireActor(request), request.body.items));
  route(app, endpoints.streamZip, async (request, reply) => {
    const zip = await deps.zip.stream(request.query.t);
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Length', zip.size)
      .header('Content-Disposition', contentDisposition(zip.fileName))
      .send(zip.body);
  });
  route(app, endpoints.search, async (request) => ({
    items: await deps.search.search(requireActor(request), request.query.q, request.query.limit),
  }));
  route(app, endpoints.usage, (request) => deps.usage(requireActor(request).userId));
};
