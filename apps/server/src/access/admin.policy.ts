import { AppError } from '../http/app-error';
import type { Actor } from '../platform/identity/actor';

/** Only accounts flagged as administrators reach the admin area; nothing else does. */
export function assertAdmin(actor: Actor | null): asserts actor is Actor {
  if (!actor) throw AppError.unauthorized();
  if (!actor.isAdmin) throw AppError.forbidden();
}
