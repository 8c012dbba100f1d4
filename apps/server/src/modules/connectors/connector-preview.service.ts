import type { Readable } from 'node:stream';
import type { PreviewAnswer } from '@mixroom/contracts';
import { extensionOf, isAudioExtension } from '@mixroom/shared';
import { parseRange } from '../../platform/blob/range';
import type { Clock } from '../../platform/clock/clock';
import type { Drive } from '../../platform/drives/drive';
import { DRIVE_MESSAGES, DriveError } from '../../platform/drives/drive-error';
import { DomainError } from '../../platform/errors/domain-error';
import type { Actor } from '../../platform/identity/actor';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import { connectorPath } from './connectors.service';

/** How long a preview link works; every request of it checks the linked account again. */
export const PREVIEW_TTL_SECONDS = 30 * 60;
const PURPOSE = 'connector-preview';

/** Content types the browser's player is told, by extension (it decides what it can play). */
const AUDIO_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
  aiff: 'audio/aiff',
  aif: 'audio/aiff',
};

export const PREVIEW_MESSAGES = {
  notAudio: 'Only audio files can be previewed.',
  badLink: 'This preview link is invalid or has expired.',
  changed: 'This file changed at the storage provider. Open its preview again.',
  sizeUnknown: 'The storage provider does not say how large this file is, so it cannot be previewed.',
} as const;

interface PreviewClaim {
  /** The user, their linked account, and the file. */
  u: string;
  c: string;
  p: string;
  /** Expiry by the app's clock, in ms (the token's own lifetime only caps it). */
  x: number;
  /** The sign-in session that asked for it: its end ends the link (null: a token naming none). */
  s: string | null;
  /** The file's size when the link was made: every range is of it, and another size is a changed file. */
  n: number;
}

/** What the route sends: a status, headers and the provider's bytes (null for a 416). */
export interface PreviewResponse {
  status: 200 | 206 | 416;
  headers: Record<string, string | number>;
  body: Readable | null;
}

export interface ConnectorPreviewDeps {
  /** The caller's linked account as a drive (404 when it is not theirs, or gone). */
  open: (userId: string, connectorId: string) => Promise<Drive>;
  tokens: TokenSigner;
  clock: Clock;
  /** Whether a sign-in session ended (a sign-out, a password reset). */
  sessionEnded: (sessionId: string) => boolean;
}

/**
 * Hearing a linked audio file before importing it: the browser's player streams it through the
 * server (credentials never reach the browser), a range at a time, straight from the provider.
 * The link names the user, the account, the file and its size; every request of it opens the
 * account again, so unlinking it (or the file going or changing) ends the preview at once.
 */
export class ConnectorPreviewService {
  constructor(private readonly deps: ConnectorPreviewDeps) {}

  async link(actor: Actor, connectorId: string, rawPath: string): Promise<PreviewAnswer> {
    const { userId } = actor;
    const path = connectorPath(rawPath);
    if (!isAudioExtension(extensionOf(path))) throw DomainError.badRequest(PREVIEW_MESSAGES.notAudio, 'NOT_AUDIO');
    const drive = await this.deps.open(userId, connectorId);
    const entry = await drive.stat(path);
    if (entry.kind !== 'file') throw DomainError.badRequest(DRIVE_MESSAGES.notAFile, 'NOT_A_FILE');
    if (entry.size === null) throw new DriveError(422, 'SIZE_UNKNOWN', PREVIEW_MESSAGES.sizeUnknown);
    const expiresAt = this.deps.clock.now().getTime() + PREVIEW_TTL_SECONDS * 1000;
    const claim: PreviewClaim = {
      u: userId,
      c: connectorId,
      p: entry.path,
      x: expiresAt,
      s: actor.sessionId ?? null,
      n: entry.size,
    };
    const token = this.deps.tokens.sign(PURPOSE, claim, PREVIEW_TTL_SECONDS);
    return {
      url: `/api/connectors/preview-stream?t=${encodeURIComponent(token)}`,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** The file's bytes, or the range asked for; `signal` ends the provider's read when the player goes. */
  async stream(token: string, rangeHeader: string | undefined, signal: AbortSignal): Promise<PreviewResponse> {
    const claim = this.deps.tokens.verify<PreviewClaim>(PURPOSE, token);
    if (!claim || claim.x <= this.deps.clock.now().getTime() || (claim.s !== null && this.deps.sessionEnded(claim.s)))
      throw new DomainError(403, 'PREVIEW_LINK', PREVIEW_MESSAGES.badLink);
    const drive = await this.deps.open(claim.u, claim.c);
    // The size the link was made with: one read per range request, no listing of the file first.
    const size = claim.n;
    const common = {
      'Accept-Ranges': 'bytes',
      'Content-Type': AUDIO_TYPES[extensionOf(claim.p)] ?? 'application/octet-stream',
    };
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable' || (range && size === 0))
      return { status: 416, headers: { ...common, 'Content-Range': `bytes */${size}` }, body: null };
    if (size === 0) return { status: 200, headers: { ...common, 'Content-Length': 0 }, body: null };
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const read = await drive.read(claim.p, range ? { range: { start, end }, signal } : { signal });
    // The headers must say what the body is: another size is a file that changed since the link
    // was made; another length than the range asked for is a provider that answers otherwise.
    if (read.size !== size || read.length !== end - start + 1) {
      read.body.destroy();
      if (read.size !== size) throw new DomainError(409, 'FILE_CHANGED', PREVIEW_MESSAGES.changed);
      throw new DriveError(502, 'DRIVE_ANSWER', DRIVE_MESSAGES.answer(range ? 206 : 200));
    }
    return {
      status: range ? 206 : 200,
      headers: {
        ...common,
        'Content-Length': read.length,
        ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
      },
      body: read.body,
    };
  }
}
