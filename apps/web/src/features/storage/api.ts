import type { GroupItem, Listing, ListFilters, ProjectItem, StorageItem, UploadTicket, Version } from '@mixroom/contracts';
import { api } from '../../lib/api-client';

export type ItemRef = { kind: 'group' | 'project'; id: string };

const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

export const storageApi = {
  list: (groupId: string | null, q: ListFilters, offset: number, signal?: AbortSignal) =>
    api<Listing>(
      `/api/groups/${groupId ?? 'root'}/items${query({ sort: q.sort, owner: q.owner, kind: q.kind, offset: String(offset), limit: '200' })}`,
      signal ? { signal } : {},
    ),
  createFolder: (name: string, parentId: string | null) => api<GroupItem>('/api/groups', { method: 'POST', body: { name, parentId } }),
  updateGroup: (id: string, patch: { name?: string; parentId?: string | null; color?: string | null }) =>
    api<GroupItem>(`/api/groups/${id}`, { method: 'PATCH', body: patch }),
  ensureFolders: (parentId: string | null, paths: string[]) =>
    api<{ folders: Record<string, string> }>('/api/groups/ensure', { method: 'POST', body: { parentId, paths } }),
  createProject: (name: string, groupId: string | null) => api<ProjectItem>('/api/projects', { method: 'POST', body: { name, groupId } }),
  project: (id: string, signal?: AbortSignal) =>
    api<{ project: ProjectItem; versions: Version[]; attachmentCount: number }>(`/api/projects/${id}`, signal ? { signal } : {}),
  updateProject: (id: string, patch: { name?: string; groupId?: string | null; enableDownload?: boolean; color?: string | null }) =>
    api<ProjectItem>(`/api/projects/${id}`, { method: 'PATCH', body: patch }),
  uploadTicket: (groupId: string | null, fileName: string, size: number) =>
    api<UploadTicket>('/api/projects/upload', { method: 'POST', body: { groupId, fileName, size } }),
  versionTicket: (projectId: string, name: string, fileName: string, size: number) =>
    api<UploadTicket>(`/api/projects/${projectId}/versions`, { method: 'POST', body: { name, fileName, size } }),
  renameVersion: (versionId: string, name: string) => api<Version>(`/api/versions/${versionId}`, { method: 'PATCH', body: { name } }),
  deleteVersion: (versionId: string) => api<{ projectDeleted: boolean }>(`/api/versions/${versionId}`, { method: 'DELETE' }),
  cancelUpload: (versionId: string) => api<void>(`/api/versions/${versionId}/cancel`, { method: 'POST' }),
  downloadUrl: (versionId: string) => api<{ url: string }>(`/api/versions/${versionId}/download`),
  trash: (items: ItemRef[]) => api<void>('/api/items/trash', { method: 'POST', body: { items } }),
  recover: (items: ItemRef[]) => api<void>('/api/items/recover', { method: 'POST', body: { items } }),
  deleteForever: (items: ItemRef[]) => api<void>('/api/items/delete', { method: 'POST', body: { items } }),
  listTrash: (sort: 'newest' | 'alphabetical', signal?: AbortSignal) => api<{ items: StorageItem[] }>(`/api/trash${query({ sort })}`, signal ? { signal } : {}),
  emptyTrash: () => api<{ deleted: number }>('/api/trash/empty', { method: 'POST' }),
  search: (q: string, signal?: AbortSignal) =>
    api<{ items: { kind: 'group' | 'project'; id: string; name: string; parentId: string | null; parentName: string | null }[] }>(
      `/api/search${query({ q })}`,
      signal ? { signal } : {},
    ),
  folders: (signal?: AbortSignal) => api<{ folders: { id: string; parentId: string | null; path: string }[] }>('/api/folders', signal ? { signal } : {}),
  prepareZip: (items: ItemRef[]) => api<{ url: string; downloadId: string; fileName: string }>('/api/downloads/zip', { method: 'POST', body: { items } }),
  usage: () => api<{ usedBytes: number; limitBytes: number }>('/api/storage'),
};
