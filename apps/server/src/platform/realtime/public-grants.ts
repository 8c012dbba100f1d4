import type { TokenSigner } from '../secrets/token-signer';

const PURPOSE = 'realtime-grant';
/** A grant only opens a socket; the socket then lives on, re-checked whenever access changes. */
export const PUBLIC_GRANT_TTL_SECONDS = 600;

/**
 * Signed, short-lived grants that let a signed-out visitor hold a realtime socket for one public
 * resource (a public live page, a public share page). The module that owns the resource issues one
 * after its own checks (link active, password given); the topic rule of that resource's kind
 * decides again on every subscription and on every access change whether it is still public.
 */
export class PublicGrants {
  readonly ttlMs = PUBLIC_GRANT_TTL_SECONDS * 1000;

  constructor(private readonly tokens: TokenSigner) {}

  issue(topic: string): { grant: string; topic: string; expiresInSeconds: number } {
    return {
      grant: this.tokens.sign(PURPOSE, { t: topic }, PUBLIC_GRANT_TTL_SECONDS),
      topic,
      expiresInSeconds: PUBLIC_GRANT_TTL_SECONDS,
    };
  }

  /** The grant's topic, or null when it is forged or expired. */
  verify(grant: string): string | null {
    try {
      return this.tokens.verify<{ t: string }>(PURPOSE, grant)?.t ?? null;
    } catch {
      return null;
    }
  }
}
