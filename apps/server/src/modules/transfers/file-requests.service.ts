import { randomBytes } from 'node:crypto';
import type { FileRequest, TransferUploadTicket, UploadSession, Version } from '@mixroom/contracts';
import { formatTransferSize, isRecipientEmail, TRANSFER_MESSAGES, UNLIMITED } from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import {
  limiterKey,
  RateLimitedError,
  type AttemptLimiter,
  type LimitRule,
} from '../../platform/security/attempt-limiter';
import type { Actor } from '../../platform/identity/actor';
import type { TokenSigner } from '../../platform/secrets/token-signer';
import type { FileRequestRow, FileRequestsRepository } from './file-requests.repository';
import type { TransferCreationService } from './transfer-creation.service';
import type { TransfersDeps } from './transfers.deps';
import type { TransferRow } from './transfers.repository';

/** An uploader has a day to send what they started. */
const UPLOAD_GRANT_TTL_SECONDS = 24 * 3600;
const UPLOAD_PURPOSE = 'transfer-upload';
const DEFAULT_MESSAGE = 'Uploaded through your file request.';
/** The transfer an uploader sends stays this long (or the longest the owner's plan allows, if shorter). */
const REQUEST_TRANSFER_DAYS = 30;

const HOUR = 3_600_000;

/**
 * Starts through a request link, which anyone holding it may make: per address a handful an hour
 * (a person sends a few batches, a script many), and per request a day's worth from everywhere, so
 * a leaked link cannot fill the owner's transfers. A refusal is counted as a use too.
 */
export const FILE_REQUEST_START_RULES = {
  address: { name: 'file-request:ip', allowance: 20, windowMs: HOUR, baseBlockMs: 0, maxBlockMs: 0 },
  request: { name: 'file-request:any', allowance: 200, windowMs: 24 * HOUR, baseBlockMs: 0, maxBlockMs: 0 },
} satisfies Record<string, LimitRule>;

interface UploadClaims {
  t: string;
  r: string;
}

const unavailable = () => new AppError(410, 'REQUEST_UNAVAILABLE', TRANSFER_MESSAGES.requestUnavailable);

/**
 * "Request files": an owner hands out a link; someone without an account uploads through it into a
 * transfer of the owner's (it lands in the owner's history, and the owner is mailed once every file
 * is in). The uploader's calls carry an upload grant bound to that one transfer, checked on each.
 */
export class FileRequestsService {
  constructor(
    private readonly deps: TransfersDeps & {
      requests: FileRequestsRepository;
      tokens: TokenSigner;
      limiter: AttemptLimiter;
    },
    private readonly creation: TransferCreationService,
  ) {}

  private present(row: FileRequestRow & { received: number }): FileRequest {
    return {
      id: row.id,
      link: `${this.deps.publicUrl.replace(/\/$/, '')}/public/request?requestId=${encodeURIComponent(row.token)}`,
      message: row.message,
      maxBytes: row.maxBytes,
      createdAt: row.createdAt.toISOString(),
      received: row.received,
    };
  }

  async create(actor: Actor, body: { message: string; maxBytes: number | null }): Promise<FileRequest> {
    const row = await this.deps.requests.create({
      token: randomBytes(24).toString('base64url'),
      ownerId: actor.userId,
      message: body.message,
      maxBytes: body.maxBytes,
      createdAt: this.deps.clock.now(),
    });
    return this.present({ ...row, received: 0 });
  }

  async list(actor: Actor): Promise<{ items: FileRequest[] }> {
    return { items: (await this.deps.requests.listLive(actor.userId)).map((r) => this.present(r)) };
  }

  /**
   * Turns the link off, and with it every upload started through it and not finished: their grants
   * are refused from now on, and their sessions close, so a part URL handed out earlier stores nothing.
   */
  async revoke(actor: Actor, id: string): Promise<void> {
    if (!(await this.deps.requests.revoke(id, actor.userId, this.deps.clock.now())))
      throw AppError.notFound('No such file request.');
    for (const uploadId of await this.deps.requests.openUploadIds(id)) await this.deps.uploads.abortSession(uploadId);
  }

  private async live(token: string): Promise<FileRequestRow> {
    const request = await this.deps.requests.findByToken(token);
    if (!request) throw new AppError(404, 'REQUEST_NOT_FOUND', TRANSFER_MESSAGES.requestUnavailable);
    // Off while the owner's account is disabled, on again once it is enabled.
    if (request.revokedAt || !(await this.deps.links.ownerActive(request.ownerId))) throw unavailable();
    return request;
  }

  /** The request's own limit, within the owner's plan's largest transfer. */
  private async maxBytes(request: FileRequestRow): Promise<number> {
    const plan = (await this.deps.limitsFor(request.ownerId)).transferMaxBytes;
    const limits = [request.maxBytes ?? Number.MAX_SAFE_INTEGER, plan === UNLIMITED ? Number.MAX_SAFE_INTEGER : plan];
    return Math.min(...limits);
  }

  async open(token: string) {
    const request = await this.live(token);
    const owner = await this.deps.userOf(request.ownerId);
    if (!owner) throw unavailable();
    return { ownerName: owner.displayName, message: request.message, maxBytes: await this.maxBytes(request) };
  }

  /** Counts one start from `address` through `request`; refuses past either budget. */
  private async countStart(request: FileRequestRow, address: string): Promise<void> {
    const rules = FILE_REQUEST_START_RULES;
    const byAddress = await this.deps.limiter.consume(rules.address, limiterKey(rules.address, address));
    const byRequest = await this.deps.limiter.consume(rules.request, limiterKey(rules.request, request.id));
    if (!byAddress || !byRequest) throw new RateLimitedError(TRANSFER_MESSAGES.tooManyRequestUploads, 3600);
  }

  async start(
    token: string,
    body: { name: string; email: string; message: string; files: { path: string; fileName: string; size: number }[] },
    address: string,
  ) {
    const request = await this.live(token);
    await this.countStart(request, address);
    const max = await this.maxBytes(request);
    if (body.files.reduce((sum, f) => sum + f.size, 0) > max)
      throw new AppError(413, 'REQUEST_TOO_LARGE', TRANSFER_MESSAGES.requestTooLarge(formatTransferSize(max)));
    const email = isRecipientEmail(body.email) ? body.email : null;
    const who = body.name || email || 'someone';
    const durations = (await this.deps.limitsFor(request.ownerId)).transferDurationDays;
    const durationDays = Math.max(...durations.filter((d) => d <= REQUEST_TRANSFER_DAYS), Math.min(...durations));
    const transfer = await this.creation.create(
      { ownerId: request.ownerId, request: { id: request.id, uploaderName: body.name || null, uploaderEmail: email } },
      {
        name: `Files from ${who}`.slice(0, 100),
        message: body.message || DEFAULT_MESSAGE,
        mode: 'link',
        recipients: [],
        durationDays,
        password: null,
        files: body.files,
      },
    );
    const claims: UploadClaims = { t: transfer.id, r: request.id };
    return {
      transferId: transfer.id,
      files: transfer.files.map((f) => ({
        id: f.id,
        versionId: f.versionId,
        path: f.path,
        fileName: f.fileName,
        size: f.size,
      })),
      uploadGrant: this.deps.tokens.sign(UPLOAD_PURPOSE, claims, UPLOAD_GRANT_TTL_SECONDS),
    };
  }

  /** The transfer an upload grant was given for, still being uploaded through a live request. */
  private async granted(grant: string, transferId?: string): Promise<TransferRow> {
    const claims = this.deps.tokens.verify<UploadClaims>(UPLOAD_PURPOSE, grant);
    if (!claims || (transferId && claims.t !== transferId)) throw AppError.notFound('No such upload.');
    const transfer = await this.deps.repository.find(claims.t);
    if (!transfer || transfer.requestId !== claims.r) throw AppError.notFound('No such upload.');
    // A grant lives a day, the link may be turned off sooner: every use asks whether it still is on.
    const request = await this.deps.requests.find(claims.r);
    if (!request || request.revokedAt || !(await this.deps.links.ownerActive(request.ownerId))) throw unavailable();
    return transfer;
  }

  async uploadTicket(grant: string, transferId: string, fileId: string): Promise<TransferUploadTicket> {
    const transfer = await this.granted(grant, transferId);
    return this.creation.uploadTicket(transfer.publisherId, transfer, fileId);
  }

  async completeFile(grant: string, transferId: string, fileId: string): Promise<Version> {
    const transfer = await this.granted(grant, transferId);
    return this.creation.completeFile(transfer.uploaderName ?? 'Someone', transfer.publisherId, transfer, fileId);
  }

  /** An upload session of the granted transfer (the orchestrator's own calls, for someone without an account). */
  private async session(grant: string, uploadId: string): Promise<TransferRow> {
    const transfer = await this.granted(grant);
    const record = await this.deps.repository.fileByUpload(uploadId);
    if (!record || record.file.transferId !== transfer.id) throw AppError.notFound('No such upload.');
    return transfer;
  }

  async uploadSession(grant: string, uploadId: string): Promise<UploadSession> {
    const transfer = await this.session(grant, uploadId);
    return this.deps.uploads.get(transfer.publisherId, uploadId);
  }

  async partUrl(grant: string, uploadId: string, partNumber: number): Promise<{ url: string }> {
    const transfer = await this.session(grant, uploadId);
    return this.deps.uploads.partUrl(transfer.publisherId, uploadId, partNumber);
  }

  async recordPart(
    grant: string,
    uploadId: string,
    part: { partNumber: number; etag: string; size: number },
  ): Promise<void> {
    const transfer = await this.session(grant, uploadId);
    await this.deps.uploads.recordPart(transfer.publisherId, uploadId, part);
  }
}
