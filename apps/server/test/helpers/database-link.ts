// A TCP link between Mixroom and PostgreSQL that a test or the load harness can cut, so that "the
// database is down" can happen without stopping the machine's PostgreSQL, which other programs use.
// A cut ends every open connection and refuses new ones, as a stopped server does.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface DatabaseLink {
  port: number;
  /** `url` with its host and port replaced by the link's. */
  through(url: string): string;
  /** Ends every connection and refuses new ones until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startDatabaseLink(targetPort: number, listenPort = 0): Promise<DatabaseLink> {
  const open = new Set<Socket>();
  let server: Server | null = null;
  let port = listenPort;
  const listen = () =>
    new Promise<void>((resolve) => {
      const next = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        open.add(client);
        const end = () => {
          open.delete(client);
          client.destroy();
          upstream.destroy();
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
        client.pipe(upstream).pipe(client);
      });
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        if (address && typeof address === 'object') port = address.port;
        server = next;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of open) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await listen();
  return {
    get port() {
      return port;
    },
    through: (url) => {
      const parsed = new URL(url);
      parsed.host = `127.0.0.1:${port}`;
      return parsed.toString();
    },
    cut: stop,
    restore: listen,
    close: stop,
  };
}
