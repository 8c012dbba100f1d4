import type { Comment } from '@mixroom/contracts';

export const COMMENT_FILTERS = ['open', 'resolved', 'all'] as const;
export type CommentFilter = (typeof COMMENT_FILTERS)[number];

/** The comments a filter keeps: open ones, resolved ones, or every one. */
export function filterComments(comments: Comment[], filter: CommentFilter): Comment[] {
  if (filter === 'all') return comments;
  const resolved = filter === 'resolved';
  return comments.filter((c) => c.resolved === resolved);
}

/** How many comments each filter would show, for the labels of the filter itself. */
export function filterCounts(comments: Comment[]): Record<CommentFilter, number> {
  const resolved = comments.filter((c) => c.resolved).length;
  return { open: comments.length - resolved, resolved, all: comments.length };
}
