import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { connectorEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { ConnectorsOAuthService } from './connectors-oauth.service';
import type { ConnectorsService } from './connectors.service';

/** Linked storage accounts: Settings' Link / Unlink, the cloud storage browser, imports and exports. */
export const connectorRoutes: FastifyPluginAsyncZod<{
  connectors: ConnectorsService;
  oauth: ConnectorsOAuthService;
}> = async (app, { connectors, oauth }) => {
  route(app, endpoints.list, (request) => connectors.list(requireActor(request)));
  route(app, endpoints.link, (request) => connectors.link(requireActor(request), request.body));
  route(app, endpoints.oauthStart, (request) => oauth.start(requireActor(request), request.body.kind));
  route(app, endpoints.oauthFinish, (request) => oauth.finish(requireActor(request), request.body));
  route(app, endpoints.unlink, (request) => connectors.unlink(requireActor(request), request.params.id));
  route(app, endpoints.browse, (request) => connectors.browse(requireActor(request), request.params.id, request.query));
  route(app, endpoints.transfers, async (request) => ({
    transfers: await connectors.transfers(requireActor(request)),
  }));
  route(app, endpoints.importFile, (request) =>
    connectors.importFile(requireActor(request), request.params.id, request.body),
  );
  route(app, endpoints.exportVersion, async (request) => ({
    transfer: await connectors.exportVersion(requireActor(request), request.params.id, request.body),
  }));
  route(app, endpoints.exportFolder, async (request) => ({
    transfer: await connectors.exportFolder(requireActor(request), request.params.id, request.body),
  }));
};
