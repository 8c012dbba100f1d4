import type Provider from 'oidc-provider';
import { mountProvider, createEmbeddedProvider, TTL } from '../../platform/identity/embedded-provider';
import { revokeOidcRowsOfAccount } from '../../platform/identity/oidc.repository';
import { SessionRevocations } from '../../platform/identity/session-revocations';
import { loadIdentitySecrets, publicJwks } from '../../platform/identity/signing-keys';
import {
  createTokenVerifier,
  discoverJwksUri,
  InvalidTokenError,
  type TokenVerifier,
} from '../../platform/identity/token-verifier';
import { AttemptLimiter } from '../../platform/security/attempt-limiter';
import { AttemptLimitsRepository } from '../../platform/security/attempt-limits.repository';
import type { SecretsRepository } from '../../platform/secrets/secrets.repository';
import type { AppModule, CoreDeps } from '../module';
import type { UsersRepository } from '../users';
import { interactionRoutes } from './interaction.routes';
import { PasswordResetsRepository } from './password-resets.repository';
import { signInRoutes } from './sign-in.routes';
import { SignInService } from './sign-in.service';

export type SignInModule = AppModule<{
  /** Sign-up, sign-in and passwords of local accounts; null when an external issuer keeps them. */
  signIn: SignInService | null;
  provider: Provider | null;
  verifyToken: TokenVerifier;
  /** Ends every session and refresh token of an account (a no-op with an external issuer). */
  revokeSessions: (userId: string) => Promise<unknown>;
  /** Whether a sign-in session ended (no session ends here with an external issuer). */
  sessionEnded: (sessionId: string) => boolean;
}>;

/**
 * Signing in: the embedded OpenID provider with local accounts (sign-up, passwords, resets), or an
 * external issuer whose tokens are verified against its published keys.
 */
export async function createSignInModule(
  core: CoreDeps,
  deps: { usersRepository: UsersRepository; secrets: SecretsRepository },
): Promise<SignInModule> {
  const { identity } = core.config;
  if (identity.mode !== 'embedded') {
    const verifyToken = createTokenVerifier({
      issuer: identity.issuer,
      audience: identity.audience,
      keys: { remoteJwksUri: await discoverJwksUri(identity.issuer) },
      clock: core.clock,
    });
    return {
      name: 'sign-in',
      routes: [(app) => app.register(signInRoutes, { signIn: null, authConfig: authConfig(core, false) })],
      services: {
        signIn: null,
        provider: null,
        verifyToken,
        revokeSessions: async () => undefined,
        sessionEnded: () => false,
      },
    };
  }
  const identitySecrets = await loadIdentitySecrets(deps.secrets);
  const revocations = new SessionRevocations({
    db: core.db,
    bus: core.bus,
    clock: core.clock,
    log: core.log,
    tokenLifetimeSeconds: TTL.AccessToken,
  });
  const stopRevocations = await revocations.start();
  // Every session of the account ends, and the access tokens already handed out with it.
  const revokeSessions = async (userId: string) =>
    revocations.revoke(userId, await revokeOidcRowsOfAccount(core.db, userId));
  const signIn = new SignInService({
    users: deps.usersRepository,
    resets: new PasswordResetsRepository(core.db, core.clock),
    jobs: core.jobs,
    publicUrl: core.config.publicUrl,
    limiter: new AttemptLimiter(new AttemptLimitsRepository(core.db), core.clock),
    clock: core.clock,
    revokeGrants: revokeSessions,
  });
  const provider = createEmbeddedProvider(
    core.db,
    identitySecrets,
    {
      // A disabled account is unknown to the provider: its refresh tokens and sessions can't renew.
      findAccountClaims: async (id) => {
        const user = await deps.usersRepository.findById(id);
        return user && !user.disabledAt ? { email: user.email, name: user.displayName } : null;
      },
    },
    {
      issuer: identity.issuer,
      publicUrl: core.config.publicUrl,
      clientId: identity.clientId,
      audience: identity.audience,
      extraOrigins: core.config.devOrigins,
      clock: core.clock,
      onGrantsEnded: (userId, grantIds) => revocations.revoke(userId, grantIds),
    },
  );
  const verifySignature = createTokenVerifier({
    issuer: identity.issuer,
    audience: identity.audience,
    keys: { local: publicJwks(identitySecrets.jwks) },
    clock: core.clock,
  });
  // The signature says who; the ended sessions, kept in memory, say whether it still counts.
  const verifyToken: TokenVerifier = async (token) => {
    const verified = await verifySignature(token);
    if (revocations.refuses(verified)) throw new InvalidTokenError('session ended');
    return verified;
  };
  return {
    name: 'sign-in',
    routes: [
      (app) => app.register(signInRoutes, { signIn, authConfig: authConfig(core, true) }),
      (app, { serveApp }) => app.register(interactionRoutes, { provider, signIn, serveApp }),
      (app) => app.register(async (scope) => mountProvider(scope, provider)),
    ],
    services: {
      signIn,
      provider,
      verifyToken,
      revokeSessions,
      sessionEnded: (sessionId) => revocations.ended(sessionId),
    },
    onStop: async () => stopRevocations(),
  };
}

function authConfig(core: CoreDeps, embedded: boolean) {
  const { identity } = core.config;
  return {
    issuer: identity.issuer,
    clientId: identity.clientId,
    scope: embedded ? 'openid profile email offline_access api' : 'openid profile email offline_access',
    embedded,
    apiAudience: identity.audience,
  };
}
