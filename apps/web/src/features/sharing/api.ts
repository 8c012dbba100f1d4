import type { JoinRequest, PublicListing, ShareInfo } from '@mixroom/contracts';
import { api } from '../../lib/api-client';

export type ResourceType = 'group' | 'project';

export const sharingApi = {
  info: (type: ResourceType, id: string, signal?: AbortSignal) => api<ShareInfo>(`/api/share/${type}/${id}`, signal ? { signal } : {}),
  setPublicLink: (type: ResourceType, id: string, isActive: boolean) =>
    api<{ url: string | null; isActive: boolean }>(`/api/share/${type}/${id}/public-link`, { method: 'PUT', body: { isActive } }),
  invite: (type: ResourceType, id: string, emails: string[]) =>
    api<{ sent: number }>(`/api/share/${type}/${id}/invitations`, { method: 'POST', body: { emails } }),
  setPermission: (type: ResourceType, id: string, userId: string, permission: 'VIEWER' | 'EDITOR') =>
    api<void>(`/api/share/${type}/${id}/users/${userId}`, { method: 'PUT', body: { permission } }),
  removeUser: (type: ResourceType, id: string, userId: string) => api<void>(`/api/share/${type}/${id}/users/${userId}`, { method: 'DELETE' }),
  joinTarget: (type: ResourceType, id: string) =>
    api<{ type: ResourceType; id: string; name: string; isMember: boolean; request: 'pending' | 'approved' | 'rejected' | null }>(`/api/join/${type}/${id}`),
  requestJoin: (type: ResourceType, id: string) => api<void>('/api/join-requests', { method: 'POST', body: { type, id } }),
  requests: (signal?: AbortSignal) => api<{ incoming: JoinRequest[]; outgoing: JoinRequest[] }>('/api/join-requests', signal ? { signal } : {}),
  decide: (resourceId: string, userId: string, decision: 'approve' | 'reject') =>
    api<void>(`/api/join-requests/${resourceId}/${userId}/${decision}`, { method: 'POST' }),
  publicListing: (token: string, folder: string | null, signal?: AbortSignal) =>
    api<PublicListing>(`/api/public/share?${new URLSearchParams({ token, ...(folder ? { folder } : {}) }).toString()}`, signal ? { signal } : {}),
  publicZip: (token: string, folder: string | null) => api<{ url: string }>('/api/public/zip', { method: 'POST', body: { token, folder } }),
  publicVersionUrl: (token: string, versionId: string, kind: 'download' | 'preview') =>
    api<{ url: string }>(`/api/public/versions/${versionId}/${kind}?${new URLSearchParams({ token }).toString()}`),
};
