/** Player and review constants. */
export const PLAYER = {
  skipSeconds: 15,
  rateMin: 0.1,
  rateMax: 2,
  rateStep: 0.1,
  zoomMax: 100,
  /** Zoom slider steps become pixels per second of audio (spec: "step scaled by 5"). */
  zoomPxPerStep: 5,
  spectrogramHeight: 128,
  spectrogramFft: 256,
  minimapHeight: 28,
  highlightFadeMs: 2000,
  inactivityTimeoutMs: 300_000,
  markerAvatars: 3,
  repliesShown: 3,
} as const;

/**
 * The "what changed" lane between two versions: the level of their difference signal over time,
 * in dB relative to A's level, after aligning their starts. Changed regions are windows above the
 * threshold, joined across short gaps, and kept when they last long enough.
 */
export const DIFFERENCE_LANE = {
  /** Below this the difference is inaudible next to the music (a few tenths of a dB of gain, dither). */
  thresholdDb: -24,
  minSeconds: 0.3,
  /** Gaps shorter than this inside one change (a beat's transient) do not split it. */
  joinGapSeconds: 0.25,
  /** Lowest and highest level the lane reports: −60 reads "identical", +12 "B has what A lacks". */
  floorDb: -60,
  ceilingDb: 12,
  /** The lane as sent to browsers: at most this many points (regions use the full resolution). */
  maxPoints: 4000,
} as const;

/** Streaming platforms' loudness targets, integrated LUFS. */
export const LOUDNESS_TARGETS = [
  { platform: 'Spotify', lufs: -14 },
  { platform: 'Apple Music', lufs: -16 },
  { platform: 'YouTube', lufs: -14 },
  { platform: 'Tidal', lufs: -14 },
  { platform: 'Amazon Music', lufs: -14 },
  { platform: 'Deezer', lufs: -15 },
] as const;

/**
 * What a platform's normalisation does to a track: the gain it applies (negative turns it down).
 * Platforms that only turn down (Spotify without limiter, YouTube, Tidal, Amazon, Deezer) still
 * report how far below target the track is; the UI says "would play quieter" instead of boosting.
 */
export function normalisationGain(integratedLufs: number, targetLufs: number): number {
  return Math.round((targetLufs - integratedLufs) * 100) / 100;
}

/** Platforms that raise quiet tracks as far as the true-peak headroom allows. */
export const BOOSTING_PLATFORMS: ReadonlySet<string> = new Set(['Spotify', 'Apple Music']);

/** The gain a platform really applies: boosts are limited by the headroom to −1 dBTP. */
export function appliedGain(platform: string, integratedLufs: number, truePeakDb: number, targetLufs: number): number {
  const gain = normalisationGain(integratedLufs, targetLufs);
  if (gain <= 0) return gain;
  if (!BOOSTING_PLATFORMS.has(platform)) return 0;
  return Math.round(Math.max(0, Math.min(gain, -1 - truePeakDb)) * 100) / 100;
}

export const NOTE_LIMITS = {
  /** Serialized HTML of one version's notes. */
  htmlMax: 200_000,
  fontSizesPt: [8, 10, 12, 14, 18, 24, 36],
  headingLevels: [1, 2, 3, 4, 5],
} as const;

export const REVIEW_MESSAGES = {
  notesSaved: 'Notes Saved',
  notesSaveError: 'Save Error',
  unsavedNotes: 'You have some unsaved changes, do you wish to exit anyway?',
  notesTooLong: 'These notes are too long to save (200,000 characters of formatted text at most).',
  corruptCanDelete:
    'This version appears to be corrupt due to data missing on your cloud storage provider. Do you wish to delete this version?',
  corruptContactOwner:
    'This version appears to be corrupt due to data missing on the storage provider. Please contact the owner of this project.',
  noAttachments: 'No items here',
  commentDeleteConfirm: 'Are you sure you want to delete this comment?',
  commentDeleted: 'Comment deleted!',
  commentDeleteError: 'There was an error deleting your comment',
  replyDeleteConfirm: 'Are you sure you want to delete this reply?',
  replyDeleted: 'Reply deleted!',
  replyDeleteError: 'There was an error deleting your reply',
  replySaveError: 'There was an error inserting your comment.',
  showAllReplies: 'Show all comments...',
} as const;
