import type { Readable } from 'node:stream';

/**
 * A body handed to a store may fail before the store reads it (a file stream whose file is gone
 * emits ENOENT while the store still creates its folder): with no listener yet, that error would
 * end the process. The listener taken here only keeps it from being unhandled; the stream stays
 * errored, so the store's pipeline (or reader) rejects with it as if it had come later.
 */
export function holdEarlyErrors<T extends Buffer | Readable>(body: T): T {
  if (!Buffer.isBuffer(body)) body.on('error', () => undefined);
  return body;
}
