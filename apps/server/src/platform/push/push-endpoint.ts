import { readFileSync } from 'node:fs';
import {
  checkOutboundUrl,
  OutboundUrlError,
  requestChecked,
  type CheckedUrl,
  type OutboundPolicy,
} from '../net/outbound-fetch';

export const PUSH_ENDPOINT_NOT_HTTPS = 'Push notifications need an https address from the browser’s push service.';
export const PUSH_ENDPOINT_NOT_PUBLIC =
  'This push address points to a local or private network, which Mixroom does not send to.';
export const PUSH_ENDPOINT_UNRESOLVED = 'This push address could not be found.';

/**
 * A push endpoint Mixroom refuses to contact; the message can be shown to the user. `permanent`
 * is false when only the name lookup failed (that may pass later). The same class as platform/net's
 * error, so callers that catch either name catch every refusal.
 */
export const PushEndpointError = OutboundUrlError;
export type PushEndpointError = OutboundUrlError;

export interface PushEndpointPolicy {
  /**
   * Test-only seam: hosts exempt from the public-address rule (a test's push service on loopback),
   * and an extra certificate authority trusted for them. Empty in every real installation.
   */
  allowHosts: string[];
  extraCa: string | null;
  timeoutMs: number;
}

export type CheckedEndpoint = CheckedUrl;

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

/** Push services are reached over https only, and refusals keep the push wording users already see. */
function outboundPolicy(policy: PushEndpointPolicy): OutboundPolicy {
  return {
    protocols: ['https:'],
    allowHosts: policy.allowHosts,
    extraCa: policy.extraCa,
    timeoutMs: policy.timeoutMs,
    messages: {
      notAllowed: PUSH_ENDPOINT_NOT_HTTPS,
      notPublic: PUSH_ENDPOINT_NOT_PUBLIC,
      unresolved: PUSH_ENDPOINT_UNRESOLVED,
      timeout: (ms) => `The push service did not answer within ${ms} ms`,
    },
  };
}

/** Accepts only https URLs whose host resolves to public addresses only (see checkOutboundUrl). */
export function checkPushEndpoint(endpoint: string, policy: PushEndpointPolicy): Promise<CheckedEndpoint> {
  return checkOutboundUrl(endpoint, outboundPolicy(policy));
}

/**
 * POSTs to a checked endpoint, pinned to the checked address, and resolves with the status once the
 * answer has been read. Push services answer with a status only, so redirects are not followed.
 */
export async function postToPushEndpoint(
  target: CheckedEndpoint,
  init: { headers: Record<string, string | number>; body: Buffer },
  policy: PushEndpointPolicy,
): Promise<number> {
  const response = await requestChecked(target, { method: 'POST', ...init }, outboundPolicy(policy));
  return new Promise((resolve, reject) => {
    response.resume();
    response.on('end', () => resolve(response.statusCode ?? 0));
    response.on('error', reject);
  });
}
