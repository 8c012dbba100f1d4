import { z } from 'zod';
import { errorResponse, idParam } from '../common';
import { endpoint } from '../endpoint';
import { uploadPart, uploadSession } from '../uploads';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
const part = z.object({ id: z.uuid(), partNumber: z.coerce.number().int().min(1).max(10_000) });
const base = { tags: ['uploads'], auth: true } as const;

/**
 * Resuming an upload session part by part. A session is finished by the feature that started it
 * (a version is completed with its own endpoint), never on its own.
 */
export const uploadEndpoints = {
  session: endpoint({
    ...base,
    method: 'GET',
    path: '/api/uploads/:id',
    summary: 'An upload session with its stored parts (to resume)',
    params: idParam,
    responses: { 200: uploadSession, ...errors },
  }),
  partUrl: endpoint({
    ...base,
    method: 'POST',
    path: '/api/uploads/:id/parts/:partNumber/url',
    summary: 'A signed URL to PUT one part to',
    params: part,
    responses: { 200: z.object({ url: z.string() }), ...errors },
  }),
  recordPart: endpoint({
    ...base,
    method: 'PUT',
    path: '/api/uploads/:id/parts/:partNumber',
    summary: 'Record a part the store accepted, with its ETag',
    params: part,
    body: uploadPart.omit({ partNumber: true }),
    responses: { 204: z.null(), ...errors },
  }),
  abort: endpoint({
    ...base,
    method: 'DELETE',
    path: '/api/uploads/:id',
    summary: 'Abort an upload and drop its parts',
    params: idParam,
    responses: { 204: z.null(), ...errors },
  }),
};
