import { MESSAGES } from '@mixroom/shared';

/**
 * A failure with a stable code, a status and a message safe to show the user. It lives below every
 * layer so drivers and policies can refuse without knowing the HTTP surface; `http/app-error` names
 * the same class for the routes and services, and the error handler turns it into the one JSON shape.
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
  }

  static badRequest(message: string, code = 'BAD_REQUEST') {
    return new DomainError(400, code, message);
  }
  static unauthorized(message: string = MESSAGES.unauthorized) {
    return new DomainError(401, 'UNAUTHORIZED', message);
  }
  static forbidden(message: string = MESSAGES.forbidden) {
    return new DomainError(403, 'FORBIDDEN', message);
  }
  static notFound(message: string = MESSAGES.notFound) {
    return new DomainError(404, 'NOT_FOUND', message);
  }
  static conflict(message: string, code = 'CONFLICT') {
    return new DomainError(409, code, message);
  }
  static tooMany(message: string) {
    return new DomainError(429, 'RATE_LIMITED', message);
  }
}
