import {
  ActionIcon,
  Badge,
  Card,
  Group,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconArrowBackUp, IconArrowsHorizontal, IconMapPin, IconSearch, IconSend } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Comment } from '@mixroom/contracts';
import { COMMENT_LIMITS, COMMENT_MESSAGES, roundTime } from '@mixroom/shared';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { reviewApi } from '../api';
import { usePlayer } from '../hooks/use-player';
import { reviewKeys } from '../queries';
import { formatPrecise } from '../time-format';
import { sendsOnEnter } from '../send-on-enter';
import { COMMENT_FILTERS, filterComments, filterCounts, type CommentFilter } from '../comment-filter';
import { newDraft } from '../draft';
import { CommentItem } from './comment-item';
import type { Draft } from './waveform-view';

/** Case-insensitive match on the text, the author, or any reply's text or author. */
export function matchesSearch(comment: Comment, q: string): boolean {
  const needle = q.trim().toLowerCase();
  if (!needle) return true;
  const hay = [comment.text, comment.user.displayName, ...comment.replies.flatMap((r) => [r.text, r.user.displayName])];
  return hay.some((v) => v.toLowerCase().includes(needle));
}

export function CommentsPanel({
  versionId,
  subtitle = null,
  comments,
  duration,
  draft,
  onDraft,
  highlightedId,
  onOpen,
  filter,
  onFilter,
  composer,
  panel,
}: {
  versionId: string;
  /** Which version's comments these are, when two are compared (they follow the one heard). */
  subtitle?: string | null;
  comments: Comment[];
  duration: number;
  draft: Draft | null;
  onDraft: (draft: Draft | null) => void;
  highlightedId: string | null;
  onOpen: (comment: Comment) => void;
  filter: CommentFilter;
  onFilter: (filter: CommentFilter) => void;
  /** The comment box, for the page's shortcut that starts a comment at the playhead. */
  composer?: RefObject<HTMLTextAreaElement | null>;
  /** The panel itself, for the page's shortcut that goes to the marker list. */
  panel?: RefObject<HTMLDivElement | null>;
}) {
  const player = usePlayer();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<Comment | null>(null);
  const [searching, setSearching] = useState(false);
  const [q, setQ] = useState('');
  const [posting, setPosting] = useState(false);
  const items = useRef(new Map<string, HTMLDivElement>());
  const register = useCallback((id: string, element: HTMLDivElement | null) => {
    if (element) items.current.set(id, element);
    else items.current.delete(id);
  }, []);
  const edit = useCallback(
    (c: Comment) => {
      setEditing(c);
      setText(c.text);
      onDraft(null);
    },
    [onDraft],
  );
  const counts = useMemo(() => filterCounts(comments), [comments]);
  const shown = useMemo(
    () => filterComments(comments, filter).filter((c) => matchesSearch(c, q)),
    [comments, filter, q],
  );

  useEffect(() => {
    if (highlightedId) items.current.get(highlightedId)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [highlightedId]);

  const now = () => player?.getState().currentTime ?? 0;
  // Pressing the active draft button again cancels the draft.
  const toggle = (type: Draft['type']) => {
    if (draft?.type === type) return onDraft(null);
    onDraft(newDraft(type, now(), duration));
  };
  const reset = () => {
    setText('');
    setEditing(null);
    onDraft(null);
  };

  const post = async () => {
    if (!text.trim()) return notify('warning', 'Comment Warning', COMMENT_MESSAGES.textRequired);
    setPosting(true);
    try {
      if (editing) await reviewApi.editComment(editing.id, text.trim());
      else {
        const at = draft ?? { type: 'timestamp' as const, start: roundTime(now()), end: null };
        await reviewApi.postComment(
          versionId,
          at.type === 'range' && at.end !== null
            ? { type: 'range', startTime: at.start, endTime: at.end, text: text.trim() }
            : { type: 'timestamp', startTime: at.start, text: text.trim() },
        );
      }
      reset();
      await queryClient.invalidateQueries({ queryKey: reviewKeys.comments(versionId) });
    } catch (error) {
      notify('error', 'Comment Error', error instanceof ApiError ? error.message : COMMENT_MESSAGES.textRequired);
    } finally {
      setPosting(false);
    }
  };

  return (
    <Card
      ref={panel}
      tabIndex={-1}
      aria-label="Comments"
      withBorder
      radius="md"
      padding={0}
      data-testid="comments-panel"
    >
      <Group justify="space-between" px="sm" py="xs">
        <Group gap={6}>
          <Text fw={700}>Comments</Text>
          <Badge variant="light" size="sm">
            {comments.length}
          </Badge>
          {subtitle && (
            <Text size="xs" c="dimmed" data-testid="comments-of">
              {subtitle}
            </Text>
          )}
        </Group>
        <Tooltip label="Search comments">
          <ActionIcon
            variant={searching ? 'light' : 'subtle'}
            aria-label="Search comments"
            onClick={() => (searching ? (setSearching(false), setQ('')) : setSearching(true))}
          >
            <IconSearch size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <SegmentedControl
        mx="sm"
        mb="xs"
        size="xs"
        fullWidth
        aria-label="Show comments"
        data-testid="comment-filter"
        value={filter}
        onChange={(value) => onFilter(value as CommentFilter)}
        data={COMMENT_FILTERS.map((f) => ({ value: f, label: `${f[0]!.toUpperCase()}${f.slice(1)} ${counts[f]}` }))}
      />
      {searching && (
        <TextInput
          px="sm"
          pb="xs"
          autoFocus
          placeholder="Search text, people and replies"
          aria-label="Search in comments"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      )}
      <ScrollArea.Autosize mah="calc(100vh - 420px)" mih={160} type="auto">
        <Stack gap={2} px={4}>
          {shown.length === 0 && (
            <Text c="dimmed" size="sm" ta="center" py="xl" px="md">
              {comments.length === 0
                ? 'No comments yet. Pick a moment or a range on the waveform and say what you hear.'
                : q.trim()
                  ? 'No comment matches your search.'
                  : filter === 'open'
                    ? 'Every comment is resolved.'
                    : 'No resolved comments yet.'}
            </Text>
          )}
          {shown.map((comment) => (
            <CommentItem
              key={comment.id}
              register={register}
              comment={comment}
              versionId={versionId}
              highlighted={highlightedId === comment.id}
              onOpen={onOpen}
              onEdit={edit}
            />
          ))}
        </Stack>
      </ScrollArea.Autosize>
      <Stack gap={6} p="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        {(draft || editing) && (
          <Text size="xs" c="dimmed" data-testid="draft-label">
            {editing
              ? 'Editing your comment'
              : draft?.type === 'range'
                ? `Range ${formatPrecise(draft.start)} – ${formatPrecise(draft.end ?? draft.start)} (drag the highlighted region to adjust)`
                : `At ${formatPrecise(draft?.start ?? 0)}`}
          </Text>
        )}
        <Textarea
          ref={composer}
          aria-label="Comment"
          placeholder="Leave a comment at the play position… (Enter to post, Shift+Enter for a new line)"
          autosize
          minRows={2}
          maxRows={8}
          maxLength={COMMENT_LIMITS.textMax}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (!sendsOnEnter(e)) return;
            e.preventDefault();
            if (!posting) void post();
          }}
        />
        <Group justify="space-between">
          <Group gap={4}>
            <Tooltip label="Comment at the play position">
              <ActionIcon
                variant={draft?.type === 'timestamp' ? 'filled' : 'light'}
                aria-label="Timestamp comment"
                aria-pressed={draft?.type === 'timestamp'}
                onClick={() => toggle('timestamp')}
                disabled={Boolean(editing)}
              >
                <IconMapPin size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Comment on a range (10 s from the play position)">
              <ActionIcon
                variant={draft?.type === 'range' ? 'filled' : 'light'}
                color="yellow"
                aria-label="Range comment"
                aria-pressed={draft?.type === 'range'}
                onClick={() => toggle('range')}
                disabled={Boolean(editing)}
              >
                <IconArrowsHorizontal size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Undo">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label="Undo current comment"
                onClick={reset}
                disabled={!draft && !editing && !text}
              >
                <IconArrowBackUp size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              {text.length}/{COMMENT_LIMITS.textMax}
            </Text>
            <ActionIcon variant="filled" aria-label="Post comment" loading={posting} onClick={() => void post()}>
              <IconSend size={16} />
            </ActionIcon>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
