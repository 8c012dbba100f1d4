import { storageEndpoints as endpoints, type ListFilters } from '@mixroom/contracts';
import { call } from '../../lib/api-client';

export type ItemRef = { kind: 'group' | 'project'; id: string };

export const storageApi = {
  list: (groupId: string | null, q: ListFilters, offset: number, signal?: AbortSignal) => {
    const query = { sort: q.sort, owner: q.owner, kind: q.kind, approval: q.approval, offset, limit: 200 };
    return groupId
      ? call(endpoints.listGroup, { params: { id: groupId }, query, signal })
      : call(endpoints.listRoot, { query, signal });
  },
  createFolder: (name: string, parentId: string | null) => call(endpoints.createGroup, { body: { name, parentId } }),
  updateGroup: (id: string, patch: { name?: string; parentId?: string | null; color?: string | null }) =>
    call(endpoints.updateGroup, { params: { id }, body: patch }),
  ensureFolders: (parentId: string | null, paths: string[]) =>
    call(endpoints.ensureFolders, { body: { parentId, paths } }),
  createProject: (name: string, groupId: string | null) => call(endpoints.createProject, { body: { name, groupId } }),
  project: (id: string, signal?: AbortSignal) => call(endpoints.project, { params: { id }, signal }),
  updateProject: (
    id: string,
    patch: { name?: string; groupId?: string | null; enableDownload?: boolean; color?: string | null },
  ) => call(endpoints.updateProject, { params: { id }, body: patch }),
  uploadTicket: (groupId: string | null, fileName: string, size: number) =>
    call(endpoints.uploadProject, { body: { groupId, fileName, size } }),
  versionTicket: (projectId: string, name: string, fileName: string, size: number) =>
    call(endpoints.startVersion, { params: { id: projectId }, body: { name, fileName, size } }),
  renameVersion: (versionId: string, name: string) =>
    call(endpoints.renameVersion, { params: { id: versionId }, body: { name } }),
  deleteVersion: (versionId: string) => call(endpoints.deleteVersion, { params: { id: versionId } }),
  cancelUpload: (versionId: string) => call(endpoints.cancelVersion, { params: { id: versionId } }),
  downloadUrl: (versionId: string) => call(endpoints.downloadUrl, { params: { id: versionId } }),
  trash: (items: ItemRef[]) => call(endpoints.moveToTrash, { body: { items } }),
  recover: (items: ItemRef[]) => call(endpoints.recover, { body: { items } }),
  deleteForever: (items: ItemRef[]) => call(endpoints.deleteForever, { body: { items } }),
  listTrash: (sort: 'newest' | 'alphabetical', signal?: AbortSignal) =>
    call(endpoints.trash, { query: { sort }, signal }),
  emptyTrash: () => call(endpoints.emptyTrash),
  search: (q: string, signal?: AbortSignal) => call(endpoints.search, { query: { q }, signal }),
  folders: (signal?: AbortSignal) => call(endpoints.folders, { signal }),
  prepareZip: (items: ItemRef[]) => call(endpoints.prepareZip, { body: { items } }),
  usage: () => call(endpoints.usage),
};
