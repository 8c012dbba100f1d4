import { DomainError } from '../platform/errors/domain-error';
import type { Actor } from '../platform/identity/actor';

/** Only accounts flagged as administrators reach the admin area; nothing else does. */
export function assertAdmin(actor: Actor | null): asserts actor is Actor {
  if (!actor) throw DomainError.unauthorized();
  if (!actor.isAdmin) throw DomainError.forbidden();
}
