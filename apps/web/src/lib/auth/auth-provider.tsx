import { Center, Loader } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import type { User, UserManager } from 'oidc-client-ts';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LIMITS, MESSAGES } from '@mixroom/shared';
import type { AuthConfig } from '@mixroom/contracts';
import { api, setTokenSource } from '../api-client';
import { notify } from '../notify';
import { AuthContext, type AuthState } from './auth-context';
import { createUserManager, isUsable, takeReturnTo } from './auth-client';
import { leaveFarewell } from './farewell-notice';
import { renewalOf } from './renewal';

/**
 * Owns the OIDC session: reads the stored user, renews it silently with the refresh token, checks
 * it every 10 s and signs out with 'Session expired…' when it can no longer be renewed.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [manager, setManager] = useState<UserManager | null>(null);
  const [user, setUser] = useState<User | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const config = await api<AuthConfig>('/api/auth/config');
      const created = createUserManager(config);
      // Registered before any child renders: their queries must carry the token from the first call.
      setTokenSource(async () => {
        const current = await created.getUser();
        return isUsable(current) ? current.access_token : null;
      });
      const stored = await created.getUser();
      if (cancelled) return;
      setManager(created);
      setUser(
        stored && !stored.expired
          ? stored
          : stored?.refresh_token
            ? await created.signinSilent().catch(() => null)
            : null,
      );
      setReady(true);
    })().catch(() => {
      setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (!manager) return;
    const onLoaded = (loaded: User) => setUser(loaded);
    const onUnloaded = () => setUser(null);
    manager.events.addUserLoaded(onLoaded);
    manager.events.addUserUnloaded(onUnloaded);
    return () => {
      manager.events.removeUserLoaded(onLoaded);
      manager.events.removeUserUnloaded(onUnloaded);
    };
  }, [manager]);

  const endSession = useCallback(
    async (current: User | null, reason?: 'disabled' | 'deleted', message?: string) => {
      queryClient.clear();
      setUser(null);
      if (reason === 'deleted') {
        // The deletion already ended every session of the account: only the tab's copy is left.
        await manager?.removeUser().catch(() => undefined);
        localStorage.clear();
        sessionStorage.clear();
        leaveFarewell(message ?? '');
        window.location.assign('/public/landing');
        return;
      }
      if (reason === 'disabled') {
        // The server already ended every session of the account: nothing to revoke, only to say why.
        await manager?.removeUser().catch(() => undefined);
        localStorage.clear();
        sessionStorage.clear();
        window.location.assign('/public/sign-in?reason=disabled');
        return;
      }
      // Revoking the refresh token ends its grant at the provider: a copy of it is useless from now.
      await manager?.revokeTokens(['refresh_token']).catch(() => undefined);
      localStorage.clear();
      sessionStorage.clear();
      if (!manager) return;
      await manager.signoutRedirect(current?.id_token ? { id_token_hint: current.id_token } : {}).catch(() => {
        window.location.assign('/public/landing');
      });
    },
    [manager, queryClient],
  );

  // The token check: renew when expired; give up with a clear message only when the provider refuses.
  useEffect(() => {
    if (!manager || !user) return;
    const timer = setInterval(() => {
      void (async () => {
        const current = await manager.getUser();
        if (isUsable(current) && (current.expires_in ?? 0) > 30) return;
        const renewal = current?.refresh_token ? await renewalOf(manager) : 'refused';
        // A renewal that never got its answer (a node restarting, the network away) is tried again
        // on the next check with the same refresh token, which the provider accepts for a short grace.
        if (renewal !== 'refused') return;
        notify('warning', 'Session', MESSAGES.sessionExpired);
        await endSession(current);
      })();
    }, LIMITS.tokenCheckIntervalMs);
    return () => clearInterval(timer);
  }, [manager, user, endSession]);

  const state = useMemo<AuthState>(
    () => ({
      ready,
      user,
      signIn: async ({ screen = 'signin', returnTo } = {}) => {
        if (!manager) return;
        await manager.signinRedirect({ state: { returnTo: returnTo ?? null }, extraQueryParams: { screen } });
      },
      signOut: ({ confirm = true, reason, message } = {}) => {
        if (!confirm) {
          void endSession(user, reason, message);
          return;
        }
        modals.openConfirmModal({
          title: 'Sign out',
          children: MESSAGES.signOutConfirm,
          labels: { confirm: 'Sign out', cancel: 'Cancel' },
          confirmProps: { color: 'red' },
          onConfirm: () => void endSession(user),
        });
      },
      completeSignIn: async () => {
        if (!manager) throw new Error('not ready');
        const signedIn = await manager.signinRedirectCallback();
        setUser(signedIn);
        const state = signedIn.state as { returnTo?: string | null } | undefined;
        return state?.returnTo ?? takeReturnTo() ?? '/groups';
      },
    }),
    [ready, user, manager, endSession],
  );

  if (!ready) {
    return (
      <Center h="100vh">
        <Loader color="violet" />
      </Center>
    );
  }
  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}
