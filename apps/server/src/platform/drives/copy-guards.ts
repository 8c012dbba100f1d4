import { Transform, type TransformCallback } from 'node:stream';
import { DomainError } from '../errors/domain-error';
import { OutboundUrlError } from '../net/outbound-fetch';
import { DriveError } from './drive-error';

/**
 * Counts a copy's bytes as they pass and reports them; a byte past the size the provider announced
 * fails the copy with `changed` (409): the file changed while it was read.
 */
export function copyCounter(total: number, changed: string, onBytes: (done: number) => void): Transform {
  let done = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      done += chunk.length;
      if (done > total) return callback(new DomainError(409, 'FILE_CHANGED', changed));
      onBytes(done);
      callback(null, chunk);
    },
  });
}

/** Whether a copy that failed may succeed later: a provider's timeout, 5xx or lost connection. */
export function copyRetryable(error: unknown): boolean {
  if (error instanceof DriveError) return error.retryable;
  if (error instanceof OutboundUrlError) return !error.permanent;
  return !(error instanceof DomainError);
}

/** What a failed copy tells its owner: the error's own words where they are for users, else `fallback`. */
export function copyFailureReason(error: unknown, fallback: string): string {
  if (error instanceof DomainError || error instanceof OutboundUrlError) return error.message;
  return fallback;
}
