import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sharingEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import { contentDisposition } from '../../platform/blob/content-disposition';
import type { InviteLookupsService } from './invite-lookups.service';
import type { PublicShareService } from './public-share.service';
import type { SharingService } from './sharing.service';

export const sharingRoutes: FastifyPluginAsyncZod<{
  sharing: SharingService;
  publicShare: PublicShareService;
  inviteLookups: InviteLookupsService;
}> = async (app, { sharing, publicShare, inviteLookups }) => {
  // An invitation code is a secret: wrong codes count against the address that tries them.
  const byCode = <T>(ip: string, code: string | undefined, find: () => Promise<T>) =>
    code ? inviteLookups.lookup(ip, find) : find();

  route(app, endpoints.info, (request) => sharing.info(requireActor(request), request.params.type, request.params.id));
  route(app, endpoints.setPublicLink, (request) =>
    sharing.setPublicLink(requireActor(request), request.params.type, request.params.id, request.body.isActive),
  );
  route(app, endpoints.invite, (request) =>
    sharing.sendInvites(requireActor(request), request.params.type, request.params.id, request.body.emails),
  );
  route(app, endpoints.setPermission, (request) =>
    sharing.setPermission(
      requireActor(request),
      request.params.type,
      request.params.id,
      request.params.userId,
      request.body.permission,
    ),
  );
  route(app, endpoints.removeUser, (request) =>
    sharing.removeUser(requireActor(request), request.params.type, request.params.id, request.params.userId),
  );

  route(app, endpoints.joinTarget, (request) =>
    byCode(request.ip, request.query.invite, () =>
      sharing.joinTarget(requireActor(request), request.params.type, request.params.id, request.query.invite),
    ),
  );
  route(app, endpoints.requestJoin, (request) =>
    byCode(request.ip, request.body.invite, () =>
      sharing.requestJoin(requireActor(request), request.body.type, request.body.id, request.body.invite),
    ),
  );
  route(app, endpoints.requests, (request) => sharing.listRequests(requireActor(request)));
  route(app, endpoints.decide, (request) =>
    sharing.decide(requireActor(request), request.params.resourceId, request.params.userId, request.params.decision),
  );

  route(app, endpoints.publicRealtimeGrant, (request) => publicShare.realtimeGrant(request.body.token));
  route(app, endpoints.publicListing, (request) => publicShare.listing(request.query.token, request.query.folder));
  route(app, endpoints.publicVersionUrl, (request) =>
    publicShare.versionUrl(request.query.token, request.params.id, request.params.kind),
  );
  route(app, endpoints.publicZip, (request) => publicShare.prepareZip(request.body.token, request.body.folder));
  route(app, endpoints.publicZipStream, async (request, reply) => {
    const zip = await publicShare.streamZip(request.query.t);
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Length', zip.size)
      .header('Content-Disposition', contentDisposition(zip.fileName))
      .send(zip.body);
  });

  route(app, endpoints.invitationPreview, (request) =>
    byCode(request.ip, request.params.code, () => sharing.invitationPreview(request.params.code)),
  );
  route(app, endpoints.inviteLink, async (request, reply) => {
    const target = await byCode(request.ip, request.params.code, () => sharing.resolveInvite(request.params.code));
    return reply.redirect(target ?? '/public/landing', 302);
  });
};
