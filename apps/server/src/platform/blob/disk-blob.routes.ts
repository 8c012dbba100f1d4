import type { FastifyInstance } from 'fastify';
import { blobEndpoints as endpoints } from '@mixroom/contracts';
import { DomainError } from '../errors/domain-error';
import { route } from '../../http/endpoint';
import type { DiskBlobStore } from './disk-blob-store';
import { contentDisposition } from './content-disposition';
import { parseRange } from './range';
import { cacheControlOf, type UrlSigner } from './url-signer';

type Query = Record<string, string | undefined>;

/**
 * The disk driver's stand-in for S3's endpoints: GET (with Range), PUT and part PUT on URLs whose
 * signature is the only credential. Bodies stream straight to disk; nothing is buffered.
 */
export async function diskBlobRoutes(
  app: FastifyInstance,
  deps: { store: DiskBlobStore; signer: UrlSigner },
): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // An upload refused before its body was read (bad signature, part too large, upload closed)
  // leaves the rest of the body in flight: the connection is closed after the answer, rather than
  // kept waiting for bytes nobody will read (which also held a graceful shutdown for minutes).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'PUT' && !request.raw.complete) void reply.header('Connection', 'close');
    return payload;
  });

  const verify = (action: 'get' | 'put' | 'part', query: Query) => {
    const claims = deps.signer.verify(action, query);
    if (!claims) throw new DomainError(403, 'SIGNATURE', 'This link is invalid or has expired.');
    return claims;
  };

  route(app, endpoints.get, async (request, reply) => {
    const claims = verify('get', request.query as Query);
    const info = await deps.store.head(claims.key);
    if (!info) throw DomainError.notFound();
    const range = parseRange(request.headers.range, info.size);
    if (range === 'unsatisfiable') {
      return reply.status(416).header('Content-Range', `bytes */${info.size}`).send();
    }
    void reply
      .header('Accept-Ranges', 'bytes')
      .header('Content-Type', claims.contentType ?? 'application/octet-stream')
      .header('Cache-Control', cacheControlOf(claims));
    if (claims.fileName) void reply.header('Content-Disposition', contentDisposition(claims.fileName));
    if (range) {
      void reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`)
        .header('Content-Length', range.end - range.start + 1);
    } else {
      void reply.header('Content-Length', info.size);
    }
    if (request.method === 'HEAD') return reply.send();
    return reply.send(await deps.store.get(claims.key, range ?? undefined));
  });

  route(app, endpoints.put, async (request, reply) => {
    const claims = verify('put', request.query as Query);
    await deps.store.put(claims.key, request.raw);
    return reply.status(200).send();
  });

  route(app, endpoints.part, async (request, reply) => {
    const claims = verify('part', request.query as Query);
    if (!claims.uploadId || !claims.partNumber) throw DomainError.badRequest('Incomplete part URL.');
    const etag = await deps.store.writePart(claims.key, claims.uploadId, claims.partNumber, request.raw);
    return reply.status(200).header('ETag', etag).header('Access-Control-Expose-Headers', 'ETag').send();
  });
}
