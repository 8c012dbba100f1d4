/**
 * What the file-get thread is given and answers, and the small part of HTTP/1.1 it speaks: one GET
 * with `Connection: close`, and an answer it takes only when its length is plain to see.
 */

export interface FileGetInput {
  /** The URL that passed the outbound check; the socket connects to `address`, never a new lookup. */
  url: string;
  address: string;
  family: 4 | 6;
  /** Extra certificate authority for an allow-listed host (tests); null in real installations. */
  ca: string | null;
  headers: Record<string, string>;
  /** The inclusive byte range asked for, or null for the whole file (then 200 is the only plain answer). */
  range: { start: number; end: number } | null;
  /** An open file descriptor of the caller's; bytes go from `position` on. */
  fd: number;
  position: number;
  /** The body's length the copy expects: any other Content-Length means the file changed. */
  expected: number;
  /** Longest silence allowed (connect, answer, between body bytes). */
  timeoutMs: number;
  /** A progress message every this many bytes. */
  progressBytes: number;
}

export type FileGetFailure = 'timeout' | 'unreachable' | 'certificate' | 'short' | 'write' | 'stopped';

export type FileGetMessage =
  | { type: 'progress'; bytes: number }
  | { type: 'done'; bytes: number }
  /** An answer this thread does not take (a redirect, an error, chunked): nothing was written. */
  | { type: 'answer'; status: number }
  /** The provider announced another length than the copy expects. */
  | { type: 'changed'; length: number }
  | { type: 'failed'; reason: FileGetFailure; message: string };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The request's head; a header name or value that could split the request is refused. */
export function requestHead(url: URL, headers: Record<string, string>): string {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) throw new Error(`Header ${name} cannot be sent`);
    if (/^(host|connection|accept-encoding|content-length|transfer-encoding)$/i.test(name)) continue;
    lines.push(`${name}: ${value}`);
  }
  lines.push('Accept-Encoding: identity', 'Connection: close', '', '');
  return lines.join('\r\n');
}

export type AnswerHead = { kind: 'plain'; status: number; length: number } | { kind: 'other'; status: number };

/**
 * Reads an answer's status line and headers (without the blank line). Plain means: 200 for a whole
 * file or 206 with the range asked for, exactly one Content-Length, and no Transfer-Encoding or Content-Encoding
 * other than identity; everything else is `other` and goes to the ordinary HTTP client.
 */
export function parseAnswerHead(text: string, range: FileGetInput['range']): AnswerHead {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
  const status = match ? Number(match[1]) : 0;
  if (status !== (range ? 206 : 200)) return { kind: 'other', status };
  const lengths: string[] = [];
  let served: string | null = null;
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { kind: 'other', status };
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') lengths.push(value);
    if (name === 'content-range') served = value;
    if (name === 'transfer-encoding') return { kind: 'other', status };
    if (name === 'content-encoding' && value.toLowerCase() !== 'identity') return { kind: 'other', status };
  }
  const [length] = lengths;
  if (lengths.length !== 1 || length === undefined || !/^\d{1,16}$/.test(length)) return { kind: 'other', status };
  // A 206 must be the bytes asked for, not another part of the file.
  const asked = range ? `bytes ${range.start}-${range.end}/` : null;
  if (asked !== null && !served?.startsWith(asked)) return { kind: 'other', status };
  return { kind: 'plain', status, length: Number(length) };
}

/** What the file-get thread is sent: a GET to run, or a GET to stop. */
export type FileGetThreadRequest = { type: 'get'; id: number; input: FileGetInput } | { type: 'stop'; id: number };

/** What it posts: a GET's messages, each with the GET's id. */
export type FileGetThreadMessage = FileGetMessage & { id: number };
