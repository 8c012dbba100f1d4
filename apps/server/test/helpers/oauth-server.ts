import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { OAuthAppConfig } from '../../src/platform/drives/oauth-session';

/**
 * A local OAuth 2.0 authorization server following RFC 6749 (authorization code and refresh grants),
 * RFC 7636 (PKCE, S256 only) and RFC 7009 (revocation), as Dropbox and Google document theirs. It
 * checks what a real one checks: the client's id and secret (HTTP Basic or in the body, as the
 * provider asks), the registered redirect URI, the code's single use and lifetime, the verifier
 * against the challenge, and the tokens' lifetimes on the clock it is given. Consent is automatic
 * for the account named in `consentAs`.
 */
export interface OAuthServerOptions {
  clientId: string;
  clientSecret: string;
  clientAuth: 'basic' | 'body';
  /** Milliseconds now (the test's clock, so moving it expires tokens here too). */
  now: () => number;
  accessTtlSeconds?: number;
  /** Path of the revocation endpoint, when it lives on this server (Google's /revoke). */
  revokePath?: string;
}

interface Grant {
  account: string;
  refreshToken: string;
  revoked: boolean;
}

interface AccessToken {
  grant: Grant;
  expiresAt: number;
}

interface Code {
  account: string;
  redirectUri: string;
  challenge: string;
  clientId: string;
  expiresAt: number;
  used: boolean;
  grant: Grant | null;
}

const CODE_TTL_MS = 60_000;

export class LocalOAuthServer {
  private server: Server | null = null;
  url = '';
  /** The account the next consent grants (the provider's user who "clicks Allow"). */
  consentAs = 'account-1';
  private readonly codes = new Map<string, Code>();
  private readonly tokens = new Map<string, AccessToken>();
  private readonly grants = new Map<string, Grant>();
  /** Counts for the tests: how many refresh grants were honoured, how many grants revoked. */
  refreshes = 0;
  revocations = 0;
  /** Every access and refresh token issued, so a test can check none reached an API answer. */
  readonly issued: string[] = [];
  /** The revocation endpoint answers 503 (the provider is down when the user unlinks). */
  failRevocation = false;

  constructor(private readonly options: OAuthServerOptions) {}

  /** A drive driver's app registered with this server, its API (and content) at `apiUrl`. */
  appFor(apiUrl: string): OAuthAppConfig {
    return {
      clientId: this.options.clientId,
      clientSecret: this.options.clientSecret,
      authUrl: `${this.url}/authorize`,
      tokenUrl: `${this.url}/token`,
      revokeUrl: `${this.url}/revoke`,
      apiUrl,
      contentUrl: apiUrl,
    };
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch((error: unknown) => {
        response.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The account behind a live access token; null when unknown, expired or revoked. */
  validate(accessToken: string): string | null {
    const token = this.tokens.get(accessToken);
    if (!token || token.grant.revoked || token.expiresAt <= this.options.now()) return null;
    return token.grant.account;
  }

  /** Ends the grant behind an access or refresh token (its refresh token and every access token). */
  revoke(token: string): boolean {
    const grant = this.tokens.get(token)?.grant ?? this.grants.get(token);
    if (!grant || grant.revoked) return false;
    grant.revoked = true;
    this.revocations += 1;
    return true;
  }

  /** The account's owner removes the app at the provider: every grant of the account ends. */
  revokeAccount(account: string): void {
    for (const grant of this.grants.values()) if (grant.account === account) grant.revoked = true;
  }

  /** A grant made directly (setup for driver-level tests that do not run the browser's part). */
  grantFor(account: string): { accessToken: string; refreshToken: string; expiresAt: number } {
    const grant: Grant = { account, refreshToken: randomBytes(24).toString('base64url'), revoked: false };
    this.grants.set(grant.refreshToken, grant);
    const issued = this.issue(grant);
    return {
      accessToken: issued.access_token,
      refreshToken: grant.refreshToken,
      expiresAt: this.options.now() + issued.expires_in * 1000,
    };
  }

  /** Ends every access token now, as a provider may before their announced expiry (the 401 path). */
  expireAccessTokens(): void {
    for (const token of this.tokens.values()) token.expiresAt = 0;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    if (request.method === 'GET' && url.pathname === '/authorize') return this.authorize(url, response);
    const body = await readBody(request);
    const form = new URLSearchParams(body.toString('utf8'));
    if (request.method === 'POST' && url.pathname === '/token') return this.token(request, form, response);
    if (request.method === 'POST' && this.options.revokePath && url.pathname === this.options.revokePath) {
      if (this.failRevocation) return json(response, 503, { error: 'temporarily_unavailable' });
      if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
        return json(response, 400, { error: 'invalid_request' });
      const token = form.get('token') ?? '';
      return this.revoke(token) ? json(response, 200, {}) : json(response, 400, { error: 'invalid_token' });
    }
    json(response, 404, { error: 'not_found' });
  }

  /** The consent page: checks the request and sends the browser back with a code. */
  private authorize(url: URL, response: ServerResponse): void {
    const q = (name: string) => url.searchParams.get(name) ?? '';
    const redirect = q('redirect_uri');
    if (q('client_id') !== this.options.clientId || !URL.canParse(redirect))
      return json(response, 400, { error: 'invalid_client' });
    const back = new URL(redirect);
    back.searchParams.set('state', q('state'));
    if (q('response_type') !== 'code' || q('code_challenge_method') !== 'S256' || q('code_challenge').length < 43)
      back.searchParams.set('error', 'invalid_request');
    else {
      const code = randomBytes(24).toString('base64url');
      this.codes.set(code, {
        account: this.consentAs,
        redirectUri: redirect,
        challenge: q('code_challenge'),
        clientId: q('client_id'),
        expiresAt: this.options.now() + CODE_TTL_MS,
        used: false,
        grant: null,
      });
      back.searchParams.set('code', code);
    }
    response.writeHead(302, { location: back.href }).end();
  }

  private clientOf(request: IncomingMessage, form: URLSearchParams): { id: string; secret: string } | null {
    if (this.options.clientAuth === 'basic') {
      const header = String(request.headers.authorization ?? '');
      if (!header.startsWith('Basic ')) return null;
      const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
    }
    return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
  }

  private token(request: IncomingMessage, form: URLSearchParams, response: ServerResponse): void {
    const client = this.clientOf(request, form);
    if (!client || client.id !== this.options.clientId || client.secret !== this.options.clientSecret)
      return json(response, 401, { error: 'invalid_client' });
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      if (!code) return json(response, 400, { error: 'invalid_grant' });
      if (code.used) {
        // A replayed code: RFC 6749 §4.1.2 says to refuse it and revoke what it gave.
        if (code.grant) code.grant.revoked = true;
        return json(response, 400, { error: 'invalid_grant' });
      }
      code.used = true;
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        code.expiresAt <= this.options.now() ||
        code.redirectUri !== form.get('redirect_uri') ||
        code.clientId !== client.id ||
        challenge !== code.challenge
      )
        return json(response, 400, { error: 'invalid_grant' });
      const grant: Grant = {
        account: code.account,
        refreshToken: randomBytes(24).toString('base64url'),
        revoked: false,
      };
      code.grant = grant;
      this.grants.set(grant.refreshToken, grant);
      this.issued.push(grant.refreshToken);
      return json(response, 200, { ...this.issue(grant), refresh_token: grant.refreshToken });
    }
    if (grantType === 'refresh_token') {
      const grant = this.grants.get(form.get('refresh_token') ?? '');
      if (!grant || grant.revoked) return json(response, 400, { error: 'invalid_grant' });
      this.refreshes += 1;
      return json(response, 200, this.issue(grant));
    }
    json(response, 400, { error: 'unsupported_grant_type' });
  }

  private issue(grant: Grant) {
    const ttl = this.options.accessTtlSeconds ?? 3600;
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, { grant, expiresAt: this.options.now() + ttl * 1000 });
    this.issued.push(accessToken);
    return { access_token: accessToken, token_type: 'bearer', expires_in: ttl };
  }
}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The bearer token of a request, or ''. */
export function bearerOf(request: IncomingMessage): string {
  const header = String(request.headers.authorization ?? '');
  return header.startsWith('Bearer ') ? header.slice(7) : '';
}
