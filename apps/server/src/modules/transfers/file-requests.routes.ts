import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fileRequestEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { FileRequestsService } from './file-requests.service';

/** The owner's file request links, and the uploader's calls (each with its upload grant). */
export const fileRequestsRoutes: FastifyPluginAsyncZod<{ requests: FileRequestsService }> = async (
  app,
  { requests },
) => {
  route(app, endpoints.list, (request) => requests.list(requireActor(request)));
  route(app, endpoints.create, (request) => requests.create(requireActor(request), request.body));
  route(app, endpoints.revoke, (request) => requests.revoke(requireActor(request), request.params.id));
  route(app, endpoints.open, (request) => requests.open(request.params.token));
  route(app, endpoints.start, (request) => requests.start(request.params.token, request.body, request.ip));
  route(app, endpoints.uploadFile, (request) =>
    requests.uploadTicket(request.query.u, request.params.transferId, request.params.fileId),
  );
  route(app, endpoints.completeFile, (request) =>
    requests.completeFile(request.query.u, request.params.transferId, request.params.fileId),
  );
  route(app, endpoints.session, (request) => requests.uploadSession(request.query.u, request.params.id));
  route(app, endpoints.partUrl, (request) =>
    requests.partUrl(request.query.u, request.params.id, request.params.partNumber),
  );
  route(app, endpoints.recordPart, (request) =>
    requests.recordPart(request.query.u, request.params.id, { partNumber: request.params.partNumber, ...request.body }),
  );
};
