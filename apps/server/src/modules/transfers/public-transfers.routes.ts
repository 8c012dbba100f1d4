import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pipeline, Transform } from 'node:stream';
import { publicTransferEndpoints as endpoints } from '@mixroom/contracts';
import { route } from '../../http/endpoint';
import type { TransferAccessService } from './transfer-access.service';
import type { Download, TransferDownloadService } from './transfer-download.service';

/** Sends a download and records, once the response is over, how much left and whether all of it did. */
function send(reply: FastifyReply, download: Download): FastifyReply {
  reply.status(download.status);
  for (const [name, value] of Object.entries(download.headers)) reply.header(name, value);
  // Links carry the grant: never cached by a shared cache, never sent on as a referrer.
  reply.header('Cache-Control', 'private, no-store').header('Referrer-Policy', 'no-referrer');
  if (!download.body) return reply.send();
  let sent = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length;
      callback(null, chunk);
    },
  });
  reply.raw.once('close', () => {
    void download
      .settle(sent, reply.raw.writableFinished)
      .catch((error: unknown) => reply.log.warn({ err: error }, 'transfer download not recorded'));
  });
  // pipeline, not pipe: a body that fails mid-way (a file shorter than recorded, a store gone) ends
  // this response; with pipe its error would have no listener and end the process.
  return reply.send(
    pipeline(download.body, counter, (error) => {
      if (error) reply.log.warn({ err: error }, 'transfer download ended early');
    }),
  );
}

/** What a recipient's browser (or download manager) calls with the link's token and grant. */
export const publicTransfersRoutes: FastifyPluginAsyncZod<{
  access: TransferAccessService;
  downloads: TransferDownloadService;
}> = async (app, { access, downloads }) => {
  route(app, endpoints.head, (request) => access.head(request.params.token));
  route(app, endpoints.access, (request) => access.access(request.params.token, request.body, request.ip));
  route(app, endpoints.content, (request) => access.content(request.params.token, request.query.g));
  route(app, endpoints.download, async (request, reply) =>
    send(
      reply,
      await downloads.file(request.params.token, request.query.g, request.params.fileId, request.headers.range),
    ),
  );
  route(app, endpoints.zip, async (request, reply) =>
    send(reply, await downloads.zipAll(request.params.token, request.query.g)),
  );
  route(app, endpoints.peaks, async (request, reply) =>
    reply.redirect(await access.peaksUrl(request.params.token, request.query.g, request.params.fileId), 302),
  );
  route(app, endpoints.thumbnail, async (request, reply) =>
    reply.redirect(await access.thumbnailUrl(request.params.token, request.query.g, request.params.fileId), 302),
  );
  route(app, endpoints.play, async (request, reply) =>
    reply.redirect(await access.playUrl(request.params.token, request.query.g, request.params.fileId), 302),
  );
};
