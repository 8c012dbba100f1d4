import { Transform } from 'node:stream';

/**
 * Passes bytes through and fails if they end short of, or run past, `expected`. A response whose
 * Content-Length was announced up front must end with an error rather than quietly short: the client
 * would otherwise wait on the open connection for bytes that never come.
 */
export function exactLength(expected: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > expected) return callback(new Error(`read more than the ${expected} bytes expected`));
      callback(null, chunk);
    },
    flush(callback) {
      callback(seen === expected ? null : new Error(`read ${seen} bytes where ${expected} were expected`));
    },
  });
}
