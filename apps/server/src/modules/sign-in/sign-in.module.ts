import type Provider from 'oidc-provider';
import { mountProvider, createEmbeddedProvider } from '../../platform/identity/embedded-provider';
import { revokeOidcRowsOfAccount } from '../../platform/identity/oidc.repository';
import { loadIdentitySecrets, publicJwks } from '../../platform/identity/signing-keys';
import { createTokenVerifier, discoverJwksUri, type TokenVerifier } from '../../platform/identity/token-verifier';
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
      services: { signIn: null, provider: null, verifyToken, revokeSessions: async () => undefined },
    };
  }
  const identitySecrets = await loadIdentitySecrets(deps.secrets);
  const revokeSessions = (userId: string) => revokeOidcRowsOfAccount(core.db, userId);
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
    },
  );
  const verifyToken = createTokenVerifier({
    issuer: identity.issuer,
    audience: identity.audience,
    keys: { local: publicJwks(identitySecrets.jwks) },
    clock: core.clock,
  });
  return {
    name: 'sign-in',
    routes: [
      (app) => app.register(signInRoutes, { signIn, authConfig: authConfig(core, true) }),
      (app, { serveApp }) => app.register(interactionRoutes, { provider, signIn, serveApp }),
      (app) => app.register(async (scope) => mountProvider(scope, provider)),
    ],
    services: { signIn, provider, verifyToken, revokeSessions },
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
