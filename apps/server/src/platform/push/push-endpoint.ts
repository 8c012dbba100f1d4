import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { isPublicAddress } from './public-address';

export const PUSH_ENDPOINT_NOT_HTTPS = 'Push notifications need an https address from the browser’s push service.';
export const PUSH_ENDPOINT_NOT_PUBLIC =
  'This push address points to a local or private network, which Mixroom does not send to.';
export const PUSH_ENDPOINT_UNRESOLVED = 'This push address could not be found.';

/**
 * A push endpoint Mixroom refuses to contact; the message can be shown to the user. `permanent`
 * is false when only the name lookup failed (that may pass later).
 */
export class PushEndpointError extends Error {
  constructor(
    message: string,
    readonly permanent = true,
  ) {
    super(message);
  }
}

export interface PushEndpointPolicy {
  /**
   * Test-only seam: hosts exempt from the public-address rule (a test's push service on loopback),
   * and an extra certificate authority trusted for them. Empty in every real installation.
   */
  allowHosts: string[];
  extraCa: string | null;
  timeoutMs: number;
}

export interface CheckedEndpoint {
  url: URL;
  /** The address that passed the check; the request connects to exactly this one. */
  address: string;
  family: 4 | 6;
  allowListed: boolean;
}

export function pushEndpointPolicy(options: {
  allowHosts: string[];
  caFile: string | undefined;
  timeoutMs?: number;
}): PushEndpointPolicy {
  return {
    allowHosts: options.allowHosts,
    extraCa: options.caFile ? readFileSync(options.caFile, 'utf8') : null,
    timeoutMs: options.timeoutMs ?? 10_000,
  };
}

/**
 * Accepts only https URLs whose host resolves to public addresses only. A name with any private
 * address is refused as a whole, so a second lookup can't pick the private one.
 */
export async function checkPushEndpoint(endpoint: string, policy: PushEndpointPolicy): Promise<CheckedEndpoint> {
  if (!URL.canParse(endpoint)) throw new PushEndpointError(PUSH_ENDPOINT_NOT_HTTPS);
  const url = new URL(endpoint);
  if (url.protocol !== 'https:' || url.username || url.password) throw new PushEndpointError(PUSH_ENDPOINT_NOT_HTTPS);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowListed = policy.allowHosts.includes(host);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new PushEndpointError(PUSH_ENDPOINT_UNRESOLVED, false);
    }
  }
  const [first] = addresses;
  if (!first) throw new PushEndpointError(PUSH_ENDPOINT_UNRESOLVED, false);
  if (!allowListed && !addresses.every((a) => isPublicAddress(a.address)))
    throw new PushEndpointError(PUSH_ENDPOINT_NOT_PUBLIC);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4, allowListed };
}

/**
 * POSTs to a checked endpoint. The connection goes to the checked address (the lookup is pinned),
 * while TLS still verifies the certificate against the host name; the whole exchange has a deadline.
 */
export function postToPushEndpoint(
  target: CheckedEndpoint,
  init: { headers: Record<string, string | number>; body: Buffer },
  policy: PushEndpointPolicy,
): Promise<number> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      target.url,
      {
        method: 'POST',
        headers: { ...init.headers, 'content-length': init.body.length },
        lookup: pinned,
        ...(target.allowListed && policy.extraCa ? { ca: [...rootCertificates, policy.extraCa] } : {}),
        timeout: policy.timeoutMs,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new Error(`The push service did not answer within ${policy.timeoutMs} ms`)),
      policy.timeoutMs,
    );
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () =>
      request.destroy(new Error(`The push service did not answer within ${policy.timeoutMs} ms`)),
    );
    request.on('error', reject);
    request.end(init.body);
  });
}
