import { COMMENT_LIMITS, COMMENT_MESSAGES, MARKER_FORMATS } from '@mixroom/shared';
import { z } from 'zod';
import { isoDate, safeText } from './common';

const text = safeText(
  z
    .string({ message: COMMENT_MESSAGES.textRequired })
    .trim()
    .min(1, { message: COMMENT_MESSAGES.textRequired })
    .max(COMMENT_LIMITS.textMax, { message: COMMENT_MESSAGES.textTooLong }),
);
const time = z.number().finite().min(0, { message: 'Times cannot be negative.' });

export const createCommentBody = z.discriminatedUnion('type', [
  z.object({ type: z.literal('timestamp'), startTime: time, text }),
  z.object({ type: z.literal('range'), startTime: time, endTime: time, text }),
]);
export type CreateCommentBody = z.infer<typeof createCommentBody>;
export const replyBody = z.object({ text });
export const editCommentBody = z.object({ text });

const author = z.object({ id: z.uuid(), displayName: z.string(), photoUrl: z.string().nullable() });
const mine = z.object({ canEdit: z.boolean(), canDelete: z.boolean() });

export const commentReply = z.object({
  id: z.uuid(),
  user: author,
  text: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
  capabilities: mine,
});
export const comment = z
  .object({
    id: z.uuid(),
    versionId: z.uuid(),
    type: z.enum(['timestamp', 'range']),
    startTime: z.number(),
    endTime: z.number().nullable(),
    text: z.string(),
    user: author,
    createdAt: isoDate,
    updatedAt: isoDate,
    /** Done with: marked by its author or by someone who may edit the project; reopening clears it. */
    resolved: z.boolean(),
    resolvedAt: isoDate.nullable(),
    capabilities: mine.extend({ canResolve: z.boolean() }),
    replies: z.array(commentReply),
  })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof comment>;
export const commentsResponse = z.object({ comments: z.array(comment) }).meta({ id: 'Comments' });

/**
 * Comments exported as DAW markers: which format, all comments or only open ones, and where the
 * session starts (a session at bar 1 = 00:00:02:00 takes 2000), in milliseconds.
 */
export const markersQuery = z.object({
  format: z.enum(MARKER_FORMATS),
  scope: z.enum(['all', 'open']).default('all'),
  offsetMs: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 3_600_000)
    .default(0),
});
export type MarkersQuery = z.infer<typeof markersQuery>;

export const resolveCommentBody = z.object({ resolved: z.boolean() });
