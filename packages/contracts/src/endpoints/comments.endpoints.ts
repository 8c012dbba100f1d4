import { z } from 'zod';
import {
  commentsResponse,
  createCommentBody,
  editCommentBody,
  markersQuery,
  replyBody,
  resolveCommentBody,
} from '../comments';
import { errorResponse, idParam } from '../common';
import { endpoint } from '../endpoint';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const created = { 201: z.object({ id: z.uuid() }), ...errors };
const base = { tags: ['comments'], auth: true, params: idParam } as const;

export const commentEndpoints = {
  list: endpoint({
    ...base,
    method: 'GET',
    path: '/api/versions/:id/comments',
    summary: 'Comments on a version, newest first, with replies',
    responses: { 200: commentsResponse, ...errors },
  }),
  create: endpoint({
    ...base,
    method: 'POST',
    path: '/api/versions/:id/comments',
    summary: 'Comment at a time or over a range',
    body: createCommentBody,
    responses: created,
  }),
  markers: endpoint({
    ...base,
    method: 'GET',
    path: '/api/versions/:id/markers',
    summary: "A version's comments as DAW markers: Standard MIDI File, Reaper CSV, Audacity labels or plain CSV",
    query: markersQuery,
    raw: 'file',
    responses: errors,
  }),
  resolve: endpoint({
    ...base,
    method: 'PUT',
    path: '/api/comments/:id/resolved',
    summary: 'Mark a comment resolved, or open it again (its author or an editor)',
    body: resolveCommentBody,
    responses: { 204: z.null(), ...errors },
  }),
  reply: endpoint({
    ...base,
    method: 'POST',
    path: '/api/comments/:id/replies',
    summary: 'Reply to a comment',
    body: replyBody,
    responses: created,
  }),
  edit: endpoint({
    ...base,
    method: 'PATCH',
    path: '/api/comments/:id',
    summary: 'Edit your comment or reply',
    body: editCommentBody,
    responses: { 204: z.null(), ...errors },
  }),
  delete: endpoint({
    ...base,
    method: 'DELETE',
    path: '/api/comments/:id',
    summary: 'Delete your comment (with its replies) or reply',
    responses: { 204: z.null(), ...errors },
  }),
};
