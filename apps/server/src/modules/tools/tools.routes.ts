import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminToolEndpoints, toolEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { ToolsAdminService } from './tools-admin.service';
import type { ToolsLibraryService } from './tools-library.service';
import type { ToolsService } from './tools.service';

/** The AI tools' endpoints: each parses, asks the service (which checks ownership), answers. */
export const toolsRoutes: FastifyPluginAsyncZod<{ tools: ToolsService; library: ToolsLibraryService }> = async (
  app,
  { tools, library },
) => {
  route(app, endpoints.overview, (request) => tools.overview(requireActor(request)));
  route(app, endpoints.voices, (request) => {
    requireActor(request);
    return tools.voices();
  });
  route(app, endpoints.upload, (request) => tools.openUpload(requireActor(request), request.body));
  route(app, endpoints.list, (request) => tools.list(requireActor(request), request.query.q));
  route(app, endpoints.create, (request) => tools.create(requireActor(request), request.body));
  route(app, endpoints.get, (request) => tools.get(requireActor(request), request.params.id));
  route(app, endpoints.remove, (request) => tools.remove(requireActor(request), request.params.id));
  route(app, endpoints.downloads, (request) => tools.downloads(requireActor(request), request.params.id));
  route(app, endpoints.previews, (request) => tools.previews(requireActor(request), request.params.id));
  route(app, endpoints.partialPreview, (request) => tools.partialPreview(requireActor(request), request.params.id));
  route(app, endpoints.save, (request) => library.save(requireActor(request), request.params.id, request.body));
};

/** The admin queue (administrators only; the service checks). */
export const toolsAdminRoutes: FastifyPluginAsyncZod<{ admin: ToolsAdminService }> = async (app, { admin }) => {
  route(app, adminToolEndpoints.tasks, (request) => admin.queue(request.actor, request.query));
  route(app, adminToolEndpoints.cancel, (request) => admin.cancel(request.actor, request.params.id));
};
