import { sharingEndpoints as endpoints } from '@mixroom/contracts';
import { call } from '../../lib/api-client';

export type ResourceType = 'group' | 'project';

export const sharingApi = {
  info: (type: ResourceType, id: string, signal?: AbortSignal) =>
    call(endpoints.info, { params: { type, id }, signal }),
  setPublicLink: (type: ResourceType, id: string, isActive: boolean) =>
    call(endpoints.setPublicLink, { params: { type, id }, body: { isActive } }),
  invite: (type: ResourceType, id: string, emails: string[]) =>
    call(endpoints.invite, { params: { type, id }, body: { emails } }),
  setPermission: (type: ResourceType, id: string, userId: string, permission: 'VIEWER' | 'EDITOR') =>
    call(endpoints.setPermission, { params: { type, id, userId }, body: { permission } }),
  removeUser: (type: ResourceType, id: string, userId: string) =>
    call(endpoints.removeUser, { params: { type, id, userId } }),
  joinTarget: (type: ResourceType, id: string, invite?: string) =>
    call(endpoints.joinTarget, { params: { type, id }, query: invite ? { invite } : {} }),
  requestJoin: (type: ResourceType, id: string, invite?: string) =>
    call(endpoints.requestJoin, { body: { type, id, ...(invite ? { invite } : {}) } }),
  requests: (signal?: AbortSignal) => call(endpoints.requests, { signal }),
  decide: (resourceId: string, userId: string, decision: 'approve' | 'reject') =>
    call(endpoints.decide, { params: { resourceId, userId, decision } }),
  publicListing: (token: string, folder: string | null, signal?: AbortSignal) =>
    call(endpoints.publicListing, { query: { token, ...(folder ? { folder } : {}) }, signal }),
  publicZip: (token: string, folder: string | null) => call(endpoints.publicZip, { body: { token, folder } }),
  publicVersionUrl: (token: string, versionId: string, kind: 'download' | 'preview') =>
    call(endpoints.publicVersionUrl, { params: { id: versionId, kind }, query: { token } }),
};
