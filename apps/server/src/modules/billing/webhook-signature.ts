import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a signature's timestamp may be from now: older (or future) requests are refused as replays. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;
export const SIGNATURE_HEADER = 'mixroom-signature';

export type SignatureCheck = { ok: true } | { ok: false; message: string };

/** HMAC-SHA256 of `${timestamp}.${body}` with the shared secret, hex, as the shop computes it. */
export function signaturePayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The header a shop sends: `t=<unix seconds>,v1=<hex signature>`. */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signaturePayload(secret, timestamp, body)}`;
}

/**
 * Checks a `t=…,v1=…` header over the raw body: the timestamp must be within five minutes of now
 * (so a captured request can't be replayed later) and one v1 signature must match (several are
 * accepted while a shop rotates its secret). Compared in constant time.
 */
export function verifySignature(header: string | undefined, body: string, secret: string, now: Date): SignatureCheck {
  if (!header) return { ok: false, message: 'The request is not signed.' };
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts.filter(([key, value]) => key === 'v1' && value).map(([, value]) => value!);
  if (!Number.isInteger(timestamp) || signatures.length === 0)
    return { ok: false, message: 'The signature header is malformed.' };
  if (Math.abs(now.getTime() - timestamp * 1000) > SIGNATURE_WINDOW_MS) {
    return { ok: false, message: 'The signature timestamp is outside the 5-minute window.' };
  }
  const expected = Buffer.from(signaturePayload(secret, timestamp, body), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : { ok: false, message: 'The signature does not match.' };
}
