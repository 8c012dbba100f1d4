import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { AuthConfig } from '@mixroom/contracts';

const RETURN_TO_KEY = 'mixroom.returnTo';

/** Built from /api/auth/config, so the same bundle works with the embedded or an external issuer. */
export function createUserManager(config: AuthConfig): UserManager {
  const origin = window.location.origin;
  return new UserManager({
    authority: config.issuer,
    client_id: config.clientId,
    redirect_uri: `${origin}/auth/callback`,
    post_logout_redirect_uri: `${origin}/public/landing`,
    response_type: 'code',
    scope: config.scope,
    // offline_access is honoured only with prompt=consent; the embedded provider grants it silently.
    prompt: 'consent',
    automaticSilentRenew: true,
    // Refresh tokens renew the session without an iframe or third-party cookies.
    silentRequestTimeoutInSeconds: 10,
    // Tokens live in this tab's sessionStorage, not localStorage: they are gone when the tab closes,
    // and other tabs sign in again through the provider's session (no password asked).
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
    loadUserInfo: false,
  });
}

/** The deep URL to come back to after sign-in. */
export function rememberReturnTo(path: string): void {
  sessionStorage.setItem(RETURN_TO_KEY, path);
}

export function takeReturnTo(): string | null {
  const value = sessionStorage.getItem(RETURN_TO_KEY);
  sessionStorage.removeItem(RETURN_TO_KEY);
  return value;
}

export const isUsable = (user: User | null): user is User => Boolean(user && !user.expired && user.access_token);
