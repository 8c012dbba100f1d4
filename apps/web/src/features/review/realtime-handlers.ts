import type { Comment } from '@mixroom/contracts';
import type { RealtimeHandlers } from '../../lib/realtime/realtime-handlers';
import { applyAttachmentProgress, applyDifferenceProgress, reviewKeys } from './queries';

export const reviewRealtimeHandlers: RealtimeHandlers = {
  'comment.changed': (event, { queryClient, selfId }) => {
    const key = reviewKeys.comments(event.data.versionId);
    // A collaborator's new comment arrives whole, presented for non-authors: show it at once.
    const arrived = event.data.comment;
    if (arrived && arrived.user.id !== selfId && queryClient.getQueryData(key)) {
      queryClient.setQueryData<Comment[]>(key, (list) => [arrived, ...(list ?? []).filter((c) => c.id !== arrived.id)]);
      // Shown at once; then fetched once more for what this viewer may do with it (resolve).
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    void queryClient.invalidateQueries({ queryKey: key });
  },
  // Collaborators are told of a verdict by a notice, on the channels each of them chose.
  'approval.changed': (_event, { queryClient }) => void queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  'difference.progress': (event, { queryClient }) => applyDifferenceProgress(queryClient, event.data),
  'note.changed': (event, { queryClient }) =>
    void queryClient.invalidateQueries({ queryKey: reviewKeys.note(event.data.versionId) }),
  'attachment.changed': (_event, { queryClient }) =>
    void queryClient.invalidateQueries({ queryKey: [...reviewKeys.all, 'attachments'] }),
  'version.progress': (event, { queryClient }) => applyAttachmentProgress(queryClient, event.data),
};
