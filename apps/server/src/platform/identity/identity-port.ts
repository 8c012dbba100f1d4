import type { Actor } from './actor';
import type { VerifiedToken } from './token-verifier';

/**
 * Who a verified token belongs to, as the HTTP layer and the realtime hub ask it. The users module
 * answers (it knows accounts, disabled ones and administrators); the callers know no module.
 */
export interface IdentityPort {
  resolveActor(token: VerifiedToken): Promise<Actor>;
  /** The picture shown beside the actor's name (presence avatars); null when none. */
  photoUrlOf(userId: string): Promise<string | null>;
}
