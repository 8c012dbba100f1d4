import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { SecretsRepository } from '../secrets/secrets.repository';

export interface IdentitySecrets {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

/** RS256 signing key and cookie keys, generated on first start and kept in the database. */
export async function loadIdentitySecrets(secrets: SecretsRepository): Promise<IdentitySecrets> {
  const jwks = await secrets.getOrCreate('oidc.jwks', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = await exportJWK(privateKey);
    return { keys: [{ ...jwk, alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') }] };
  });
  const cookieKeys = await secrets.getOrCreate('oidc.cookieKeys', () => [randomBytes(32).toString('base64url')]);
  return { jwks, cookieKeys };
}

/** The public half of a private JWK set, for local verification of our own access tokens. */
export function publicJwks(jwks: { keys: JWK[] }): { keys: JWK[] } {
  return {
    keys: jwks.keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use })),
  };
}
