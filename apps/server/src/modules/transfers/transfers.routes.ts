import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { transferEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { TransfersService } from './transfers.service';

/** The owner's transfer endpoints: each parses, asks the service (which checks access), answers. */
export const transfersRoutes: FastifyPluginAsyncZod<{ transfers: TransfersService }> = async (app, { transfers }) => {
  route(app, endpoints.list, (request) => transfers.list(requireActor(request), request.query.q));
  route(app, endpoints.create, async (request) => ({
    transfer: await transfers.create(requireActor(request), request.body),
  }));
  route(app, endpoints.get, (request) => transfers.get(requireActor(request), request.params.id));
  route(app, endpoints.update, (request) => transfers.update(requireActor(request), request.params.id, request.body));
  route(app, endpoints.remove, (request) => transfers.remove(requireActor(request), request.params.id));
  route(app, endpoints.expire, (request) => transfers.expireNow(requireActor(request), request.params.id));
  route(app, endpoints.reload, (request) =>
    transfers.reload(requireActor(request), request.params.id, request.body.durationDays),
  );
  route(app, endpoints.downloads, (request) => transfers.downloads(requireActor(request), request.params.id));
  route(app, endpoints.ownerGrant, (request) => transfers.ownerGrant(requireActor(request), request.params.id));
  route(app, endpoints.uploadFile, (request) =>
    transfers.uploadTicket(requireActor(request), request.params.id, request.params.fileId),
  );
  route(app, endpoints.completeFile, (request) =>
    transfers.completeFile(requireActor(request), request.params.id, request.params.fileId),
  );
  route(app, endpoints.cancelFile, (request) =>
    transfers.cancelFile(requireActor(request), request.params.id, request.params.fileId),
  );
  route(app, endpoints.complete, (request) => transfers.complete(requireActor(request), request.params.id));
};
