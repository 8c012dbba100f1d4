import {
  publicTransferEndpoints as open,
  transferEndpoints as endpoints,
  type CreateTransferBody,
  type PeaksFile,
} from '@mixroom/contracts';
import { call } from '../../lib/api-client';

export const transfersApi = {
  list: (signal?: AbortSignal) => call(endpoints.list, { query: {}, signal }).then((r) => r.items),
  get: (id: string, signal?: AbortSignal) => call(endpoints.get, { params: { id }, signal }),
  create: (body: CreateTransferBody) => call(endpoints.create, { body }).then((r) => r.transfer),
  update: (id: string, body: { expiresAt?: string; password?: string | null }) =>
    call(endpoints.update, { params: { id }, body }),
  remove: (id: string) => call(endpoints.remove, { params: { id } }),
  expire: (id: string) => call(endpoints.expire, { params: { id } }),
  reload: (id: string, durationDays: number) => call(endpoints.reload, { params: { id }, body: { durationDays } }),
  downloads: (id: string, signal?: AbortSignal) =>
    call(endpoints.downloads, { params: { id }, signal }).then((r) => r.items),
  ownerGrant: (id: string) => call(endpoints.ownerGrant, { params: { id } }),
  uploadTicket: (id: string, fileId: string) => call(endpoints.uploadFile, { params: { id, fileId } }),
  completeFile: (id: string, fileId: string, signal?: AbortSignal) =>
    call(endpoints.completeFile, { params: { id, fileId }, signal }),
  cancelFile: (id: string, fileId: string) => call(endpoints.cancelFile, { params: { id, fileId } }),
  complete: (id: string) => call(endpoints.complete, { params: { id } }),
};

export const publicTransfersApi = {
  head: (token: string, signal?: AbortSignal) => call(open.head, { params: { token }, signal }),
  access: (token: string, body: { password?: string; email?: string }) =>
    call(open.access, { params: { token }, body }),
  content: (token: string, grant: string, signal?: AbortSignal) =>
    call(open.content, { params: { token }, query: { g: grant }, signal }),
  /**
   * The peaks behind a file's peaks URL: a redirect to the stored JSON, which fetch follows. No
   * token goes with it (the grant is in the URL, and the store may be on another origin).
   */
  peaks: async (url: string, signal?: AbortSignal): Promise<PeaksFile> => {
    const response = await fetch(url, { signal: signal ?? null });
    if (!response.ok) throw new Error(`peaks ${response.status}`);
    return (await response.json()) as PeaksFile;
  },
};
