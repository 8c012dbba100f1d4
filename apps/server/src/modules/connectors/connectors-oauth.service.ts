import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Connector, OAuthConnectorKind, OAuthFinishBody } from '@mixroom/contracts';
import { CLIENT_AUTH, isRevocable, type DriveCredentials } from '../../platform/drives/create-drive';
import { pkcePair, tokenRequest, type OAuthTokens } from '../../platform/drives/oauth-session';
import { DomainError } from '../../platform/errors/domain-error';
import type { Actor } from '../../platform/identity/actor';
import type { ConnectorsDeps } from './connectors.deps';
import { CONNECTOR_MESSAGES, presentConnector, type ConnectorsService } from './connectors.service';

/** How long the provider's consent page may take: past this the state is refused and Link starts again. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

const PROVIDER_NAMES: Record<OAuthConnectorKind, string> = { dropbox: 'Dropbox', gdrive: 'Google Drive' };

export const OAUTH_FLOW_MESSAGES = {
  badState:
    'This link request is unknown, was already used, or was started by another account. Start again from Settings.',
  expired: 'This link request expired. Start again from Settings.',
  denied: (provider: string) => `${provider} did not grant access, so nothing was linked.`,
  noCode: 'The storage provider sent no authorization code. Start again from Settings.',
} as const;

/** Scopes asked for: Dropbox's are set on the app's Permissions page; Google's full Drive scope reads and writes any file. */
const SCOPES: Record<OAuthConnectorKind, Record<string, string>> = {
  dropbox: { token_access_type: 'offline' },
  gdrive: { scope: 'https://www.googleapis.com/auth/drive', access_type: 'offline', prompt: 'consent' },
};

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * Linking Dropbox and Google Drive with OAuth 2.0 authorization code + PKCE (S256). Start makes a
 * random state and verifier, keeps them on the server (the state hashed, the verifier sealed) bound
 * to the user with an expiry on the server clock, and answers the provider's authorize address. The
 * browser comes back to Settings with the code, which posts it here: the state must be this user's,
 * unused and unexpired; the code is exchanged with the verifier and the tokens are sealed into the
 * account's row. Tokens never reach the browser.
 */
export class ConnectorsOAuthService {
  constructor(
    private readonly deps: ConnectorsDeps,
    private readonly connectors: ConnectorsService,
  ) {}

  private appOf(kind: OAuthConnectorKind) {
    const app = this.deps.oauth[kind];
    if (!app || !this.deps.enabled.includes(kind))
      throw DomainError.badRequest(CONNECTOR_MESSAGES.notEnabled, 'CONNECTOR_DISABLED');
    return app;
  }

  async start(actor: Actor, kind: OAuthConnectorKind): Promise<{ url: string }> {
    const app = this.appOf(kind);
    const state = randomBytes(32).toString('base64url');
    const { verifier, challenge } = pkcePair();
    const id = randomUUID();
    const now = this.deps.clock.now();
    await this.deps.repository.insertOAuthState({
      id,
      userId: actor.userId,
      kind,
      stateHash: sha256(state),
      sealedVerifier: this.deps.box.seal(verifier, `oauth-state:${id}`),
      expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
      createdAt: now,
    });
    const url = new URL(app.authUrl);
    const params = {
      client_id: app.clientId,
      response_type: 'code',
      redirect_uri: this.deps.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...SCOPES[kind],
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return { url: url.href };
  }

  async finish(actor: Actor, body: OAuthFinishBody): Promise<Connector> {
    const row = await this.deps.repository.takeOAuthState(actor.userId, sha256(body.state));
    if (!row) throw DomainError.badRequest(OAUTH_FLOW_MESSAGES.badState, 'OAUTH_STATE');
    if (row.expiresAt.getTime() <= this.deps.clock.now().getTime())
      throw DomainError.badRequest(OAUTH_FLOW_MESSAGES.expired, 'OAUTH_STATE_EXPIRED');
    const kind = row.kind;
    if (body.error) throw DomainError.badRequest(OAUTH_FLOW_MESSAGES.denied(PROVIDER_NAMES[kind]), 'OAUTH_DENIED');
    if (!body.code) throw DomainError.badRequest(OAUTH_FLOW_MESSAGES.noCode, 'OAUTH_NO_CODE');
    const app = this.appOf(kind);
    const verifier = this.deps.box.open(row.sealedVerifier, `oauth-state:${row.id}`);
    let tokens: OAuthTokens = await tokenRequest(app, CLIENT_AUTH[kind], this.deps.network, this.deps.clock, {
      grant_type: 'authorization_code',
      code: body.code,
      redirect_uri: this.deps.redirectUri,
      code_verifier: verifier,
    });
    const drive = this.connectors.driveOf({ kind, tokens }, async (fresh) => {
      tokens = fresh;
    });
    const account = await drive.account();
    const id = randomUUID();
    const credentials: DriveCredentials = { kind, tokens };
    const inserted = await this.deps.repository.insertAccount({
      id,
      userId: actor.userId,
      kind,
      accountName: account.name.slice(0, 200),
      sealedCredentials: this.connectors.sealFor(id, credentials),
      createdAt: this.deps.clock.now(),
    });
    if (!inserted) {
      // Already linked: the tokens just made would be left live at the provider, so they are revoked.
      if (isRevocable(drive)) await drive.revoke().catch(() => undefined);
      throw DomainError.conflict(CONNECTOR_MESSAGES.alreadyLinked, 'ALREADY_LINKED');
    }
    return presentConnector(inserted);
  }
}
