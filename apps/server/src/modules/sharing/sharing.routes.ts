import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createJoinRequestBody,
  decideJoinParams,
  errorResponse,
  invitationPreview,
  inviteEmailsBody,
  joinRequestsResponse,
  joinTarget,
  permissionBody,
  publicLinkBody,
  publicListing,
  publicQuery,
  resourceParams,
  shareInfo,
  userParams,
} from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { contentDisposition } from '../../platform/blob/content-disposition';
import type { PublicShareService } from './public-share.service';
import type { SharingService } from './sharing.service';

const security = [{ bearer: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse, 429: errorResponse };
const noContent = { 204: z.null(), ...errors };

export const sharingRoutes: FastifyPluginAsyncZod<{ sharing: SharingService; publicShare: PublicShareService }> = async (app, { sharing, publicShare }) => {
  const tags = ['sharing'];
  app.get(
    '/api/share/:type/:id',
    {
      schema: {
        tags,
        summary: 'Collaborators, links and what the actor may change',
        security,
        params: resourceParams,
        response: { 200: shareInfo, ...errors },
      },
    },
    (request) => sharing.info(requireActor(request), request.params.type, request.params.id),
  );
  app.put(
    '/api/share/:type/:id/public-link',
    {
      schema: {
        tags,
        summary: 'Turn the public link on or off',
        security,
        params: resourceParams,
        body: publicLinkBody,
        response: { 200: z.object({ url: z.string().nullable(), isActive: z.boolean() }), ...errors },
      },
    },
    (request) => sharing.setPublicLink(requireActor(request), request.params.type, request.params.id, request.body.isActive),
  );
  app.post(
    '/api/share/:type/:id/invitations',
    {
      schema: {
        tags,
        summary: 'E-mail the invitation link',
        security,
        params: resourceParams,
        body: inviteEmailsBody,
        response: { 200: z.object({ sent: z.number() }), ...errors },
      },
    },
    (request) => sharing.sendInvites(requireActor(request), request.params.type, request.params.id, request.body.emails),
  );
  app.put(
    '/api/share/:type/:id/users/:userId',
    { schema: { tags, summary: "Change a collaborator's permission", security, params: userParams, body: permissionBody, response: noContent } },
    async (request, reply) => {
      await sharing.setPermission(requireActor(request), request.params.type, request.params.id, request.params.userId, request.body.permission);
      return reply.status(204).send(null);
    },
  );
  app.delete(
    '/api/share/:type/:id/users/:userId',
    { schema: { tags, summary: 'Remove a collaborator', security, params: userParams, response: noContent } },
    async (request, reply) => {
      await sharing.removeUser(requireActor(request), request.params.type, request.params.id, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/join/:type/:id',
    { schema: { tags, summary: 'What an invitation points at', security, params: resourceParams, response: { 200: joinTarget, ...errors } } },
    (request) => sharing.joinTarget(requireActor(request), request.params.type, request.params.id),
  );
  app.post(
    '/api/join-requests',
    { schema: { tags, summary: 'Ask the publisher to join', security, body: createJoinRequestBody, response: noContent } },
    async (request, reply) => {
      await sharing.requestJoin(requireActor(request), request.body.type, request.body.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/join-requests',
    { schema: { tags, summary: 'Requests to me (incoming) and mine (outgoing)', security, response: { 200: joinRequestsResponse, ...errors } } },
    (request) => sharing.listRequests(requireActor(request)),
  );
  app.post(
    '/api/join-requests/:resourceId/:userId/:decision',
    { schema: { tags, summary: 'Approve or reject a request (the publisher)', security, params: decideJoinParams, response: noContent } },
    async (request, reply) => {
      await sharing.decide(requireActor(request), request.params.resourceId, request.params.userId, request.params.decision);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/public/share',
    {
      schema: {
        tags: ['public'],
        summary: 'A public link’s content (no account needed)',
        querystring: publicQuery,
        response: { 200: publicListing, 404: errorResponse },
      },
    },
    (request) => publicShare.listing(request.query.token, request.query.folder),
  );
  app.get(
    '/api/public/invitations/:code',
    {
      schema: {
        tags: ['public'],
        summary: 'Who invites to what, for a visitor not signed in yet (the invitation code is the secret)',
        params: z.object({ code: z.string().min(4).max(40) }),
        response: { 200: invitationPreview, 404: errorResponse },
      },
    },
    (request) => sharing.invitationPreview(request.params.code),
  );
  app.get(
    '/api/public/versions/:id/:kind',
    {
      schema: {
        tags: ['public'],
        summary: 'A signed URL to download or play a version inside a public link',
        params: z.object({ id: z.uuid(), kind: z.enum(['download', 'preview']) }),
        querystring: z.object({ token: z.string().min(20).max(100) }),
        response: { 200: z.object({ url: z.string() }), 404: errorResponse },
      },
    },
    (request) => publicShare.versionUrl(request.query.token, request.params.id, request.params.kind),
  );

  app.post(
    '/api/public/zip',
    {
      schema: {
        tags: ['public'],
        summary: 'Prepare "Download all" of a public link (a short-lived ZIP link)',
        body: publicQuery.extend({ folder: z.uuid().nullable().default(null) }),
        response: { 200: z.object({ url: z.string() }), 404: errorResponse },
      },
    },
    (request) => publicShare.prepareZip(request.body.token, request.body.folder),
  );
  app.get(
    '/api/public/zip',
    { schema: { tags: ['public'], summary: 'Stream the prepared ZIP of a public link', querystring: z.object({ t: z.string().min(10).max(5000) }) } },
    async (request, reply) => {
      const zip = await publicShare.streamZip(request.query.t);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Length', zip.size)
        .header('Content-Disposition', contentDisposition(zip.fileName))
        .send(zip.body);
    },
  );

  // The short invitation link: /j/{code} → /join?id=…&type=…&t=1.
  app.get('/j/:code', { schema: { hide: true, params: z.object({ code: z.string().min(4).max(40) }) } }, async (request, reply) => {
    const target = await sharing.resolveInvite(request.params.code);
    return reply.redirect(target ?? '/public/landing', 302);
  });
};
