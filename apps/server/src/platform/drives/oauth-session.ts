import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock/clock';
import type { OutboundResponse } from '../net/outbound-fetch';
import { DriveError } from './drive-error';
import { discard, driveFetch, readText, type DriveNetwork } from './drive-http';

/** An OAuth 2.0 app registered at a provider and its endpoints (the operator's configuration). */
export interface OAuthAppConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiUrl: string;
  contentUrl: string;
}

/** What a linked OAuth account keeps (sealed at rest): never sent to the browser. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds on the server clock; null when the provider gave no lifetime. */
  expiresAt: number | null;
}

export const OAUTH_MESSAGES = {
  revoked:
    'The storage provider no longer accepts this link (it was revoked or expired). Unlink the account and link it again.',
  refused: 'The storage provider refused the authorization. Try linking again.',
  client: "The storage provider refused this server's app credentials. Tell the server's operator.",
} as const;

/** A token this close to its expiry is refreshed first, so a call does not start with a dying token. */
const REFRESH_MARGIN_MS = 60_000;

/** The PKCE pair (RFC 7636, S256): the verifier stays on the server, the challenge goes to the provider. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** How a provider wants the client to prove itself at its token endpoint. */
export type ClientAuth = 'basic' | 'body';

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/**
 * Calls the provider's token endpoint (code exchange or refresh). A 400/401 means the grant is dead
 * (a reused code, a revoked refresh token): a DriveError the user can act on; 5xx and timeouts are
 * retryable unreachability.
 */
export async function tokenRequest(
  app: OAuthAppConfig,
  auth: ClientAuth,
  network: DriveNetwork,
  clock: Clock,
  form: Record<string, string>,
  previousRefresh: string | null = null,
): Promise<OAuthTokens> {
  const body = new URLSearchParams(form);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (auth === 'basic') {
    // RFC 6749 §2.3.1: the id and secret are form-encoded, then joined for HTTP Basic.
    const pair = `${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    body.set('client_id', app.clientId);
    body.set('client_secret', app.clientSecret);
  }
  const answer = await driveFetch(new URL(app.tokenUrl), network, {
    method: 'POST',
    headers,
    body: Buffer.from(body.toString()),
  });
  const text = await readText(answer);
  // 401 is the provider refusing the app itself (a wrong client secret): the operator's to fix.
  if (answer.status === 401) throw new DriveError(502, 'OAUTH_CLIENT', OAUTH_MESSAGES.client);
  if (answer.status === 400)
    throw new DriveError(
      422,
      form.grant_type === 'refresh_token' ? 'DRIVE_REVOKED' : 'OAUTH_REFUSED',
      form.grant_type === 'refresh_token' ? OAUTH_MESSAGES.revoked : OAUTH_MESSAGES.refused,
    );
  if (answer.status !== 200) throw DriveError.fromStatus(answer.status);
  let parsed: TokenAnswer;
  try {
    parsed = JSON.parse(text) as TokenAnswer;
  } catch {
    throw DriveError.fromStatus(502);
  }
  if (typeof parsed.access_token !== 'string') throw DriveError.fromStatus(502);
  const lifetime = typeof parsed.expires_in === 'number' ? parsed.expires_in : null;
  return {
    accessToken: parsed.access_token,
    // A refresh answer usually carries no new refresh token: the old one stays valid.
    refreshToken: typeof parsed.refresh_token === 'string' ? parsed.refresh_token : previousRefresh,
    expiresAt: lifetime === null ? null : clock.now().getTime() + lifetime * 1000,
  };
}

/**
 * One linked OAuth account's tokens while a driver uses them: an access token past (or near) its
 * expiry on the server clock is refreshed before the call, a call answered 401 is refreshed and tried
 * once more, and every new pair is handed to `persist` (which seals it into the account's row).
 */
export class OAuthSession {
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly app: OAuthAppConfig,
    private readonly auth: ClientAuth,
    private readonly network: DriveNetwork,
    private readonly clock: Clock,
    private tokens: OAuthTokens,
    private readonly persist: (tokens: OAuthTokens) => Promise<void>,
  ) {}

  get current(): OAuthTokens {
    return this.tokens;
  }

  async accessToken(): Promise<string> {
    const { expiresAt } = this.tokens;
    if (expiresAt !== null && expiresAt - REFRESH_MARGIN_MS <= this.clock.now().getTime()) await this.refresh();
    return this.tokens.accessToken;
  }

  /** Refreshes once even when several calls ask at the same moment. */
  async refresh(): Promise<void> {
    if (!this.refreshing)
      this.refreshing = (async () => {
        if (!this.tokens.refreshToken) throw new DriveError(422, 'DRIVE_REVOKED', OAUTH_MESSAGES.revoked);
        this.tokens = await tokenRequest(
          this.app,
          this.auth,
          this.network,
          this.clock,
          { grant_type: 'refresh_token', refresh_token: this.tokens.refreshToken },
          this.tokens.refreshToken,
        );
        await this.persist(this.tokens);
      })().finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  /**
   * Makes a call with a fresh token; a 401 refreshes and tries once more (only calls that can be
   * repeated, i.e. without a streamed body, come here). A second 401 means the link is dead.
   */
  async call(send: (token: string) => Promise<OutboundResponse>): Promise<OutboundResponse> {
    const first = await send(await this.accessToken());
    if (first.status !== 401) return first;
    discard(first);
    await this.refresh();
    const second = await send(this.tokens.accessToken);
    if (second.status !== 401) return second;
    discard(second);
    throw new DriveError(422, 'DRIVE_REVOKED', OAUTH_MESSAGES.revoked);
  }
}

/** A 401 on a call that could not be repeated (a streamed upload): the link is dead or the token expired mid-call. */
export function revokedOr(status: number): DriveError {
  return status === 401 ? new DriveError(422, 'DRIVE_REVOKED', OAUTH_MESSAGES.revoked) : DriveError.fromStatus(status);
}
