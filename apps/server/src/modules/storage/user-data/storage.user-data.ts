import type { Outbox } from '../../../platform/jobs/outbox';
import type { UserDataContribution } from '../../user-data';
import type { OwnedProject, OwnedVersion, UserDataRepository } from './user-data.repository';
import { projectBlobPrefix } from '../../../platform/blob/blob-keys';

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** A name safe as one path segment of the archive (names are metadata and may hold anything). */
const segment = (name: string) => name.replace(/[/\\:*?"<>|\p{Cc}]/gu, '_').trim() || '_';

/** "“A”", "“A” and “B”", "“A”, “B” and 3 more". */
function itemList(names: string[]): string {
  const quoted = names.map((n) => `“${n}”`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, 2).join(', ')} and ${quoted.length - 2} more`;
}

function presentVersion(v: OwnedVersion) {
  return {
    number: v.number,
    name: v.name,
    fileName: v.fileName,
    fileSize: v.fileSize,
    createdAt: v.createdAt.toISOString(),
    durationSeconds: v.durationSeconds,
    media: v.media,
    loudness: v.loudness,
    approval: v.approval,
    note: v.note,
  };
}

/**
 * The storage area's part of a user's data: the folders and projects they own, with every
 * version's original file and notes. Erasing removes them for everyone (collaborators keep nothing
 * of them) and tells the people they were shared with.
 */
export function storageUserData(repository: UserDataRepository, outbox: Outbox): UserDataContribution {
  /** What the user sent as transfers: names, files and dates (the files themselves are theirs already). */
  const exportTransfers = async (
    userId: string,
    archive: Parameters<NonNullable<UserDataContribution['export']>>[1],
  ) => {
    const sent = (await repository.ownedProjects(userId, [])).filter((p) => p.mode === 'TRANSFER');
    if (sent.length === 0) return;
    const folders = await repository.groupNames(sent.flatMap((p) => p.path));
    const versions = groupBy(await repository.versionsOf(sent.map((p) => p.id)), (v) => v.projectId);
    archive.json(
      'transfers.json',
      sent.map((p) => ({
        transfer: folders.get(p.path[0] ?? '') ?? null,
        name: p.name,
        createdAt: p.createdAt.toISOString(),
        files: (versions.get(p.id) ?? []).map((v) => ({ fileName: v.fileName, fileSize: v.fileSize })),
      })),
    );
  };
  return {
    async export(userId, archive) {
      const owned = (await repository.ownedProjects(userId, [])).filter((p) => p.mode === 'STORAGE');
      const names = await repository.groupNames(owned.flatMap((p) => p.path));
      const projectNames = new Map(owned.map((p) => [p.id, p.name]));
      const versions = await repository.versionsOf(owned.map((p) => p.id));
      const byProject = groupBy(versions, (v) => v.projectId);
      const folderOf = (p: OwnedProject) =>
        p.path
          .slice(0, -1)
          .map((id) => segment(names.get(id) ?? projectNames.get(id) ?? id))
          .join('/');
      const listing = owned.map((project) => {
        const folder = folderOf(project);
        const base = ['projects', ...(folder ? [folder] : []), segment(project.name)].join('/');
        const own = byProject.get(project.id) ?? [];
        for (const v of own) {
          if (v.status === 'ready' || v.status === 'processing' || v.status === 'corrupt')
            archive.blob(`${base}/v${v.number} ${segment(v.fileName)}`, v.blobKey, v.fileSize, v.createdAt);
          if (v.note) archive.text(`${base}/v${v.number} notes.html`, v.note);
        }
        return {
          id: project.id,
          name: project.name,
          type: project.type,
          folder: folder || null,
          attachmentOf: project.parentProjectId,
          createdAt: project.createdAt.toISOString(),
          updatedAt: project.updatedAt.toISOString(),
          enableDownload: project.enableDownload,
          inTrash: project.flag !== 'NONE',
          note: project.note,
          versions: own.map(presentVersion),
        };
      });
      archive.json('projects.json', listing);
      await exportTransfers(userId, archive);
    },

    async blobPrefixes(userId) {
      const groupIds = await repository.ownedGroupIds(userId);
      return (await repository.ownedProjects(userId, groupIds)).map((p) => projectBlobPrefix(p.id));
    },

    async erase(userId, tx, effects) {
      const groupIds = await repository.ownedGroupIds(userId, tx);
      const owned = await repository.ownedProjects(userId, groupIds, tx);
      const projectIds = owned.map((p) => p.id);
      const names = await repository.groupNames(groupIds, tx);
      for (const p of owned) names.set(p.id, p.name);
      const members = await repository.membersOf([...groupIds, ...projectIds], tx);
      const told = groupBy(
        members.filter((m) => m.userId !== userId),
        (m) => m.userId,
      );
      await repository.erase(userId, groupIds, projectIds, tx);
      for (const [memberId, shared] of told) {
        const items = [...new Set(shared.map((s) => names.get(s.resourceId) ?? ''))].filter(Boolean);
        await effects.notify([memberId], {
          title: 'Shared items removed',
          body: `${effects.user.displayName} deleted their account: ${itemList(items)} shared with you ${items.length === 1 ? 'is' : 'are'} no longer available.`,
          url: '/groups',
        });
        // Open screens refresh at once, and sockets lose the topics of what went.
        await outbox.event(tx, {
          topic: `user:${memberId}`,
          type: 'sharing.changed',
          data: { resourceId: shared[0]!.resourceId },
        });
      }
      if (told.size > 0)
        await outbox.event(tx, { topic: 'system', type: 'access.changed', data: { userIds: [...told.keys()] } });
    },
  };
}
