import { toolEndpoints as endpoints, type CreateTaskBody, type PeaksFile } from '@mixroom/contracts';
import { api, call } from '../../lib/api-client';
import { uploadFile, type UploadProgress } from '../uploads/upload-engine';

export const toolsApi = {
  overview: (signal?: AbortSignal) => call(endpoints.overview, { signal }),
  voices: (signal?: AbortSignal) => call(endpoints.voices, { signal }).then((r) => r.voices),
  list: (q: string, signal?: AbortSignal) =>
    call(endpoints.list, { query: q.trim() ? { q: q.trim() } : {}, signal }).then((r) => r.items),
  get: (id: string, signal?: AbortSignal) => call(endpoints.get, { params: { id }, signal }),
  create: (body: CreateTaskBody) => call(endpoints.create, { body }),
  remove: (id: string) => call(endpoints.remove, { params: { id } }),
  save: (id: string, as: 'attachments' | 'projects') => call(endpoints.save, { params: { id }, body: { as } }),
  downloads: (id: string) => call(endpoints.downloads, { params: { id } }).then((r) => r.files),
  previews: (id: string, signal?: AbortSignal) =>
    call(endpoints.previews, { params: { id }, signal }).then((r) => r.items),
  /** The finished start of a running separation (each stem's first seconds, lossless). */
  partialPreview: (id: string, signal?: AbortSignal) => call(endpoints.partialPreview, { params: { id }, signal }),
  /** The peaks behind a preview's signed URL (no token: the grant is in the URL). */
  peaks: async (url: string, signal?: AbortSignal): Promise<PeaksFile> => {
    const response = await fetch(url, { signal: signal ?? null });
    if (!response.ok) throw new Error(`peaks ${response.status}`);
    return (await response.json()) as PeaksFile;
  },
  /**
   * Sends a task's input file through the uploads endpoints in parallel parts and returns the
   * upload's id, which the task's `input` names (the server takes the upload over when the task starts).
   */
  uploadInput: async (file: File, onProgress: (progress: UploadProgress) => void, signal?: AbortSignal) => {
    const ticket = await call(endpoints.upload, { body: { fileName: file.name, size: file.size } });
    await uploadFile({
      api,
      // A tools upload fills no library version: the engine's completion is replaced below.
      ticket: { upload: ticket.upload, version: { id: '' } } as Parameters<typeof uploadFile>[0]['ticket'],
      file,
      ...(signal ? { signal } : {}),
      onProgress,
      complete: async () => null as never,
    });
    return ticket.upload.id;
  },
};
