import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The HTTP side of the remote processor (docs/PROCESSORS-REMOTE.md): JSON calls, a streamed upload
 * and streamed downloads, each with a timeout, bounded retries and the task's abort signal. Files
 * go from disk to socket and back in chunks: an hour of float audio never sits in memory.
 */

export interface RemoteHttpOptions {
  /** Base URL of the processing server, e.g. `https://gpu-1.studio.lan:9443`. */
  url: string;
  token: string;
  /** A JSON call's whole time (ms). */
  requestTimeoutMs: number;
  /** An upload's or download's longest silence (ms): a large file may take long, but must keep moving. */
  idleTimeoutMs: number;
  /** Attempts per call, the first included (only calls that are safe to repeat are repeated). */
  attempts: number;
  /** Wait before the second attempt (ms); doubles each time, at most 10 s, or the server's Retry-After. */
  retryBaseMs: number;
}

/** A remote call that failed for good: `status` is the HTTP status when the server answered. */
export class RemoteProcessorError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'RemoteProcessorError';
  }
}

/** Statuses worth another try: the server is busy, restarting, or behind a proxy that lost it. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);
const MAX_JSON_BYTES = 1 << 20;
const MAX_RETRY_WAIT_MS = 10_000;

type Body = { kind: 'none' } | { kind: 'file'; path: string; onBytes?: (sent: number, total: number) => void };

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: Body;
  signal: AbortSignal;
  /** Transfers time out on silence, JSON calls on their whole length. */
  transfer?: boolean;
}

/** Waits `ms`, or rejects at once when the signal aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(abortReason(signal));
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}

export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The processing was cancelled.', 'AbortError');
}

async function readText(response: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of response as AsyncIterable<Buffer>) {
    text += chunk.toString();
    if (text.length > MAX_JSON_BYTES) throw new RemoteProcessorError('The remote processor sent too large an answer');
  }
  return text;
}

/** The server's own words about an error, from `{"error": "..."}` or the plain text, kept short. */
function serverMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error.slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 300) || 'no details';
}

export class RemoteHttp {
  private readonly base: URL;

  constructor(private readonly options: RemoteHttpOptions) {
    this.base = new URL(options.url.endsWith('/') ? options.url : `${options.url}/`);
    if (this.base.protocol !== 'http:' && this.base.protocol !== 'https:')
      throw new RangeError('The remote processor URL must be http or https.');
  }

  get origin(): string {
    return this.base.origin;
  }

  /** A JSON call, repeated on network errors and retryable statuses when `repeatable`. */
  async json<T>(call: Call, repeatable = true): Promise<T> {
    return this.withRetries(call.signal, repeatable, async () => {
      const response = await this.send(call);
      const text = await readText(response);
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new RemoteProcessorError(`The remote processor answered ${call.method} ${call.path} with no JSON`);
      }
    });
  }

  /** A call whose answer has no body worth reading (a DELETE). */
  async call(call: Call, repeatable = true): Promise<void> {
    await this.withRetries(call.signal, repeatable, async () => {
      const response = await this.send(call);
      response.resume();
    });
  }

  /** Streams one output to `target` (through `target.part`, renamed when whole). */
  async download(path: string, target: string, signal: AbortSignal): Promise<void> {
    const partial = `${target}.part`;
    try {
      await this.withRetries(signal, true, async () => {
        const response = await this.send({ method: 'GET', path, signal, transfer: true });
        await pipeline(response, createWriteStream(partial), { signal });
      });
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
  }

  private async withRetries<T>(signal: AbortSignal, repeatable: boolean, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (signal.aborted) throw abortReason(signal);
        const retryable = error instanceof RemoteProcessorError ? error.retryable : true;
        if (!repeatable || !retryable || tries >= this.options.attempts) {
          if (error instanceof RemoteProcessorError) {
            const after = tries > 1 ? ` (after ${tries} attempts)` : '';
            throw new RemoteProcessorError(`${error.message}${after}`, error.status, error.retryable);
          }
          const reason = error instanceof Error ? error.message : String(error);
          throw new RemoteProcessorError(
            `The remote processor at ${this.origin} could not be reached: ${reason}` +
              (tries > 1 ? ` (after ${tries} attempts)` : ''),
          );
        }
        const hinted = error instanceof RetryAfter ? error.ms : 0;
        const backoff = Math.min(MAX_RETRY_WAIT_MS, this.options.retryBaseMs * 2 ** (tries - 1));
        await pause(Math.min(MAX_RETRY_WAIT_MS, Math.max(hinted, backoff)), signal);
      }
    }
  }

  /** One request; resolves with a 2xx response, else rejects with what the server said. */
  private async send(call: Call): Promise<IncomingMessage> {
    const url = new URL(call.path.replace(/^\//, ''), this.base);
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.token}`, ...call.headers };
    let size = 0;
    if (call.body?.kind === 'file') {
      size = (await stat(call.body.path)).size;
      headers['content-type'] = 'audio/wav';
      headers['content-length'] = String(size);
    }
    const timeout = call.transfer ? this.options.idleTimeoutMs : this.options.requestTimeoutMs;
    const signal = call.transfer ? call.signal : AbortSignal.any([call.signal, AbortSignal.timeout(timeout)]);
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, { method: call.method, headers, signal, timeout });
    // Idle sockets (a stalled transfer, a server that accepted and went silent) end the attempt.
    request.on('timeout', () =>
      request.destroy(new RemoteProcessorError(`The remote processor did not answer within ${timeout} ms`, null, true)),
    );
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    answered.catch(() => undefined); // awaited below, after the body is sent
    // The server may answer before it has read the whole body (a refused token, a full disk): its
    // answer wins over the broken upload that follows.
    let uploaded: Promise<unknown> = Promise.resolve(null);
    if (call.body?.kind === 'file') {
      const { path, onBytes } = call.body;
      let sent = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sent += chunk.length;
          onBytes?.(sent, size);
          done(null, chunk);
        },
      });
      uploaded = pipeline(createReadStream(path), counter, request).then(
        () => null,
        (error: unknown) => error,
      );
    } else {
      request.end();
    }
    let response: IncomingMessage;
    try {
      response = await answered;
    } catch (error) {
      await uploaded;
      if (signal.aborted && !call.signal.aborted)
        throw new RemoteProcessorError(`The remote processor did not answer within ${timeout} ms`, null, true);
      throw error;
    }
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    const message = serverMessage(await readText(response).catch(() => ''));
    const label = `The remote processor at ${this.origin} answered ${call.method} ${url.pathname} with ${status}: ${message}`;
    if (status === 401 || status === 403)
      throw new RemoteProcessorError(`The remote processor refused the token (${status}): ${message}`, status);
    const retryAfter = Number(response.headers['retry-after']);
    if (RETRYABLE.has(status) && Number.isFinite(retryAfter) && retryAfter > 0)
      throw new RetryAfter(label, status, retryAfter * 1000);
    throw new RemoteProcessorError(label, status, RETRYABLE.has(status));
  }
}

/** A retryable answer that says how long to wait. */
class RetryAfter extends RemoteProcessorError {
  constructor(
    message: string,
    status: number,
    readonly ms: number,
  ) {
    super(message, status, true);
  }
}
