import { AppError } from '../http/app-error';
import type { Actor } from '../platform/identity/actor';

/** Administrators hold isAdmin (spec 1 §6); nothing else reaches the admin area. */
export function assertAdmin(actor: Actor | null): asserts actor is Actor {
  if (!actor) throw AppError.unauthorized();
  if (!actor.isAdmin) throw AppError.forbidden();
}
