/** Comment rules: limits and the texts users see. */
export const COMMENT_LIMITS = { textMax: 2000, defaultRangeSeconds: 10 } as const;

export const COMMENT_MESSAGES = {
  textRequired: 'Please add some text to your comment',
  textTooLong: `Comments are limited to ${COMMENT_LIMITS.textMax} characters.`,
  rangeOrder: 'A range must end after it starts.',
  pastEnd: 'The comment is past the end of the version.',
  onlyAuthor: 'Only the author can change this comment.',
} as const;

/**
 * Review times are kept and shown to the hundredth of a second, rounded half up. Server and web
 * both go through these two, so a comment posted while the player shows 0:04.98 reads 0:04.98.
 */
export const toHundredths = (seconds: number) => Math.round(seconds * 100);
export const roundTime = (seconds: number) => toHundredths(seconds) / 100;
