import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createGroupBody,
  createProjectBody,
  ensureFoldersBody,
  ensureFoldersResponse,
  errorResponse,
  groupItem,
  itemName,
  itemRefs,
  listing,
  listQuery,
  projectItem,
  searchQuery,
  searchResult,
  signedUrl,
  startVersionBody,
  storageItem,
  storageUsage,
  trashQuery,
  updateGroupBody,
  updateProjectBody,
  uploadFileBody,
  uploadTicket,
  version,
} from '@mixroom/contracts';
import { STORAGE_MESSAGES } from '@mixroom/shared';
import { requireActor } from '../../http/authentication';
import type { GroupsService } from './groups.service';
import type { ProjectsService } from './projects.service';
import type { SearchService } from './search.service';
import type { TrashService } from './trash.service';
import type { ZipService } from './zip.service';
import { contentDisposition } from '../../platform/blob/content-disposition';

export interface StorageRouteDeps {
  groups: GroupsService;
  projects: ProjectsService;
  trash: TrashService;
  search: SearchService;
  zip: ZipService;
  usage: (userId: string) => Promise<{ usedBytes: number; limitBytes: number }>;
}

const security = [{ bearer: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse, 413: errorResponse };
const id = z.object({ id: z.uuid() });
const noContent = { 204: z.null(), ...errors };

export const storageRoutes: FastifyPluginAsyncZod<StorageRouteDeps> = async (app, deps) => {
  const tags = ['storage'];
  app.get(
    '/api/groups/root/items',
    {
      schema: {
        tags,
        summary: 'Top-level folders and projects of the signed-in user',
        security,
        querystring: listQuery,
        response: { 200: listing, ...errors },
      },
    },
    (request) => deps.groups.list(requireActor(request), null, request.query),
  );
  app.get(
    '/api/groups/:id/items',
    {
      schema: {
        tags,
        summary: 'A folder with its breadcrumb and content',
        security,
        params: id,
        querystring: listQuery,
        response: { 200: listing, ...errors },
      },
    },
    (request) => deps.groups.list(requireActor(request), request.params.id, request.query),
  );
  app.post(
    '/api/groups',
    { schema: { tags, summary: 'Create a folder', security, body: createGroupBody, response: { 201: groupItem, ...errors } } },
    async (request, reply) => reply.status(201).send(await deps.groups.create(requireActor(request), request.body)),
  );
  app.patch(
    '/api/groups/:id',
    { schema: { tags, summary: 'Rename, move or recolour a folder', security, params: id, body: updateGroupBody, response: { 200: groupItem, ...errors } } },
    (request) => deps.groups.update(requireActor(request), request.params.id, request.body),
  );
  app.post(
    '/api/groups/ensure',
    {
      schema: {
        tags,
        summary: 'Create the missing folders of a dropped tree',
        security,
        body: ensureFoldersBody,
        response: { 200: ensureFoldersResponse, ...errors },
      },
    },
    async (request) => ({
      folders: await deps.groups.ensureFolders(requireActor(request), request.body.parentId, request.body.paths),
    }),
  );

  app.post(
    '/api/projects',
    { schema: { tags, summary: 'Create an empty audio project', security, body: createProjectBody, response: { 201: projectItem, ...errors } } },
    async (request, reply) => reply.status(201).send(await deps.projects.create(requireActor(request), request.body)),
  );
  app.get(
    '/api/projects/:id',
    {
      schema: {
        tags,
        summary: 'A project and its versions',
        security,
        params: id,
        response: { 200: z.object({ project: projectItem, versions: z.array(version), attachmentCount: z.number().int() }), ...errors },
      },
    },
    (request) => deps.projects.get(requireActor(request), request.params.id),
  );
  app.patch(
    '/api/projects/:id',
    {
      schema: {
        tags,
        summary: 'Project settings: name, folder, downloads, colour',
        security,
        params: id,
        body: updateProjectBody,
        response: { 200: projectItem, ...errors },
      },
    },
    (request) => deps.projects.update(requireActor(request), request.params.id, request.body),
  );
  app.post(
    '/api/projects/upload',
    { schema: { tags, summary: 'Start uploading a file as a new project', security, body: uploadFileBody, response: { 201: uploadTicket, ...errors } } },
    async (request, reply) => reply.status(201).send(await deps.projects.uploadFile(requireActor(request), request.body)),
  );
  app.post(
    '/api/projects/:id/versions',
    { schema: { tags, summary: 'Start uploading a new version', security, params: id, body: startVersionBody, response: { 201: uploadTicket, ...errors } } },
    async (request, reply) => reply.status(201).send(await deps.projects.startVersion(requireActor(request), request.params.id, request.body)),
  );
  app.post(
    '/api/versions/:id/complete',
    { schema: { tags, summary: 'Finish an upload and process the version', security, params: id, response: { 200: version, ...errors } } },
    (request) => deps.projects.completeUpload(requireActor(request), request.params.id),
  );
  app.post(
    '/api/versions/:id/cancel',
    { schema: { tags, summary: 'Cancel an upload (a new project goes with it)', security, params: id, response: noContent } },
    async (request, reply) => {
      await deps.projects.cancelUpload(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/versions/:id/download',
    { schema: { tags, summary: 'A signed URL to the original file', security, params: id, response: { 200: signedUrl, ...errors } } },
    (request) => deps.projects.downloadUrl(requireActor(request), request.params.id),
  );
  for (const kind of ['thumbnail', 'peaks', 'preview'] as const) {
    app.get(
      `/api/versions/:id/${kind}`,
      { schema: { tags, summary: `Redirect to the version's ${kind}`, security, params: id, response: { 302: z.null(), ...errors } } },
      async (request, reply) => reply.redirect(await deps.projects.derivedUrl(requireActor(request), request.params.id, kind), 302),
    );
  }

  app.post(
    '/api/items/trash',
    { schema: { tags, summary: 'Move items to the trash', security, body: itemRefs, response: noContent } },
    async (request, reply) => {
      await deps.trash.moveToTrash(requireActor(request), request.body.items);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/items/recover',
    { schema: { tags, summary: 'Bring items back from the trash', security, body: itemRefs, response: noContent } },
    async (request, reply) => {
      await deps.trash.recover(requireActor(request), request.body.items);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/items/delete',
    { schema: { tags, summary: 'Delete items in the trash for good', security, body: itemRefs, response: noContent } },
    async (request, reply) => {
      await deps.trash.deleteForever(requireActor(request), request.body.items);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/trash',
    {
      schema: {
        tags,
        summary: 'Items in the trash',
        security,
        querystring: trashQuery,
        response: { 200: z.object({ items: z.array(storageItem) }), ...errors },
      },
    },
    async (request) => ({
      items: await deps.trash.list(requireActor(request), request.query.sort),
    }),
  );
  app.post(
    '/api/trash/empty',
    { schema: { tags, summary: 'Delete everything in the trash for good', security, response: { 200: z.object({ deleted: z.number() }), ...errors } } },
    async (request) => ({
      deleted: await deps.trash.empty(requireActor(request)),
    }),
  );

  app.patch(
    '/api/versions/:id',
    {
      schema: {
        tags,
        summary: 'Rename a version',
        security,
        params: id,
        body: z.object({ name: itemName(STORAGE_MESSAGES.versionNameRequired) }),
        response: { 200: version, ...errors },
      },
    },
    (request) => deps.projects.renameVersion(requireActor(request), request.params.id, request.body.name),
  );
  app.delete(
    '/api/versions/:id',
    {
      schema: {
        tags,
        summary: 'Delete a version (its project too when it was the only one)',
        security,
        params: id,
        response: { 200: z.object({ projectDeleted: z.boolean() }), ...errors },
      },
    },
    (request) => deps.projects.deleteVersion(requireActor(request), request.params.id),
  );
  app.post(
    '/api/downloads/zip',
    {
      schema: {
        tags,
        summary: 'Prepare a ZIP of a selection or of folders (returns a short-lived link)',
        security,
        body: itemRefs,
        response: { 200: z.object({ url: z.string(), downloadId: z.uuid(), fileName: z.string() }), ...errors },
      },
    },
    (request) => deps.zip.prepare(requireActor(request), request.body.items),
  );
  app.get(
    '/api/downloads/zip',
    {
      schema: {
        tags,
        summary: 'Stream a prepared ZIP (the link carries its own permission); 403 when the link is invalid or expired',
        querystring: z.object({ t: z.string().min(10).max(20_000) }),
      },
    },
    async (request, reply) => {
      const zip = await deps.zip.stream(request.query.t);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Length', zip.size)
        .header('Content-Disposition', contentDisposition(zip.fileName))
        .send(zip.body);
    },
  );
  app.get(
    '/api/search',
    { schema: { tags, summary: 'Find folders and projects by name', security, querystring: searchQuery, response: { 200: searchResult, ...errors } } },
    async (request) => ({
      items: await deps.search.search(requireActor(request), request.query.q, request.query.limit),
    }),
  );
  app.get(
    '/api/storage',
    { schema: { tags, summary: 'Storage used by the signed-in user and the plan limit', security, response: { 200: storageUsage, ...errors } } },
    (request) => deps.usage(requireActor(request).userId),
  );
};
