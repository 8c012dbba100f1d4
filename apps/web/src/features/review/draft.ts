import { COMMENT_LIMITS, roundTime } from '@mixroom/shared';

export interface Draft {
  type: 'timestamp' | 'range';
  start: number;
  end: number | null;
}

/** A new comment's place: a timestamp at the playhead, or a range from it (10 s, inside the track). */
export function newDraft(type: Draft['type'], at: number, duration: number): Draft {
  const start = roundTime(at);
  return type === 'timestamp'
    ? { type, start, end: null }
    : { type, start, end: Math.min(duration, start + COMMENT_LIMITS.defaultRangeSeconds) };
}
