import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PassThrough, pipeline } from 'node:stream';
import { connectorEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { ConnectorDurationsService } from './connector-durations.service';
import type { ConnectorPreviewService } from './connector-preview.service';
import type { ConnectorsOAuthService } from './connectors-oauth.service';
import type { ConnectorsService } from './connectors.service';

/** Linked storage accounts: Settings' Link / Unlink, the cloud storage browser, imports and exports. */
export const connectorRoutes: FastifyPluginAsyncZod<{
  connectors: ConnectorsService;
  oauth: ConnectorsOAuthService;
  previews: ConnectorPreviewService;
  durations: ConnectorDurationsService;
}> = async (app, { connectors, oauth, previews, durations }) => {
  route(app, endpoints.list, (request) => connectors.list(requireActor(request)));
  route(app, endpoints.link, (request) => connectors.link(requireActor(request), request.body));
  route(app, endpoints.oauthStart, (request) => oauth.start(requireActor(request), request.body.kind));
  route(app, endpoints.oauthFinish, (request) => oauth.finish(requireActor(request), request.body));
  route(app, endpoints.unlink, (request) => connectors.unlink(requireActor(request), request.params.id));
  route(app, endpoints.browse, (request) => connectors.browse(requireActor(request), request.params.id, request.query));
  route(app, endpoints.preview, (request) =>
    previews.link(requireActor(request), request.params.id, request.query.path),
  );
  route(app, endpoints.durations, (request, reply) => {
    // The provider's reads stop when the browser moves on (another folder, the dialog closed).
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    return durations.durations(requireActor(request), request.params.id, request.body, gone.signal);
  });
  route(app, endpoints.previewStream, async (request, reply) => {
    // The provider's read ends when the player goes (a seek drops the old range's request).
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    const preview = await previews.stream(request.query.t, request.headers.range, gone.signal);
    reply.status(preview.status);
    for (const [name, value] of Object.entries(preview.headers)) reply.header(name, value);
    // The link stands for the user's account: never kept by a shared cache, never sent on as a referrer.
    reply.header('Cache-Control', 'private, no-store').header('Referrer-Policy', 'no-referrer');
    if (!preview.body) return reply.send();
    // pipeline, not pipe: a provider that fails mid-way ends this response instead of the process.
    return reply.send(
      pipeline(preview.body, new PassThrough(), (error) => {
        if (error && !gone.signal.aborted) reply.log.warn({ err: error }, 'connector preview ended early');
      }),
    );
  });
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
