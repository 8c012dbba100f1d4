import { writeSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, rootCertificates } from 'node:tls';
import { parseAnswerHead, requestHead, type FileGetInput, type FileGetMessage } from './file-get-protocol';

/**
 * One provider GET written into a file, run on the file-get thread. The socket reads into one
 * reused buffer (`onread`) and the bytes go to the file with synchronous writes, so a gigabyte
 * allocates no per-chunk Buffers (Node's HTTP client copies every body chunk into a new one, and
 * their collections cost the main thread more than the copy). Only a plain answer is taken: 200
 * (206 for a range) with a Content-Length and no transfer or content coding; anything else is
 * reported back with nothing written, and the caller reads it through the ordinary client.
 */

/** A socket read fills at most this; TLS records (16 KiB) are gathered into writes of this size too. */
const READ_BYTES = 1024 * 1024;
/** The answer's head, at most; a longer one is not an answer this thread takes. */
const HEAD_LIMIT = 64 * 1024;
// One GET at a time per thread: its buffers serve every GET the thread runs.
const readBuffer = Buffer.allocUnsafe(READ_BYTES);
const staging = Buffer.allocUnsafe(READ_BYTES);

/**
 * Starts the GET; `post` hears its progress and, once, its end (done, answer, changed or failed).
 * After the end nothing more is written to the file. `stop` ends it as failed 'stopped'.
 */
export function startFileGet(input: FileGetInput, post: (message: FileGetMessage) => void): { stop(): void } {
  const target = new URL(input.url);
  const tls = target.protocol === 'https:';
  let staged = 0;
  let head: Buffer | null = Buffer.alloc(0);
  let expected = -1;
  let written = 0;
  let reported = 0;
  let finished = false;

  const writeAll = (bytes: Buffer, start: number, end: number) => {
    let offset = start;
    while (offset < end) {
      const n = writeSync(input.fd, bytes, offset, end - offset, input.position + written);
      offset += n;
      written += n;
    }
  };
  const flush = () => {
    if (staged === 0) return;
    writeAll(staging, 0, staged);
    staged = 0;
  };
  /** Body bytes: large reads go straight to the file, small ones (TLS records) are gathered first. */
  const take = (bytes: Buffer, start: number, end: number) => {
    const length = end - start;
    if (staged === 0 && length >= READ_BYTES / 4) writeAll(bytes, start, end);
    else {
      if (staged + length > staging.length) flush();
      bytes.copy(staging, staged, start, end);
      staged += length;
      if (staged >= staging.length / 2) flush();
    }
    if (written + staged - reported >= input.progressBytes) {
      reported = written + staged;
      post({ type: 'progress', bytes: reported });
    }
  };
  const finish = (message: FileGetMessage) => {
    if (finished) return;
    finished = true;
    socket.destroy();
    post(message);
  };
  const onBody = (bytes: Buffer, start: number, end: number) => {
    take(bytes, start, Math.min(end, start + (expected - written - staged)));
    if (written + staged < expected) return;
    flush();
    finish({ type: 'done', bytes: written });
  };
  const onHead = (bytes: Buffer, length: number) => {
    const all: Buffer = Buffer.concat([head ?? Buffer.alloc(0), bytes.subarray(0, length)]);
    const end = all.indexOf('\r\n\r\n');
    if (end < 0) {
      if (all.length > HEAD_LIMIT) return finish({ type: 'answer', status: 0 });
      head = all;
      return;
    }
    head = null;
    const answer = parseAnswerHead(all.subarray(0, end).toString('latin1'), input.range);
    if (answer.kind !== 'plain') return finish({ type: 'answer', status: answer.status });
    if (answer.length !== input.expected) return finish({ type: 'changed', length: answer.length });
    expected = answer.length;
    if (expected === 0) return finish({ type: 'done', bytes: 0 });
    onBody(all, end + 4, all.length);
  };
  const onRead = (length: number, bytes: Buffer): boolean => {
    if (finished) return false;
    try {
      if (head !== null) onHead(bytes, length);
      else onBody(bytes, 0, length);
    } catch (error) {
      finish({ type: 'failed', reason: 'write', message: error instanceof Error ? error.message : String(error) });
    }
    return !finished;
  };

  const common = {
    host: input.address,
    port: Number(target.port || (tls ? 443 : 80)),
    family: input.family,
    onread: { buffer: readBuffer, callback: onRead },
  };
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  // TLS still checks the certificate against the URL's host name, though the socket goes to the checked address.
  const socket: Socket = tls
    ? connectTls({
        ...common,
        ...(/^[\d.]+$|:/.test(hostname) ? {} : { servername: hostname }),
        ...(input.ca ? { ca: [...rootCertificates, input.ca] } : {}),
        ALPNProtocols: ['http/1.1'],
      })
    : connectTcp(common);

  socket.setTimeout(input.timeoutMs);
  socket.setNoDelay(true);
  socket.on(tls ? 'secureConnect' : 'connect', () => {
    try {
      socket.write(requestHead(target, input.headers));
    } catch (error) {
      finish({
        type: 'failed',
        reason: 'unreachable',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  });
  socket.on('timeout', () => finish({ type: 'failed', reason: 'timeout', message: 'silent' }));
  socket.on('error', (error: Error & { code?: string }) => {
    const certificate = typeof error.code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(error.code);
    finish({ type: 'failed', reason: certificate ? 'certificate' : 'unreachable', message: error.message });
  });
  socket.on('close', () => {
    // The provider closed before the announced length: the copy is cut, not complete.
    if (head !== null) finish({ type: 'failed', reason: 'unreachable', message: 'closed before its answer' });
    else finish({ type: 'failed', reason: 'short', message: `closed after ${written + staged} of ${expected} bytes` });
  });
  return { stop: () => finish({ type: 'failed', reason: 'stopped', message: 'stopped' }) };
}
