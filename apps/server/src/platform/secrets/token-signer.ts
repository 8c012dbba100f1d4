import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived, tamper-proof tokens for links a browser opens without an Authorization header
 * (a ZIP download). The payload is readable but cannot be changed or replayed after expiry.
 */
export class TokenSigner {
  constructor(private readonly secret: Buffer) {}

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }

  sign(purpose: string, payload: object, ttlSeconds: number): string {
    const body = Buffer.from(
      JSON.stringify({ p: purpose, e: Math.floor(Date.now() / 1000) + ttlSeconds, d: payload }),
    ).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  verify<T>(purpose: string, token: string): T | null {
    const [body, signature] = token.split('.');
    if (!body || !signature) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString()) as { p: string; e: number; d: T };
    if (parsed.p !== purpose || parsed.e * 1000 < Date.now()) return null;
    return parsed.d;
  }
}
