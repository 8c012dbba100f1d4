import type { Comment, CreateCommentBody, PresenceEntry, ProjectItem, UploadTicket, VersionNote } from '@mixroom/contracts';
import { api, apiBlob } from '../../lib/api-client';

/** Peaks the server computed at upload: 0–255 maxima per bin at three resolutions. */
export interface PeaksFile {
  version: 1;
  sampleRate: number;
  durationSeconds: number;
  levels: { samplesPerPeak: number; data: string }[];
}

export const reviewApi = {
  comments: (versionId: string, signal?: AbortSignal) =>
    api<{ comments: Comment[] }>(`/api/versions/${versionId}/comments`, signal ? { signal } : {}).then((r) => r.comments),
  postComment: (versionId: string, body: CreateCommentBody) => api<{ id: string }>(`/api/versions/${versionId}/comments`, { method: 'POST', body }),
  reply: (commentId: string, text: string) => api<{ id: string }>(`/api/comments/${commentId}/replies`, { method: 'POST', body: { text } }),
  editComment: (commentId: string, text: string) => api<void>(`/api/comments/${commentId}`, { method: 'PATCH', body: { text } }),
  deleteComment: (commentId: string) => api<void>(`/api/comments/${commentId}`, { method: 'DELETE' }),
  note: (versionId: string, signal?: AbortSignal) => api<VersionNote>(`/api/versions/${versionId}/note`, signal ? { signal } : {}),
  saveNote: (versionId: string, html: string) => api<VersionNote>(`/api/versions/${versionId}/note`, { method: 'PUT', body: { html } }),
  notePdf: (versionId: string, html: string) => apiBlob(`/api/versions/${versionId}/note/pdf`, { method: 'POST', body: { html } }),
  presence: (versionId: string, signal?: AbortSignal) =>
    api<{ users: PresenceEntry[] }>(`/api/versions/${versionId}/presence`, signal ? { signal } : {}).then((r) => r.users),
  setPresence: (versionId: string, state: 'online' | 'offline') => api<void>(`/api/versions/${versionId}/presence`, { method: 'PUT', body: { state } }),
  streamUrl: (versionId: string) => api<{ url: string; expiresAt: string }>(`/api/versions/${versionId}/stream`),
  spectrogramUrl: (versionId: string, signal?: AbortSignal) =>
    api<{ url: string }>(`/api/versions/${versionId}/spectrogram`, signal ? { signal } : {}).then((r) => r.url),
  peaks: (versionId: string, signal?: AbortSignal) => api<PeaksFile>(`/api/versions/${versionId}/peaks`, signal ? { signal } : {}),
  attachments: (projectId: string, signal?: AbortSignal) =>
    api<{ items: ProjectItem[]; canEdit: boolean }>(`/api/projects/${projectId}/attachments`, signal ? { signal } : {}),
  attachmentTicket: (projectId: string, fileName: string, size: number) =>
    api<UploadTicket>(`/api/projects/${projectId}/attachments`, { method: 'POST', body: { fileName, size } }),
  deleteAttachment: (attachmentId: string) => api<void>(`/api/attachments/${attachmentId}`, { method: 'DELETE' }),
};
