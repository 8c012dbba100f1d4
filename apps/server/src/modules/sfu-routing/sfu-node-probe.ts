import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * What asking a node's health endpoint directly says about its process:
 * - `refused`: nothing listens at its address any more (the process is gone; a kill or a crash on a
 *   host that still runs): its rooms may be taken over at once.
 * - `alive`: it answered (any status: a node whose database is away still serves its media).
 * - `silent`: no answer within the wait. Either no connection (the host is down or cut off) or a
 *   connection the process does not serve (busy, paused, hung: the kernel still holds its port).
 *   Slow and dead look alike from here, so only its heartbeat can tell: the heartbeat rule decides.
 */
export type ProbeVerdict = 'refused' | 'alive' | 'silent';

export type NodeProbe = (baseUrl: string) => Promise<ProbeVerdict>;

/** How long a probe waits for a connection, and then for an answer, before it judges. */
export const PROBE_TIMEOUT_MS = 1000;

/** Asks `{baseUrl}/api/health` on a connection of its own; resolves within about 2 × PROBE_TIMEOUT_MS. */
export const probeNode: NodeProbe = (baseUrl) =>
  new Promise((resolve) => {
    const url = new URL('/api/health', baseUrl);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let connected = false;
    let settled = false;
    const settle = (verdict: ProbeVerdict) => {
      if (settled) return;
      settled = true;
      resolve(verdict);
      outgoing.destroy();
    };
    const outgoing = send(url, { method: 'GET', agent: false }, (response) => {
      response.resume();
      settle('alive');
    });
    outgoing.setTimeout(PROBE_TIMEOUT_MS, () => settle('silent'));
    outgoing.on('socket', (socket) =>
      socket.once('connect', () => {
        connected = true;
        // Connected: a fresh wait for the answer.
        outgoing.setTimeout(PROBE_TIMEOUT_MS);
      }),
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // Only a refused connection proves the process gone; a reset after connecting may be anything.
      settle(!connected && error.code === 'ECONNREFUSED' ? 'refused' : 'silent');
    });
    outgoing.end();
  });
