import { ErrorResponse, type User } from 'oidc-client-ts';

/** The provider's answers that end a session; any other failure (a 5xx, no answer at all) may pass. */
const SESSION_OVER = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client', 'login_required']);

export type Renewal = 'renewed' | 'refused' | 'unanswered';

/**
 * A silent renewal's outcome: renewed; refused by the provider (the session is over); or unanswered,
 * to be tried again with the same refresh token (the provider accepts its reuse for a short grace).
 */
export async function renewalOf(manager: { signinSilent: () => Promise<User | null> }): Promise<Renewal> {
  try {
    return (await manager.signinSilent()) ? 'renewed' : 'refused';
  } catch (error) {
    return error instanceof ErrorResponse && SESSION_OVER.has(error.error ?? '') ? 'refused' : 'unanswered';
  }
}
