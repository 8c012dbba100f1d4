import { Avatar, Tooltip } from '@mantine/core';
import type { CSSProperties } from 'react';
import type { Comment } from '@mixroom/contracts';
import { PLAYER } from '@mixroom/shared';
import { formatPrecise } from '../time-format';
import classes from './review.module.css';

/** Comments whose start falls in the same 0.5% of the track share one marker. */
const BUCKETS = 200;

interface Marker {
  at: number;
  comments: Comment[];
}

export function groupMarkers(comments: Comment[], duration: number): Marker[] {
  if (duration <= 0) return [];
  const buckets = new Map<number, Comment[]>();
  for (const comment of comments) {
    const bucket = Math.min(BUCKETS - 1, Math.floor((comment.startTime / duration) * BUCKETS));
    buckets.set(bucket, [...(buckets.get(bucket) ?? []), comment]);
  }
  return [...buckets.values()].map((group) => ({ at: Math.min(...group.map((c) => c.startTime)), comments: group }));
}

/**
 * A marker's avatars lean left in proportion to where it sits, so the first and the last ones stay
 * inside the waveform; its line (at --at of the avatars' width) stays on the exact time.
 */
const markerStyle = (at: number): CSSProperties & Record<'--at', string> => ({
  left: `${at * 100}%`,
  transform: `translateX(-${at * 100}%)`,
  '--at': `${at * 100}%`,
});

/**
 * Markers drawn inside the waveform's scrolling wrapper, so they follow zoom and scroll. Each
 * shows up to three avatars; the third reads '+N' when more comments share the spot.
 */
export function CommentMarkers({
  comments,
  duration,
  onOpen,
}: {
  comments: Comment[];
  duration: number;
  onOpen: (comment: Comment) => void;
}) {
  const markers = groupMarkers(comments, duration);
  return (
    <div className={classes.markerLane} data-testid="comment-markers">
      {comments
        .filter((c) => c.type === 'range' && c.endTime !== null)
        .map((c) => (
          <div
            key={`range-${c.id}`}
            className={classes.rangeBand}
            data-resolved={c.resolved}
            style={{
              left: `${(c.startTime / duration) * 100}%`,
              width: `${(((c.endTime ?? c.startTime) - c.startTime) / duration) * 100}%`,
            }}
          />
        ))}
      {markers.map((marker) => {
        const overflow = marker.comments.length > PLAYER.markerAvatars;
        const shown = overflow ? marker.comments.slice(0, PLAYER.markerAvatars - 1) : marker.comments;
        return (
          <Tooltip
            key={marker.comments[0]!.id}
            label={`${formatPrecise(marker.at)} · ${marker.comments.length} comment${marker.comments.length > 1 ? 's' : ''}`}
            withinPortal
          >
            <button
              type="button"
              className={classes.marker}
              style={markerStyle(marker.at / duration)}
              // A spot reads as done when every comment on it is resolved.
              data-resolved={marker.comments.every((c) => c.resolved)}
              data-testid="comment-marker"
              aria-label={`Comments at ${formatPrecise(marker.at)}`}
              onClick={(event) => {
                event.stopPropagation();
                onOpen(marker.comments[0]!);
              }}
            >
              <Avatar.Group spacing={6}>
                {shown.map((c) => (
                  <Avatar
                    key={c.id}
                    size={20}
                    radius="xl"
                    src={c.user.photoUrl}
                    name={c.user.displayName}
                    color="initials"
                  />
                ))}
                {overflow && (
                  <Avatar size={20} radius="xl" color="gray">
                    +{marker.comments.length - shown.length}
                  </Avatar>
                )}
              </Avatar.Group>
            </button>
          </Tooltip>
        );
      })}
    </div>
  );
}
