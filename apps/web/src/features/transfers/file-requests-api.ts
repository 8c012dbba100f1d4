import { fileRequestEndpoints as endpoints, type TransferUploadTicket, type Version } from '@mixroom/contracts';
import { api, call } from '../../lib/api-client';
import type { ApiCall } from '../uploads/upload-engine';

export interface RequestUploadStart {
  name: string;
  email: string;
  message: string;
  files: { path: string; fileName: string; size: number }[];
}

export const fileRequestsApi = {
  list: (signal?: AbortSignal) => call(endpoints.list, { signal }).then((r) => r.items),
  create: (body: { message: string; maxBytes: number | null }) => call(endpoints.create, { body }),
  revoke: (id: string) => call(endpoints.revoke, { params: { id } }),
  /** The uploader's side, with nothing but the link's token. */
  open: (token: string, signal?: AbortSignal) => call(endpoints.open, { params: { token }, signal }),
  start: (token: string, body: RequestUploadStart) => call(endpoints.start, { params: { token }, body }),
};

/**
 * The calls an uploader without an account makes for one transfer: the upload engine's session calls
 * go to their public twins, each carrying the upload grant the start handed out.
 */
export function requestUploadCalls(token: string, transferId: string, grant: string) {
  const u = encodeURIComponent(grant);
  const file = (fileId: string) =>
    `/api/public/file-requests/${encodeURIComponent(token)}/transfers/${transferId}/files/${fileId}`;
  const session: ApiCall = (path, init) =>
    api(`${path.replace(/^\/api\/uploads\//, '/api/public/uploads/')}?u=${u}`, init ?? {});
  return {
    session,
    ticket: (fileId: string) => api<TransferUploadTicket>(`${file(fileId)}/upload?u=${u}`, { method: 'POST' }),
    complete: (fileId: string, signal: AbortSignal) =>
      api<Version>(`${file(fileId)}/complete?u=${u}`, { method: 'POST', signal }),
  };
}
