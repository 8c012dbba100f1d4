import { createContext, useContext } from 'react';
import type { User } from 'oidc-client-ts';

export interface AuthState {
  /** False until the stored session has been read. */
  ready: boolean;
  user: User | null;
  signIn: (options?: { screen?: 'signin' | 'signup'; returnTo?: string }) => Promise<void>;
  /**
   * Signs out after the spec's confirmation; `confirm: false` for session expiry. `reason: 'disabled'`
   * when an administrator disabled the account: the sign-in page then says so. `reason: 'deleted'`
   * after the user deleted the account: the landing page then shows `message`.
   */
  signOut: (options?: { confirm?: boolean; reason?: 'disabled' | 'deleted'; message?: string }) => void;
  completeSignIn: () => Promise<string>;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth outside AuthProvider');
  return context;
}
