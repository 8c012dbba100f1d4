import { createHmac, timingSafeEqual } from 'node:crypto';
import { systemClock, type Clock } from '../clock/clock';

export type SignedAction = 'get' | 'put' | 'part';

export interface SignedClaims {
  action: SignedAction;
  key: string;
  expires: number;
  uploadId?: string;
  partNumber?: number;
  fileName?: string;
  contentType?: string;
  /** Seconds browsers may cache a GET's response; signed, so a URL cannot be stretched. */
  cacheSeconds?: number;
}

/** A GET's Cache-Control: what the signature grants, else an hour (the default signed lifetime). */
export const cacheControlOf = (claims: Pick<SignedClaims, 'cacheSeconds'>): string =>
  `private, max-age=${claims.cacheSeconds ?? 3600}`;

/**
 * HMAC-signed URLs for the disk driver, so the browser talks to disk storage exactly as it talks to
 * S3: a URL that carries its own permission and expiry, nothing else.
 */
export class UrlSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly baseUrl: string,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Now, in epoch milliseconds, as expiries are signed and checked (a test moves it). */
  now(): number {
    return this.clock.now().getTime();
  }

  private mac(claims: SignedClaims): string {
    const canonical = [
      claims.action,
      claims.key,
      claims.expires,
      claims.uploadId ?? '',
      claims.partNumber ?? '',
      claims.fileName ?? '',
      claims.contentType ?? '',
      // Appended last and only when present, so URLs signed without it keep their signature.
      ...(claims.cacheSeconds !== undefined ? [claims.cacheSeconds] : []),
    ].join('\n');
    return createHmac('sha256', this.secret).update(canonical).digest('base64url');
  }

  sign(claims: SignedClaims): string {
    const params = new URLSearchParams({ k: claims.key, e: String(claims.expires) });
    if (claims.uploadId) params.set('u', claims.uploadId);
    if (claims.partNumber !== undefined) params.set('p', String(claims.partNumber));
    if (claims.fileName) params.set('n', claims.fileName);
    if (claims.contentType) params.set('t', claims.contentType);
    if (claims.cacheSeconds !== undefined) params.set('c', String(claims.cacheSeconds));
    params.set('s', this.mac(claims));
    return `${this.baseUrl}/api/blob/${claims.action}?${params.toString()}`;
  }

  /** Returns the claims when the signature is valid and unexpired, else null. */
  verify(action: SignedAction, query: Record<string, string | undefined>, now = this.now()): SignedClaims | null {
    const { k, e, s, u, p, n, t, c } = query;
    if (!k || !e || !s) return null;
    const claims: SignedClaims = {
      action,
      key: k,
      expires: Number(e),
      ...(u ? { uploadId: u } : {}),
      ...(p ? { partNumber: Number(p) } : {}),
      ...(n ? { fileName: n } : {}),
      ...(t ? { contentType: t } : {}),
      ...(c ? { cacheSeconds: Number(c) } : {}),
    };
    if (!Number.isFinite(claims.expires) || claims.expires * 1000 < now) return null;
    if (claims.cacheSeconds !== undefined && !(Number.isInteger(claims.cacheSeconds) && claims.cacheSeconds >= 0))
      return null;
    const expected = Buffer.from(this.mac(claims));
    const given = Buffer.from(s);
    return expected.length === given.length && timingSafeEqual(expected, given) ? claims : null;
  }
}
