/**
 * Whether a failure means the database could not be reached (connection refused, reset or cut, the
 * server shutting down or starting), as opposed to a query that failed. Such a failure is the
 * installation's, not the request's: the caller should answer 503 and be retried, because nothing
 * was written (a transaction whose connection died is rolled back by PostgreSQL).
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);
/** SQLSTATE class 08 (connection exception) and 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now). */
const POSTGRES_CODES = /^(08...|57P0[123])$/;
const MESSAGES = /Connection terminated|connection (is )?(closed|ended)|Client has encountered a connection error/i;

export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    if (!(current instanceof Error)) return false;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_CODES.test(code))) return true;
    if (MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
