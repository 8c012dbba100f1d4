import { MESSAGES } from '@mixroom/shared';

/** A failure with a stable code, an HTTP status and a message safe to show the user. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
  }

  static badRequest(message: string, code = 'BAD_REQUEST') {
    return new AppError(400, code, message);
  }
  static unauthorized(message: string = MESSAGES.unauthorized) {
    return new AppError(401, 'UNAUTHORIZED', message);
  }
  static forbidden(message: string = MESSAGES.forbidden) {
    return new AppError(403, 'FORBIDDEN', message);
  }
  static notFound(message: string = MESSAGES.notFound) {
    return new AppError(404, 'NOT_FOUND', message);
  }
  static conflict(message: string, code = 'CONFLICT') {
    return new AppError(409, code, message);
  }
  static tooMany(message: string) {
    return new AppError(429, 'RATE_LIMITED', message);
  }
}
