import { createHmac, timingSafeEqual } from 'node:crypto';
import { systemClock, type Clock } from '../clock/clock';

/**
 * Short-lived, tamper-proof tokens for links a browser opens without an Authorization header
 * (a ZIP download). The payload is readable but cannot be changed or replayed after expiry.
 */
export class TokenSigner {
  constructor(
    private readonly secret: Buffer,
    /**
     * The composition root leaves this on the system clock: a token's lifetime only caps its link's
     * own expiry, which the services check by the app's clock (a moved clock answers 410, not 404).
     */
    private readonly clock: Clock = systemClock,
  ) {}

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }

  sign(purpose: string, payload: object, ttlSeconds: number): string {
    const body = Buffer.from(
      JSON.stringify({ p: purpose, e: Math.floor(this.clock.now().getTime() / 1000) + ttlSeconds, d: payload }),
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
    if (parsed.p !== purpose || parsed.e * 1000 < this.clock.now().getTime()) return null;
    return parsed.d;
  }
}
