import type { Version } from '@mixroom/contracts';
import type { GroupRow, ProjectRow } from '../../db/rows';
import type { GroupsRepository } from './folders/groups.repository';
import type { ProjectsRepository } from './projects/projects.repository';
import { presentVersion, type StoragePresenter } from './storage.presenter';
import type { VersionsRepository } from './projects/versions.repository';

/**
 * Read-only views of the storage tree for other modules (public links, later transfers), so they
 * never reach into storage's repositories. Callers decide access first, through a policy.
 */
export class CatalogService {
  constructor(
    private readonly deps: {
      groups: GroupsRepository;
      projects: ProjectsRepository;
      versions: VersionsRepository;
      presenter: StoragePresenter;
    },
  ) {}

  /** A folder's live sub-folders and finished projects (nothing still uploading), by name. */
  async folderContent(folderId: string, limit = 500): Promise<{ folders: GroupRow[]; files: ProjectRow[] }> {
    const filters = { sort: 'alphabetical' as const, owner: 'all' as const, kind: 'all' as const };
    const [folders, files] = await Promise.all([
      this.deps.groups.children(folderId, 'alphabetical'),
      this.deps.projects.children(folderId, filters, '', { limit, offset: 0 }, { uploading: false }),
    ]);
    return { folders, files };
  }

  crumbs(path: string[]): Promise<{ id: string; name: string }[]> {
    return this.deps.groups.crumbs(path);
  }

  /** The latest version of each project, presented with its thumbnail. */
  async latestVersions(projectIds: string[]): Promise<Map<string, Version>> {
    const { latest } = await this.deps.versions.latestOf(projectIds);
    const thumbnails = await this.deps.presenter.thumbnails(latest.values());
    return new Map([...latest].map(([projectId, v]) => [projectId, presentVersion(v, thumbnails.get(v.id) ?? null)]));
  }
}
