/**
 * The error routes and services throw: the same class as the platform's `DomainError` (one
 * `instanceof` check in the error handler covers both), under the name the HTTP layer has always used.
 */
export { DomainError as AppError } from '../platform/errors/domain-error';
