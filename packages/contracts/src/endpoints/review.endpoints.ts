import { errorResponse, idParam } from '../common';
import { endpoint } from '../endpoint';
import { differenceQuery, differenceResponse, noteBody, noteResponse, spectrogramPending } from '../review';
import { signedUrl } from '../storage';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const base = { tags: ['review'], auth: true, params: idParam } as const;

export const reviewEndpoints = {
  note: endpoint({
    ...base,
    method: 'GET',
    path: '/api/versions/:id/note',
    summary: "A version's notes (HTML) and whether the actor may edit them",
    responses: { 200: noteResponse, ...errors },
  }),
  saveNote: endpoint({
    ...base,
    method: 'PUT',
    path: '/api/versions/:id/note',
    summary: "Save a version's notes (sanitized)",
    body: noteBody,
    responses: { 200: noteResponse, ...errors },
  }),
  notePdf: endpoint({
    ...base,
    method: 'POST',
    path: '/api/versions/:id/note/pdf',
    summary: 'Render notes (as shown in the editor) to a PDF',
    body: noteBody,
    raw: 'file',
    // 422: the notes reached the export's time or memory limit; 503: too many exports at once.
    responses: { ...errors, 422: errorResponse, 503: errorResponse },
  }),
  spectrogram: endpoint({
    ...base,
    method: 'GET',
    path: '/api/versions/:id/spectrogram',
    summary:
      "A signed URL to the version's spectrogram image; 202 with the render job's state while it is rendered (the first request queues it)",
    responses: { 200: signedUrl, 202: spectrogramPending, 422: errorResponse, ...errors },
  }),
  stream: endpoint({
    ...base,
    method: 'GET',
    path: '/api/versions/:id/stream',
    summary: 'A signed URL the player streams with Range requests (the preview, else the original)',
    responses: { 200: signedUrl, ...errors },
  }),
  difference: endpoint({
    ...base,
    method: 'GET',
    path: '/api/versions/:id/difference',
    summary:
      'Where another version (of this project, or any the actor can see) differs from this one: a level lane and changed regions, computed on first request',
    query: differenceQuery,
    responses: { 200: differenceResponse, ...errors },
  }),
};
