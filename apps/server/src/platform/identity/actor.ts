/**
 * Who is calling: resolved once per request (and once per realtime authentication) from a verified
 * access token. Every decision about access starts from it, so it lives below the modules.
 */
export interface Actor {
  userId: string;
  isAdmin: boolean;
  email: string;
  displayName: string;
  /**
   * The sign-in session (grant) the request's token was issued under, when it names one: what the
   * caller hands out for later (a preview link) ends with that session.
   */
  sessionId?: string | null;
}
