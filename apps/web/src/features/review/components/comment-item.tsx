import { ActionIcon, Anchor, Avatar, Badge, Button, Group, Menu, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCircleCheck, IconCircleCheckFilled, IconDots } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import type { Comment } from '@mixroom/contracts';
import { COMMENT_MESSAGES, PLAYER, REVIEW_MESSAGES } from '@mixroom/shared';
import { formatRelative } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { reviewApi } from '../api';
import { reviewKeys } from '../queries';
import { formatPrecise } from '../time-format';
import { sendsOnEnter } from '../send-on-enter';
import classes from './review.module.css';

type Reply = Comment['replies'][number];

function confirmDelete(kind: 'comment' | 'reply', id: string, onDone: () => void) {
  const texts =
    kind === 'comment'
      ? {
          confirm: REVIEW_MESSAGES.commentDeleteConfirm,
          ok: REVIEW_MESSAGES.commentDeleted,
          fail: REVIEW_MESSAGES.commentDeleteError,
          title: 'Delete Comment',
        }
      : {
          confirm: REVIEW_MESSAGES.replyDeleteConfirm,
          ok: REVIEW_MESSAGES.replyDeleted,
          fail: REVIEW_MESSAGES.replyDeleteError,
          title: 'Delete Reply',
        };
  modals.openConfirmModal({
    title: texts.title,
    children: <Text size="sm">{texts.confirm}</Text>,
    labels: { confirm: 'Delete', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm: () =>
      void reviewApi
        .deleteComment(id)
        .then(() => notify('success', texts.title, texts.ok))
        .catch(() => notify('error', texts.title, texts.fail))
        .finally(onDone),
  });
}

function Actions({
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  label,
}: {
  canEdit: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
  label: string;
}) {
  if (!canEdit && !canDelete) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={label} onClick={(e) => e.stopPropagation()}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
        {canEdit && <Menu.Item onClick={onEdit}>Edit</Menu.Item>}
        {canDelete && (
          <Menu.Item color="red" onClick={onDelete}>
            Delete
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Marks a comment done or open again, for whoever the server lets (its author or an editor). */
function ResolveToggle({ comment, onDone }: { comment: Comment; onDone: () => void }) {
  const [saving, setSaving] = useState(false);
  if (!comment.capabilities.canResolve)
    return comment.resolved ? (
      <Tooltip label="Resolved">
        <IconCircleCheckFilled size={18} color="var(--mantine-color-teal-6)" aria-label="Resolved" />
      </Tooltip>
    ) : null;
  const label = comment.resolved ? 'Reopen comment' : 'Resolve comment';
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color={comment.resolved ? 'teal' : 'gray'}
        size="sm"
        aria-label={label}
        aria-pressed={comment.resolved}
        loading={saving}
        onClick={(event) => {
          event.stopPropagation();
          setSaving(true);
          void reviewApi
            .resolveComment(comment.id, !comment.resolved)
            .catch(() => notify('error', 'Comment Error', 'The comment could not be updated. Please try again.'))
            .finally(() => {
              setSaving(false);
              onDone();
            });
        }}
      >
        {comment.resolved ? <IconCircleCheckFilled size={18} /> : <IconCircleCheck size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

function ReplyRow({ reply, versionId }: { reply: Reply; versionId: string }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: reviewKeys.comments(versionId) });
  const save = async () => {
    if (!editing?.trim()) return notify('warning', 'Comment Warning', COMMENT_MESSAGES.textRequired);
    await reviewApi
      .editComment(reply.id, editing.trim())
      .then(() => setEditing(null))
      .catch(() => notify('error', 'Comment Error', REVIEW_MESSAGES.replySaveError));
    refresh();
  };
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap" data-testid="reply">
      <Avatar size={22} radius="xl" src={reply.user.photoUrl} name={reply.user.displayName} color="initials" />
      <div style={{ flex: 1, minWidth: 0 }}>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Text size="xs" fw={600} truncate>
            {reply.user.displayName}{' '}
            <Text span size="xs" c="dimmed" fw={400}>
              {formatRelative(reply.createdAt)}
            </Text>
          </Text>
          <Actions
            label={`Actions for reply by ${reply.user.displayName}`}
            canEdit={reply.capabilities.canEdit}
            canDelete={reply.capabilities.canDelete}
            onEdit={() => setEditing(reply.text)}
            onDelete={() => confirmDelete('reply', reply.id, refresh)}
          />
        </Group>
        {editing === null ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {reply.text}
          </Text>
        ) : (
          <Stack gap={4} onClick={(e) => e.stopPropagation()}>
            <Textarea
              aria-label="Edit reply"
              autosize
              minRows={1}
              value={editing}
              onChange={(e) => setEditing(e.target.value)}
            />
            <Group gap={4} justify="flex-end">
              <Button size="compact-xs" variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button size="compact-xs" onClick={() => void save()}>
                Save
              </Button>
            </Group>
          </Stack>
        )}
      </div>
    </Group>
  );
}

/**
 * One comment: who, when in the track, the text, its replies and the author's actions. Memoized:
 * a new comment arriving renders only itself, not the whole list.
 */
export const CommentItem = memo(function CommentItem({
  comment,
  versionId,
  highlighted,
  onOpen,
  onEdit,
  register,
}: {
  comment: Comment;
  versionId: string;
  highlighted: boolean;
  onOpen: (comment: Comment) => void;
  onEdit: (comment: Comment) => void;
  register: (id: string, element: HTMLDivElement | null) => void;
}) {
  const queryClient = useQueryClient();
  const [showAll, setShowAll] = useState(false);
  const [reply, setReply] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: reviewKeys.comments(versionId) });
  const replies = showAll ? comment.replies : comment.replies.slice(0, PLAYER.repliesShown);

  const sendReply = async () => {
    if (!reply?.trim()) return notify('warning', 'Comment Warning', COMMENT_MESSAGES.textRequired);
    setSending(true);
    await reviewApi
      .reply(comment.id, reply.trim())
      .then(() => setReply(null))
      .catch(() => notify('error', 'Comment Error', REVIEW_MESSAGES.replySaveError))
      .finally(() => setSending(false));
    refresh();
  };

  return (
    <div
      ref={(element) => register(comment.id, element)}
      className={classes.comment}
      data-highlighted={highlighted}
      data-resolved={comment.resolved}
      data-testid="comment"
      data-comment-id={comment.id}
      onClick={() => onOpen(comment)}
    >
      <Stack gap={6} p="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Avatar
              size={28}
              radius="xl"
              src={comment.user.photoUrl}
              name={comment.user.displayName}
              color="initials"
            />
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate>
                {comment.user.displayName}
              </Text>
              <Text size="xs" c="dimmed">
                {formatRelative(comment.createdAt)}
              </Text>
            </div>
          </Group>
          <Group gap={4} wrap="nowrap">
            <Badge
              variant="light"
              color={comment.type === 'range' ? 'yellow' : 'violet'}
              ff="monospace"
              data-testid="comment-time"
            >
              {formatPrecise(comment.startTime)}
              {comment.endTime !== null ? ` – ${formatPrecise(comment.endTime)}` : ''}
            </Badge>
            <ResolveToggle comment={comment} onDone={refresh} />
            <Actions
              label={`Actions for comment by ${comment.user.displayName}`}
              canEdit={comment.capabilities.canEdit}
              canDelete={comment.capabilities.canDelete}
              onEdit={() => onEdit(comment)}
              onDelete={() => confirmDelete('comment', comment.id, refresh)}
            />
          </Group>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="comment-text">
          {comment.text}
        </Text>
        {replies.length > 0 && (
          <Stack gap={6} pl="md" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
            {replies.map((r) => (
              <ReplyRow key={r.id} reply={r} versionId={versionId} />
            ))}
          </Stack>
        )}
        <Group gap="sm">
          {!showAll && comment.replies.length > PLAYER.repliesShown && (
            <Anchor
              size="xs"
              component="button"
              onClick={(e) => {
                e.stopPropagation();
                setShowAll(true);
              }}
            >
              {REVIEW_MESSAGES.showAllReplies}
            </Anchor>
          )}
          {reply === null && (
            <Anchor
              size="xs"
              component="button"
              onClick={(e) => {
                e.stopPropagation();
                setReply('');
              }}
            >
              Reply
            </Anchor>
          )}
        </Group>
        {reply !== null && (
          <Stack gap={4} onClick={(e) => e.stopPropagation()}>
            <Textarea
              aria-label="Reply"
              placeholder="Write a reply…"
              autosize
              minRows={1}
              maxRows={6}
              autoFocus
              value={reply}
              onChange={(e) => setReply(e.target.value)}
              onKeyDown={(e) => {
                if (!sendsOnEnter(e)) return;
                e.preventDefault();
                if (!sending) void sendReply();
              }}
            />
            <Group gap={4} justify="flex-end">
              <Button size="compact-xs" variant="default" onClick={() => setReply(null)}>
                Cancel
              </Button>
              <Button size="compact-xs" loading={sending} onClick={() => void sendReply()}>
                Send reply
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </div>
  );
});
