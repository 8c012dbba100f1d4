import { open } from 'node:fs/promises';
import { DomainError } from '../errors/domain-error';
import {
  checkOutboundUrl,
  DEFAULT_OUTBOUND_MESSAGES,
  OutboundUrlError,
  type OutboundPolicy,
} from '../net/outbound-fetch';
import type { DriveGet } from './drive';
import { asDriveError, outboundPolicyOf, type DriveNetwork } from './drive-http';
import type { FileGetInput, FileGetMessage } from './file-get-protocol';
import { runOnThread } from './file-get-threads';

/** Progress is told every this many bytes (a bar needs a few updates a second, not every read). */
const PROGRESS_BYTES = 8 * 1024 * 1024;

export interface FileGetOptions {
  /** The file the bytes go into, created (or, from `position` on, overwritten). */
  path: string;
  position?: number;
  range?: { start: number; end: number } | null;
  /** The body's length the copy expects; another length fails with `changed` (409 FILE_CHANGED). */
  expected: number;
  changed: string;
  onBytes: (done: number) => void;
  signal?: AbortSignal;
}

/** `copied`: the file holds the answer's body; otherwise the answer was not a plain one and nothing was written. */
export type FileGetOutcome = { copied: true; bytes: number } | { copied: false; status: number };

/**
 * Sends a drive's GET from a thread of its own and writes the body into a file (see
 * file-get-copy, on file-get-threads). The URL passes the same outbound check as every provider call (a user's
 * address must resolve to public addresses unless the operator allowed its host) and the thread
 * connects to the address that was checked. Redirects and other answers come back as
 * `copied: false` for the ordinary client, which follows and checks them, to handle.
 */
export function getIntoFile(get: DriveGet, network: DriveNetwork, options: FileGetOptions): Promise<FileGetOutcome> {
  return getIntoFileUnder(get, outboundPolicyOf(network), options);
}

/** getIntoFile under any outbound policy (tests trust their own certificate authority through it). */
export async function getIntoFileUnder(
  get: DriveGet,
  policy: OutboundPolicy,
  options: FileGetOptions,
): Promise<FileGetOutcome> {
  const target = await checkOutboundUrl(get.url, policy).catch((error: unknown) => {
    throw asDriveError(error);
  });
  options.signal?.throwIfAborted();
  const position = options.position ?? 0;
  const file = await open(options.path, position > 0 ? 'r+' : 'w');
  try {
    const input: FileGetInput = {
      url: target.url.href,
      address: target.address,
      family: target.family,
      ca: target.allowListed ? policy.extraCa : null,
      headers: get.headers,
      range: options.range ?? null,
      fd: file.fd,
      position,
      expected: options.expected,
      timeoutMs: policy.timeoutMs,
      progressBytes: PROGRESS_BYTES,
    };
    return await run(input, options, policy.timeoutMs);
  } finally {
    // Only once the thread has said its last word on this GET: until then it may write here.
    await file.close();
  }
}

async function run(input: FileGetInput, options: FileGetOptions, timeoutMs: number): Promise<FileGetOutcome> {
  const end = await runOnThread(input, options.onBytes, options.signal);
  if (end.type === 'done') {
    options.onBytes(end.bytes);
    return { copied: true, bytes: end.bytes };
  }
  if (end.type === 'answer') return { copied: false, status: end.status };
  if (end.type === 'changed') throw new DomainError(409, 'FILE_CHANGED', options.changed);
  if (end.type === 'failed') throw failure(end, timeoutMs);
  throw new Error('The copy ended without a result');
}

/** The thread's failure as the ordinary client words it: a provider's silence or cut is worth another try. */
function failure(message: Extract<FileGetMessage, { type: 'failed' }>, timeoutMs: number): Error {
  const messages = DEFAULT_OUTBOUND_MESSAGES;
  if (message.reason === 'write') return new Error(`The copy could not be written: ${message.message}`);
  if (message.reason === 'stopped') return new Error('The copy was stopped');
  const text =
    message.reason === 'timeout'
      ? messages.timeout(timeoutMs)
      : message.reason === 'certificate'
        ? messages.certificate
        : messages.unreachable;
  return new OutboundUrlError(text, false, { cause: new Error(message.message) });
}
