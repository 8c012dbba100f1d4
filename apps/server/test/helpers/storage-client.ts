import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { Listing, UploadTicket, Version } from '@mixroom/contracts';
import { uploadFile, type ApiCall } from '../../../web/src/features/uploads/upload-engine';
import { call } from './api';

/** The web's upload engine driven from Node with a user's token: the real client path. */
export function storageClient(baseUrl: string, token: string) {
  const api: ApiCall = async <T>(path: string, init: { method?: string; body?: unknown } = {}) => {
    const result = await call(baseUrl, path, { ...init, token });
    if (result.status >= 400)
      throw Object.assign(new Error(result.body.error?.message ?? `HTTP ${result.status}`), {
        status: result.status,
        code: result.body.error?.code,
      });
    return result.body as T;
  };
  return {
    api,
    list: (groupId: string | null, query = '') => api<Listing>(`/api/groups/${groupId ?? 'root'}/items${query}`),
    createFolder: (name: string, parentId: string | null) =>
      api<{ id: string; name: string }>('/api/groups', { method: 'POST', body: { name, parentId } }),
    /** Uploads a file from disk as a new project in `groupId` and returns the processed-or-not version. */
    async upload(
      path: string,
      groupId: string | null,
      options: { concurrency?: number; fileName?: string } = {},
    ): Promise<{ ticket: UploadTicket; version: Version }> {
      const file = await openAsBlob(path);
      const ticket = await api<UploadTicket>('/api/projects/upload', {
        method: 'POST',
        body: { groupId, fileName: options.fileName ?? basename(path), size: file.size },
      });
      const version = await uploadFile({ api, ticket, file, concurrency: options.concurrency ?? 4 });
      return { ticket, version };
    },
    async addVersion(projectId: string, path: string, name: string): Promise<Version> {
      const file = await openAsBlob(path);
      const ticket = await api<UploadTicket>(`/api/projects/${projectId}/versions`, {
        method: 'POST',
        body: { name, fileName: basename(path), size: file.size },
      });
      return uploadFile({ api, ticket, file });
    },
    /** Uploads a file from disk as an attachment of a project. */
    async attach(projectId: string, path: string): Promise<{ ticket: UploadTicket; version: Version }> {
      const file = await openAsBlob(path);
      const ticket = await api<UploadTicket>(`/api/projects/${projectId}/attachments`, {
        method: 'POST',
        body: { fileName: basename(path), size: file.size },
      });
      return { ticket, version: await uploadFile({ api, ticket, file }) };
    },
    project: (id: string) => api<{ project: { id: string; name: string }; versions: Version[] }>(`/api/projects/${id}`),
  };
}
