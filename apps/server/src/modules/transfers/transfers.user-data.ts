import type { UserDataContribution } from '../user-data';
import type { TransferDownloadsRepository } from './transfer-downloads.repository';
import type { TransfersRepository } from './transfers.repository';
import { projectBlobPrefix } from '../../platform/blob/blob-keys';

/**
 * The transfers' part of a user's data: to whom each transfer went, its expiry, checksums and who
 * downloaded what (`transfer-deliveries.json`; the list of sent files is in the storage part's
 * transfers.json, and the files themselves are short-lived copies that stay out of the archive). Erasure removes the transfers and
 * file requests; the files' blobs go with the user's projects.
 */
export function transfersUserData(
  repository: TransfersRepository,
  downloads: TransferDownloadsRepository,
): UserDataContribution {
  return {
    async export(userId, archive) {
      const rows = await repository.transfersOf(userId);
      const recipients = await repository.recipients(rows.map((r) => r.id));
      const listing = [];
      for (const t of rows) {
        const files = await repository.files(t.id);
        const log = await downloads.log(t.id);
        listing.push({
          name: t.name,
          message: t.message,
          mode: t.mode,
          createdAt: t.createdAt.toISOString(),
          expiresAt: t.expiresAt.toISOString(),
          size: t.size,
          recipients: (recipients.get(t.id) ?? []).map((r) => ({ email: r.email, downloadCount: r.downloadCount })),
          anonymousDownloads: t.anonymousDownloads,
          files: files.map((f) => ({
            path: f.file.path,
            fileName: f.version.fileName,
            size: f.version.fileSize,
            sha256: f.file.sha256,
          })),
          downloads: log.map((d) => ({
            email: d.email,
            fileName: d.fileName,
            startedAt: d.startedAt.toISOString(),
            completed: d.completedAt !== null,
          })),
        });
      }
      archive.json('transfer-deliveries.json', listing);
    },
    async blobPrefixes(userId) {
      const prefixes: string[] = [];
      for (const t of await repository.transfersOf(userId))
        for (const id of await repository.projectIds(t.id)) prefixes.push(projectBlobPrefix(id));
      return prefixes;
    },
    async erase(userId, tx) {
      await repository.eraseOwnedBy(userId, tx);
    },
  };
}
