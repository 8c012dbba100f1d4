/**
 * Who is calling: resolved once per request (and once per realtime authentication) from a verified
 * access token. Every decision about access starts from it, so it lives below the modules.
 */
export interface Actor {
  userId: string;
  isAdmin: boolean;
  email: string;
  displayName: string;
}
