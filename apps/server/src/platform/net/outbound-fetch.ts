import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { isPublicAddress } from './public-address';

/**
 * The one way the server fetches a URL a user gave it (push endpoints today; the AI tools' link tab
 * and connectors next). Every hop is checked before a byte leaves: an allowed protocol, no credentials
 * in the URL, and a name whose EVERY address is public; the connection then goes to exactly the address
 * that was checked, so a second lookup (DNS rebinding) can't swap in a private one.
 */

export type OutboundProtocol = 'http:' | 'https:';

/** Texts a feature may word its own way (push keeps its PUSH_ENDPOINT_* texts); all can be shown to users. */
export interface OutboundMessages {
  /** A protocol the policy does not allow, a URL that does not parse, or credentials in the URL. */
  notAllowed: string;
  notPublic: string;
  unresolved: string;
  timeout: (ms: number) => string;
  unreachable: string;
  certificate: string;
  tooLarge: (maxBytes: number) => string;
  tooManyRedirects: string;
}

export const DEFAULT_OUTBOUND_MESSAGES: OutboundMessages = {
  notAllowed: 'This address is not a web address Mixroom can fetch.',
  notPublic: 'This address points to a local or private network, which Mixroom does not contact.',
  unresolved: 'This address could not be found.',
  timeout: (ms) => `The address did not answer within ${ms} ms.`,
  unreachable: 'The address could not be reached.',
  certificate: 'The address’s certificate could not be verified.',
  tooLarge: (maxBytes) => `The file at this address is larger than the ${maxBytes} bytes allowed.`,
  tooManyRedirects: 'This address redirects too many times.',
};

export interface OutboundPolicy {
  /** Push: https only; link downloads: http and https. file:, data:, ftp: and the rest are never allowed. */
  protocols: readonly OutboundProtocol[];
  /**
   * Test-only seam: hosts exempt from the public-address rule (a test's server on loopback), and an
   * extra certificate authority trusted for them. Empty in every real installation.
   */
  allowHosts: readonly string[];
  extraCa: string | null;
  /** Deadline for the answer's headers, and the longest silence allowed while the body streams. */
  timeoutMs: number;
  messages?: Partial<OutboundMessages>;
}

/** A refused or failed outbound request. The message can be shown to the user; `permanent` is false
 * when trying again later may succeed (lookup failure, timeout, unreachable host). */
export class OutboundUrlError extends Error {
  constructor(
    message: string,
    readonly permanent = true,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OutboundUrlError';
  }
}

export interface CheckedUrl {
  url: URL;
  /** The address that passed the check; the request connects to exactly this one. */
  address: string;
  family: 4 | 6;
  allowListed: boolean;
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the user's say-so for one origin and must not follow a redirect to another. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function messagesOf(policy: OutboundPolicy): OutboundMessages {
  return { ...DEFAULT_OUTBOUND_MESSAGES, ...policy.messages };
}

/**
 * Accepts a URL only when its protocol is allowed, it carries no credentials and its host resolves
 * (once) to public addresses only. A name with any private address is refused as a whole, so no later
 * lookup can pick the private one.
 */
export async function checkOutboundUrl(input: string | URL, policy: OutboundPolicy): Promise<CheckedUrl> {
  const messages = messagesOf(policy);
  const text = typeof input === 'string' ? input : input.href;
  if (!URL.canParse(text)) throw new OutboundUrlError(messages.notAllowed);
  const url = new URL(text);
  const protocolAllowed = (policy.protocols as readonly string[]).includes(url.protocol);
  if (!protocolAllowed || url.username || url.password) throw new OutboundUrlError(messages.notAllowed);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowListed = policy.allowHosts.includes(host);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (error) {
      throw new OutboundUrlError(messages.unresolved, false, { cause: error });
    }
  }
  const [first] = addresses;
  if (!first) throw new OutboundUrlError(messages.unresolved, false);
  if (!allowListed && !addresses.every((a) => isPublicAddress(a.address)))
    throw new OutboundUrlError(messages.notPublic);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4, allowListed };
}

export interface CheckedRequestInit {
  method: string;
  headers?: Record<string, string | number>;
  /** A stream is sent as it comes (the caller sets its Content-Length); a Buffer at once. */
  body?: Buffer | Readable;
  signal?: AbortSignal;
}

/** A socket's failure in words a user can read; the original stays as `cause`. A caller's abort stays as it is. */
function transportError(error: unknown, messages: OutboundMessages): Error {
  if (error instanceof OutboundUrlError) return error;
  if (error instanceof Error && error.name === 'AbortError') return error;
  const code = (error as { code?: unknown } | null)?.code;
  const certificate = typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code);
  return new OutboundUrlError(certificate ? messages.certificate : messages.unreachable, false, { cause: error });
}

/**
 * One request to a checked URL, redirects not followed. The connection goes to the checked address
 * (the lookup is pinned, and no pooled socket is reused) while TLS still verifies the certificate
 * against the host name. Resolves with the answer once its headers arrive; the body is the caller's
 * to read (silence longer than timeoutMs destroys it).
 */
export function requestChecked(
  target: CheckedUrl,
  init: CheckedRequestInit,
  policy: OutboundPolicy,
): Promise<IncomingMessage> {
  const messages = messagesOf(policy);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const timedOut = () => new OutboundUrlError(messages.timeout(policy.timeoutMs), false);
  return new Promise((resolve, reject) => {
    if (init.signal?.aborted) {
      const reason: unknown = init.signal.reason;
      reject(reason instanceof Error ? reason : new Error('The request was aborted'));
      return;
    }
    const headers: Record<string, string | number> = { ...init.headers };
    if (Buffer.isBuffer(init.body)) headers['content-length'] = init.body.length;
    const request = send(
      target.url,
      {
        method: init.method,
        headers,
        lookup: pinned,
        agent: false,
        ...(target.allowListed && policy.extraCa ? { ca: [...rootCertificates, policy.extraCa] } : {}),
        timeout: policy.timeoutMs,
        ...(init.signal ? { signal: init.signal } : {}),
      },
      (response) => {
        clearTimeout(deadline);
        response.on('error', () => undefined);
        resolve(response);
      },
    );
    // The answer's deadline counts from the last byte sent: a long upload is not a silent server.
    let deadline: NodeJS.Timeout | undefined;
    const armDeadline = () => {
      deadline = setTimeout(() => request.destroy(timedOut()), policy.timeoutMs);
    };
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(timedOut()));
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(transportError(error, messages));
    });
    if (init.body instanceof Readable) {
      const body = init.body;
      body.on('error', (error) => request.destroy(error));
      request.on('finish', armDeadline);
      body.pipe(request);
    } else {
      armDeadline();
      request.end(init.body);
    }
  });
}

export interface OutboundFetchOptions {
  /** Bytes of body accepted; a longer answer is refused (Content-Length) or cut with an error (streamed). */
  maxBytes: number;
  method?: string;
  headers?: Record<string, string>;
  /** A streamed body can't be sent twice, so a redirect answering it is returned, not followed. */
  body?: Buffer | Readable;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: URL;
  /**
   * The answer's bytes as a stream (we return a stream rather than write a file so callers choose
   * where the bytes go: a blob store, a temp file, a hash). It fails with OutboundUrlError past maxBytes
   * or after timeoutMs of silence; a caller that stops early must destroy it.
   */
  body: Readable;
}

/** Counts bytes as they pass and fails the stream at the first byte past the limit. */
function byteCap(maxBytes: number, message: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(new OutboundUrlError(message));
      else callback(null, chunk);
    },
  });
}

/**
 * Fetches a user-supplied URL: each hop is checked by checkOutboundUrl, redirects are followed here (at
 * most 5, each re-checked, so a public page can't bounce the request into this host's network), and the
 * body is capped at maxBytes. Answers other than redirects are returned whatever their status.
 */
export async function fetchOutbound(
  input: string | URL,
  policy: OutboundPolicy,
  options: OutboundFetchOptions,
): Promise<OutboundResponse> {
  const messages = messagesOf(policy);
  let url = typeof input === 'string' ? input : input.href;
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  let headers: Record<string, string> = { ...options.headers };
  let origin: string | null = null;
  for (let hop = 0; ; hop += 1) {
    const target = await checkOutboundUrl(url, policy);
    if (origin !== null && target.url.origin !== origin) {
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => !ORIGIN_BOUND_HEADERS.includes(name.toLowerCase())),
      );
    }
    origin = target.url.origin;
    const response = await requestChecked(
      target,
      { method, headers, ...(body ? { body } : {}), ...(options.signal ? { signal: options.signal } : {}) },
      policy,
    );
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(status) && location && !(body instanceof Readable)) {
      response.destroy();
      if (hop >= MAX_REDIRECTS) throw new OutboundUrlError(messages.tooManyRedirects);
      if (!URL.canParse(location, target.url.href)) throw new OutboundUrlError(messages.notAllowed);
      url = new URL(location, target.url).href;
      // As browsers do: 303 always, and 301/302 after a POST, become a GET without a body.
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-/i.test(name)));
      }
      continue;
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy();
      throw new OutboundUrlError(messages.tooLarge(options.maxBytes));
    }
    const capped = byteCap(options.maxBytes, messages.tooLarge(options.maxBytes));
    response.on('error', (error) => capped.destroy(transportError(error, messages)));
    capped.on('close', () => {
      if (!response.destroyed) response.destroy();
    });
    response.pipe(capped);
    return { status, headers: response.headers, url: target.url, body: capped };
  }
}
