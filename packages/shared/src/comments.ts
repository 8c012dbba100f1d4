/** Comment rules of spec 2 §5 and §9. */
export const COMMENT_LIMITS = { textMax: 2000, defaultRangeSeconds: 10 } as const;

export const COMMENT_MESSAGES = {
  textRequired: 'Please add some text to your comment',
  textTooLong: `Comments are limited to ${COMMENT_LIMITS.textMax} characters.`,
  rangeOrder: 'A range must end after it starts.',
  pastEnd: 'The comment is past the end of the version.',
  onlyAuthor: 'Only the author can change this comment.',
} as const;

/** Times are kept to the hundredth of a second. */
export const roundTime = (seconds: number) => Math.round(seconds * 100) / 100;
