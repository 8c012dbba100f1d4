import type { PublicTransferContent } from '@mixroom/contracts';
import { TRANSFER_MESSAGES } from '@mixroom/shared';
import type { TransferGrant } from '../../access/transfer.policy';
import { AppError } from '../../http/app-error';
import { limiterKey, type AttemptLimiter, type LimitRule } from '../../platform/security/attempt-limiter';
import { playbackKey } from '../storage';
import { transferChanged, type TransfersDeps } from './transfers.deps';
import { presentFile, presentFolders } from './transfers.presenter';
import { verifyTransferPassword } from './transfer-password';
import type { TransferFileRecord } from './transfers.repository';
import { sendMailJob } from '../../platform/mail/mail.jobs';
import { allDownloadedMail } from './transfer-mail';

const MINUTE = 60_000;

/**
 * Password guessing limits. Per address and transfer the budget is small; per address across
 * transfers a little larger; per transfer from everywhere large enough that one guesser cannot lock
 * the real recipients out, yet small enough to stop a spread-out attack.
 */
export const TRANSFER_PASSWORD_RULES = {
  addressTransfer: {
    name: 'transfer:address',
    allowance: 10,
    windowMs: 15 * MINUTE,
    baseBlockMs: MINUTE,
    maxBlockMs: 30 * MINUTE,
  },
  address: { name: 'transfer:ip', allowance: 30, windowMs: 60 * MINUTE, baseBlockMs: MINUTE, maxBlockMs: 60 * MINUTE },
  transfer: {
    name: 'transfer:any',
    allowance: 200,
    windowMs: 60 * MINUTE,
    baseBlockMs: MINUTE,
    maxBlockMs: 15 * MINUTE,
  },
} satisfies Record<string, LimitRule>;

export type AccessDeps = TransfersDeps & { limiter: AttemptLimiter };

const fileUrl = (token: string, fileId: string, what: 'download' | 'peaks' | 'thumbnail' | 'play', grant: string) =>
  `/api/public/transfers/${token}/files/${fileId}/${what}?g=${encodeURIComponent(grant)}`;

/**
 * What a recipient reaches with the link: the head at once; the content, files, peaks and ZIP only
 * with a grant, which needs the password when there is one. The policy decides availability on
 * every call, so an expired transfer stops answering (410) the moment it expires.
 */
export class TransferAccessService {
  constructor(private readonly deps: AccessDeps) {}

  async head(token: string) {
    const transfer = await this.deps.policy.byToken(token);
    return {
      title: transfer.name,
      expiresAt: transfer.expiresAt.toISOString(),
      passwordRequired: Boolean(transfer.passwordHash),
    };
  }

  /**
   * A grant for whoever holds the link, counted as the recipient whose own link it is (from their
   * e-mail), else as someone with the shared link: never as an address the caller merely names.
   */
  async access(token: string, body: { password?: string }, address: string) {
    const { transfer, email } = await this.deps.policy.link(token);
    if (!transfer.passwordHash) return this.deps.policy.issue(transfer, email, false);
    const rules = TRANSFER_PASSWORD_RULES;
    const keys = {
      addressTransfer: limiterKey(rules.addressTransfer, address, transfer.id),
      address: limiterKey(rules.address, address),
      transfer: limiterKey(rules.transfer, transfer.id),
    };
    await this.deps.limiter.assertAllowed(Object.values(keys), TRANSFER_MESSAGES.tooManyAttempts);
    if (!body.password) throw new AppError(401, 'PASSWORD_REQUIRED', TRANSFER_MESSAGES.passwordRequired);
    if (!(await verifyTransferPassword(body.password, transfer.passwordHash))) {
      for (const name of ['addressTransfer', 'address', 'transfer'] as const)
        await this.deps.limiter.recordFailure(rules[name], keys[name]);
      throw new AppError(401, 'WRONG_PASSWORD', TRANSFER_MESSAGES.wrongPassword);
    }
    await this.deps.limiter.reset(keys.addressTransfer);
    return this.deps.policy.issue(transfer, email, false);
  }

  async content(token: string, grantToken: string): Promise<PublicTransferContent> {
    const { transfer } = await this.deps.policy.granted(token, grantToken);
    const [folders, files, sender] = await Promise.all([
      this.deps.repository.folders(transfer.groupId),
      this.deps.repository.files(transfer.id),
      this.deps.userOf(transfer.publisherId),
    ]);
    const ready = files.filter((f) => f.version.status !== 'uploading');
    return {
      title: transfer.name,
      message: transfer.message,
      sender: sender?.displayName ?? '',
      expiresAt: transfer.expiresAt.toISOString(),
      size: transfer.size,
      fileCount: ready.length,
      rootFolderId: transfer.groupId,
      folders: presentFolders(folders),
      files: ready.map((record) => {
        const file = presentFile(record, record.project.groupId ?? transfer.groupId);
        const audio = record.project.type === 'AUDIO';
        return {
          ...file,
          downloadUrl: fileUrl(token, file.id, 'download', grantToken),
          peaksUrl: file.hasPeaks ? fileUrl(token, file.id, 'peaks', grantToken) : null,
          thumbnailUrl: record.version.thumbnailKey ? fileUrl(token, file.id, 'thumbnail', grantToken) : null,
          playUrl: audio ? fileUrl(token, file.id, 'play', grantToken) : null,
        };
      }),
      zipUrl: `/api/public/transfers/${token}/zip?g=${encodeURIComponent(grantToken)}`,
    };
  }

  grant(token: string, grantToken: string): Promise<TransferGrant> {
    return this.deps.policy.granted(token, grantToken);
  }

  /** One file of a granted transfer. */
  async file(
    token: string,
    grantToken: string,
    fileId: string,
  ): Promise<{ grant: TransferGrant; record: TransferFileRecord }> {
    const grant = await this.deps.policy.granted(token, grantToken);
    const record = await this.deps.repository.file(grant.transfer.id, fileId);
    if (!record || record.version.status === 'uploading') throw AppError.notFound('No such file in this transfer.');
    return { grant, record };
  }

  peaksUrl(token: string, grantToken: string, fileId: string): Promise<string> {
    return this.derivedUrl(token, grantToken, fileId, 'peaksKey', 'application/json');
  }

  thumbnailUrl(token: string, grantToken: string, fileId: string): Promise<string> {
    return this.derivedUrl(token, grantToken, fileId, 'thumbnailKey', 'image/png');
  }

  /** A short-lived URL of what the media job made from a file (its peaks or its picture), after the grant check. */
  private async derivedUrl(
    token: string,
    grantToken: string,
    fileId: string,
    kind: 'peaksKey' | 'thumbnailKey',
    contentType: string,
  ): Promise<string> {
    const { record } = await this.file(token, grantToken, fileId);
    const key = record.version[kind];
    if (!key) throw AppError.notFound('Not available yet.');
    return this.deps.blobs.signDownloadUrl(key, { expiresInSeconds: this.deps.signTtlSeconds, contentType });
  }

  async playUrl(token: string, grantToken: string, fileId: string): Promise<string> {
    const { record } = await this.file(token, grantToken, fileId);
    if (record.project.type !== 'AUDIO') throw AppError.notFound('Preview not available, please download.');
    const key = playbackKey(record.version, true);
    if (!key) throw AppError.notFound('Preview not available, please download.');
    return this.deps.blobs.signDownloadUrl(key, { expiresInSeconds: this.deps.signTtlSeconds });
  }

  /**
   * Starts a download's log entry (and counts it), or for a resumed one (a Range from the middle)
   * continues the person's entry for that file. The owner's own downloads are not logged.
   */
  async logStart(
    grant: TransferGrant,
    fileId: string | null,
    fileName: string,
    resumed: boolean,
  ): Promise<string | null> {
    if (grant.owner) return null;
    if (resumed && fileId) {
      const earlier = await this.deps.downloads.latestOf(grant.transfer.id, fileId, grant.email);
      if (earlier) return earlier.id;
    }
    const row = await this.deps.downloads.start({
      transferId: grant.transfer.id,
      email: grant.email,
      fileId,
      fileName,
      at: this.deps.clock.now(),
    });
    await this.deps.bus.publishOrLog(transferChanged(grant.transfer.publisherId, grant.transfer.id, 'downloaded'));
    return row.id;
  }

  /**
   * Records what a response delivered (`sent` bytes from `start` of `size`); the entry completes once
   * all its bytes were delivered across its responses, which may complete the transfer for its sender.
   */
  async logEnd(
    grant: TransferGrant,
    entryId: string | null,
    served: { start: number; sent: number; size: number; finished: boolean },
  ): Promise<void> {
    if (!entryId) return;
    if (!(await this.deps.downloads.recordServed(entryId, served, this.deps.clock.now()))) return;
    await this.deps.bus.publishOrLog(transferChanged(grant.transfer.publisherId, grant.transfer.id, 'downloaded'));
    await this.notifyWhenAllDownloaded(grant.transfer.id);
  }

  /**
   * Tells the sender once when everything was downloaded: by every recipient of an e-mail transfer,
   * or by someone with the link of a link-only one.
   */
  private async notifyWhenAllDownloaded(transferId: string): Promise<void> {
    const transfer = await this.deps.repository.find(transferId);
    if (!transfer || transfer.allDownloadedAt) return;
    const who = new Set(await this.deps.downloads.completeDownloaders(transferId, transfer.fileCount));
    const recipients = (await this.deps.repository.recipients([transferId])).get(transferId) ?? [];
    const done =
      transfer.mode === 'email' && recipients.length > 0
        ? recipients.every((r) => who.has(r.email.toLowerCase()))
        : who.size > 0;
    if (!done) return;
    const owner = await this.deps.userOf(transfer.publisherId);
    await this.deps.unitOfWork(async (tx) => {
      const marked = await this.deps.repository.markAllDownloaded(tx, transferId, this.deps.clock.now());
      if (!marked || !owner) return;
      const historyUrl = `${this.deps.publicUrl.replace(/\/$/, '')}/transfer/history/${transferId}`;
      await this.deps.outbox.job(tx, sendMailJob, {
        to: owner.email,
        notice: true,
        ...allDownloadedMail(transfer.name, historyUrl),
      });
    });
    this.deps.outbox.kick();
  }
}
