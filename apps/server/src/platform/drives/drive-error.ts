import { DomainError } from '../errors/domain-error';

/** What a provider's answer means for the user, each with one clear message. */
export const DRIVE_MESSAGES = {
  credentials: 'The storage provider refused these credentials. Check the user name and password or keys.',
  notFound: 'This file or folder is no longer there. It may have been moved or deleted.',
  notAllowed: 'The storage provider does not allow this for the linked account.',
  unreachable: 'The storage provider could not be reached. Try again later.',
  answer: (status: number) => `The storage provider answered with an unexpected status (${status}).`,
  notAFile: 'This is a folder, not a file.',
  badPath: 'This path is not valid.',
  tooLarge: 'This file is too large for the storage provider.',
} as const;

/**
 * A provider's refusal or failure. `retryable` is true when trying later may succeed (timeouts, 5xx,
 * unreachable), so an import job retries those and gives up at once on the rest.
 */
export class DriveError extends DomainError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly retryable = false,
  ) {
    super(status, code, message);
    this.name = 'DriveError';
  }

  static credentials() {
    return new DriveError(422, 'DRIVE_CREDENTIALS', DRIVE_MESSAGES.credentials);
  }
  static override notFound() {
    return new DriveError(404, 'DRIVE_NOT_FOUND', DRIVE_MESSAGES.notFound);
  }
  static unreachable(message: string = DRIVE_MESSAGES.unreachable) {
    return new DriveError(502, 'DRIVE_UNREACHABLE', message, true);
  }
  static refused(message: string) {
    return new DriveError(422, 'DRIVE_URL', message);
  }
  /** Maps a provider's HTTP status to the error the user sees. */
  static fromStatus(status: number): DriveError {
    if (status === 401) return DriveError.credentials();
    if (status === 403) return new DriveError(422, 'DRIVE_FORBIDDEN', DRIVE_MESSAGES.notAllowed);
    if (status === 404) return DriveError.notFound();
    if (status === 413 || status === 507) return new DriveError(422, 'DRIVE_TOO_LARGE', DRIVE_MESSAGES.tooLarge);
    return new DriveError(502, 'DRIVE_ANSWER', DRIVE_MESSAGES.answer(status), status >= 500 || status === 429);
  }
}
