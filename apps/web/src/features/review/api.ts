import {
  attachmentEndpoints,
  commentEndpoints,
  reviewEndpoints,
  storageEndpoints,
  type CreateCommentBody,
  type MarkersQuery,
  type PeaksFile,
  type VersionApproval,
} from '@mixroom/contracts';
import { call, callFile } from '../../lib/api-client';

export type { PeaksFile };

export const reviewApi = {
  comments: (versionId: string, signal?: AbortSignal) =>
    call(commentEndpoints.list, { params: { id: versionId }, signal }).then((r) => r.comments),
  postComment: (versionId: string, body: CreateCommentBody) =>
    call(commentEndpoints.create, { params: { id: versionId }, body }),
  reply: (commentId: string, text: string) =>
    call(commentEndpoints.reply, { params: { id: commentId }, body: { text } }),
  editComment: (commentId: string, text: string) =>
    call(commentEndpoints.edit, { params: { id: commentId }, body: { text } }),
  deleteComment: (commentId: string) => call(commentEndpoints.delete, { params: { id: commentId } }),
  resolveComment: (commentId: string, resolved: boolean) =>
    call(commentEndpoints.resolve, { params: { id: commentId }, body: { resolved } }),
  markers: (versionId: string, query: MarkersQuery) =>
    callFile(commentEndpoints.markers, { params: { id: versionId }, query }),
  setApproval: (versionId: string, approval: VersionApproval) =>
    call(storageEndpoints.setApproval, { params: { id: versionId }, body: { approval } }),
  note: (versionId: string, signal?: AbortSignal) => call(reviewEndpoints.note, { params: { id: versionId }, signal }),
  saveNote: (versionId: string, html: string) =>
    call(reviewEndpoints.saveNote, { params: { id: versionId }, body: { html } }),
  notePdf: (versionId: string, html: string) =>
    callFile(reviewEndpoints.notePdf, { params: { id: versionId }, body: { html } }),
  streamUrl: (versionId: string) => call(reviewEndpoints.stream, { params: { id: versionId } }),
  difference: (versionId: string, otherVersionId: string, retry: boolean, signal?: AbortSignal) =>
    call(reviewEndpoints.difference, {
      params: { id: versionId },
      query: { with: otherVersionId, ...(retry ? { retry: 'true' as const } : {}) },
      signal,
    }),
  spectrogramUrl: (versionId: string, signal?: AbortSignal) =>
    // 202 while the render job runs: no URL yet (null), asked again by the query.
    call(reviewEndpoints.spectrogram, { params: { id: versionId }, signal }).then(
      (r: { url?: string }) => r.url ?? null,
    ),
  peaks: (versionId: string, signal?: AbortSignal) =>
    call(storageEndpoints.peaks, { params: { id: versionId }, signal }),
  attachments: (projectId: string, signal?: AbortSignal) =>
    call(attachmentEndpoints.list, { params: { id: projectId }, signal }),
  attachmentTicket: (projectId: string, fileName: string, size: number) =>
    call(attachmentEndpoints.start, { params: { id: projectId }, body: { fileName, size } }),
  deleteAttachment: (attachmentId: string) => call(attachmentEndpoints.delete, { params: { id: attachmentId } }),
};
