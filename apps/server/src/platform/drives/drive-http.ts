import type { Readable } from 'node:stream';
import { fetchOutbound, OutboundUrlError, type OutboundPolicy, type OutboundResponse } from '../net/outbound-fetch';
import { DriveError } from './drive-error';

/**
 * How drives reach providers: the one guarded outbound fetch, with the operator's exemptions. The
 * operator names the hosts that may be on loopback or a private network (a Nextcloud on the LAN);
 * every other host must resolve to public addresses only, and plain http is allowed only for the
 * exempted hosts, so a password never crosses the internet unencrypted.
 */
export interface DriveNetwork {
  allowHosts: readonly string[];
  timeoutMs: number;
}

/** Answers read whole (listings, errors) are capped: a hostile server can't make us buffer gigabytes. */
export const SMALL_ANSWER_BYTES = 16 * 1024 * 1024;
/** What a streamed file may hold at most: S3's single-object limit, far above any plan's file. */
export const FILE_ANSWER_BYTES = 5 * 1024 ** 4;

export function outboundPolicyOf(network: DriveNetwork): OutboundPolicy {
  return {
    protocols: ['https:', 'http:'],
    allowHosts: network.allowHosts.map((h) => h.toLowerCase()),
    extraCa: null,
    timeoutMs: network.timeoutMs,
    messages: {
      notAllowed: 'This is not an address Mixroom can use for a storage provider.',
      notPublic:
        'This address points to a local or private network. The operator must allow this host for connectors first.',
      unresolved: 'This storage provider’s address could not be found.',
    },
  };
}

/** Refuses an address before any credentials are sent: a parseable http(s) URL, https unless exempted. */
export function checkProviderUrl(input: string, network: DriveNetwork): URL {
  if (!URL.canParse(input)) throw DriveError.refused('This is not a valid web address.');
  const url = new URL(input);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw DriveError.refused('The address must start with https://.');
  if (url.username || url.password) throw DriveError.refused('Put the user name and password in their own fields.');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (url.protocol === 'http:' && !network.allowHosts.includes(host))
    throw DriveError.refused('The address must start with https:// so the password is sent encrypted.');
  return url;
}

export interface DriveRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | Readable;
  maxBytes?: number;
  signal?: AbortSignal;
}

/** One provider call through the guard; a refused or failed connection becomes a DriveError. */
export async function driveFetch(url: URL, network: DriveNetwork, request: DriveRequest): Promise<OutboundResponse> {
  try {
    return await fetchOutbound(url, outboundPolicyOf(network), {
      maxBytes: request.maxBytes ?? SMALL_ANSWER_BYTES,
      ...(request.method ? { method: request.method } : {}),
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body ? { body: request.body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } catch (error) {
    throw asDriveError(error);
  }
}

export function asDriveError(error: unknown): unknown {
  if (error instanceof OutboundUrlError)
    return error.permanent ? DriveError.refused(error.message) : DriveError.unreachable(error.message);
  return error;
}

/** Reads a small answer whole (capped by the fetch's maxBytes). */
export async function readText(response: OutboundResponse): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
  } catch (error) {
    throw asDriveError(error);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Drops an answer's body we don't need (its socket is closed). */
export function discard(response: OutboundResponse): void {
  response.body.destroy();
}
