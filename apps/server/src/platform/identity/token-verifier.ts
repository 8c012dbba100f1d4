import type { Clock } from '../clock/clock';
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWK, type JWTPayload } from 'jose';

export interface VerifiedToken {
  subject: string;
  claims: JWTPayload & { email?: string; name?: string };
}

export class InvalidTokenError extends Error {}

export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

/**
 * Verifies a JWT access token: signature against the issuer's keys, issuer, audience and expiry.
 * Any failure is an InvalidTokenError, which the API answers with 401.
 */
export function createTokenVerifier(options: {
  issuer: string;
  audience: string;
  keys: { local: { keys: JWK[] } } | { remoteJwksUri: string };
  /** Expiry is judged by this clock, so tests can move past a token's lifetime without waiting. */
  clock?: Clock;
}): TokenVerifier {
  const keySet =
    'local' in options.keys
      ? createLocalJWKSet(options.keys.local)
      : createRemoteJWKSet(new URL(options.keys.remoteJwksUri));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: options.issuer,
        audience: options.audience,
        clockTolerance: 5,
        ...(options.clock ? { currentDate: options.clock.now() } : {}),
        requiredClaims: ['sub', 'exp'],
      });
      if (!payload.sub) throw new InvalidTokenError('Token has no subject');
      return { subject: payload.sub, claims: payload };
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof errors.JOSEError) throw new InvalidTokenError(error.code);
      throw error;
    }
  };
}

/** Reads jwks_uri from the external issuer's discovery document. */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`OIDC discovery at ${issuer} answered ${response.status}`);
  const document = (await response.json()) as { jwks_uri?: string };
  if (!document.jwks_uri) throw new Error(`OIDC discovery at ${issuer} has no jwks_uri`);
  return document.jwks_uri;
}
