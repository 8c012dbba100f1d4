// The load balancer of the studio-network setup, as small as it can be: HTTP and WebSocket upgrades
// spread round-robin over the API nodes. A request whose node refuses the connection (a killed node)
// goes to the next one, as a real balancer's passive health check does; a node that dies while a
// request is in flight answers 502, because the request may have been applied (retrying it could
// apply it twice).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Request bodies pass through this proxy whole; API bodies are small (file bytes go to storage). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** A node that refused a connection is skipped for this long. */
const DOWN_FOR_MS = 3_000;

export interface Backend {
  port: number;
  downUntil: number;
}

export interface RoundRobinProxy {
  url: string;
  port: number;
  /** Requests that went to another node after the first one refused. */
  failovers(): number;
  close(): Promise<void>;
}

const isRefused = (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET';

async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function startRoundRobinProxy(ports: number[], listenPort: number): Promise<RoundRobinProxy> {
  const backends: Backend[] = ports.map((port) => ({ port, downUntil: 0 }));
  let next = 0;
  let failovers = 0;
  const sockets = new Set<Duplex>();
  const pick = (skip: Set<Backend>): Backend | null => {
    for (let i = 0; i < backends.length; i++) {
      const backend = backends[(next + i) % backends.length]!;
      if (skip.has(backend) || backend.downUntil > performance.now()) continue;
      next = (next + i + 1) % backends.length;
      return backend;
    }
    // Every node looks down: try one that was marked down rather than fail without trying.
    return backends.find((b) => !skip.has(b)) ?? null;
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (body === null) return void response.writeHead(413).end();
      const tried = new Set<Backend>();
      const attempt = (): void => {
        const backend = pick(tried);
        if (!backend) return void response.writeHead(502).end('no node answered');
        tried.add(backend);
        // Every simulated user sits on loopback; a balancer in front of real users passes each one's
        // own address. A client that names its own (a simulated user signing up) keeps it; any other
        // connection gets an address of its own, so per-address limits apply per user, not per test.
        const port = request.socket.remotePort ?? 0;
        const headers = {
          'x-forwarded-for': `10.0.${port >> 8}.${port & 255}`,
          ...request.headers,
        };
        const upstream = httpRequest(
          { host: '127.0.0.1', port: backend.port, method: request.method, path: request.url, headers },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
            answer.on('error', () => response.destroy());
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (response.headersSent) return void response.destroy();
          // Refused before anything was sent: the node is gone, and the request never reached it.
          if (error.code === 'ECONNREFUSED') {
            backend.downUntil = performance.now() + DOWN_FOR_MS;
            failovers++;
            return attempt();
          }
          response.writeHead(502).end(`node ${backend.port}: ${error.code ?? error.message}`);
        });
        upstream.end(body);
      };
      attempt();
    })();
  });

  server.on('upgrade', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const tried = new Set<Backend>();
    const attempt = (): void => {
      const backend = pick(tried);
      if (!backend) return void client.destroy();
      tried.add(backend);
      const upstream: Socket = connect(backend.port, '127.0.0.1');
      upstream.once('connect', () => {
        const lines = [`${request.method} ${request.url} HTTP/1.1`];
        for (let i = 0; i < request.rawHeaders.length; i += 2)
          lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (upstream.bytesRead === 0 && isRefused(error)) {
          backend.downUntil = performance.now() + DOWN_FOR_MS;
          failovers++;
          return attempt();
        }
        client.destroy();
      });
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    };
    attempt();
  });

  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${listenPort}`,
    port: listenPort,
    failovers: () => failovers,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
