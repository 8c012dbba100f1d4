import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '../../src/platform/errors/domain-error';
import type { SfuDriver } from '../../src/platform/rtc/sfu-driver';

/**
 * A bare WHIP/WHEP endpoint (RFC 9725 and the WHEP draft) over an SfuDriver, standing in for the
 * live module's routes so real clients (simple-whip-client, wrtc, the external driver) can reach
 * the embedded SFU over HTTP:
 *   POST /whip/{room}/{participant}?bitrate=320000&lossless=1   application/sdp → 201 + Location
 *   POST /whep/{room}/{participant}                              application/sdp → 201 + Location
 *   PATCH /resources/{id}   application/trickle-ice-sdpfrag → 204
 *   DELETE /resources/{id}  → 200 (404 when unknown)
 */
export interface WhipServer {
  url: string;
  /** Requests answered, as "METHOD path status", so tests can tell a DELETE arrived. */
  requests: string[];
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function reply(res: ServerResponse, status: number, text = '', headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain', ...headers });
  res.end(text);
}

export async function startWhipServer(sfu: SfuDriver, options: { token?: string } = {}): Promise<WhipServer> {
  const requests: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    res.on('finish', () => requests.push(`${req.method} ${url.pathname} ${res.statusCode}`));
    if (req.method === 'OPTIONS') return reply(res, 204);
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) return reply(res, 401);
    const [kind, a, b] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (req.method === 'POST' && (kind === 'whip' || kind === 'whep') && a && b) {
      const offer = await body(req);
      const exchange =
        kind === 'whip'
          ? await sfu.publish(a, b, offer, {
              maxAverageBitrate: Number(url.searchParams.get('bitrate') ?? 128_000),
              lossless: url.searchParams.get('lossless') === '1',
            })
          : await sfu.subscribe(a, b, offer);
      return reply(res, 201, exchange.answerSdp, {
        'content-type': 'application/sdp',
        location: `/resources/${exchange.resourceId}`,
      });
    }
    if (kind === 'resources' && a && req.method === 'PATCH') {
      return reply(res, (await sfu.addIceCandidates(a, await body(req))) ? 204 : 404);
    }
    if (kind === 'resources' && a && req.method === 'DELETE') {
      return reply(res, (await sfu.remove(a)) ? 200 : 404);
    }
    reply(res, 404);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      reply(res, error instanceof DomainError ? error.status : 500, (error as Error).message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A WHIP/WHEP client's POST: the offer out, the answer and the resource's URL back. */
export function httpExchange(
  endpoint: string,
  token?: string,
): (offerSdp: string) => Promise<{ answerSdp: string; resourceId: string }> {
  return async (offerSdp) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: offerSdp,
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`${endpoint} answered ${response.status}: ${text}`);
    return { answerSdp: text, resourceId: new URL(response.headers.get('location')!, endpoint).toString() };
  };
}
