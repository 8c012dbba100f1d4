import { describe, expect, it } from 'vitest';
import { judgeIntegrity, MEDIA_MESSAGES } from './version-integrity';

describe('judgeIntegrity', () => {
  it('calls a file with nothing decodable corrupt, in plain words', () => {
    expect(judgeIntegrity({ declared: null, decodedSeconds: 0, probedSeconds: 12, problems: ['x'] })).toEqual({
      kind: 'corrupt',
      error: 'This file could not be read as audio.',
    });
  });

  it('warns when the header promises more than is there, with both lengths', () => {
    const verdict = judgeIntegrity({
      declared: { declaredSeconds: 200, presentSeconds: 6.2 },
      decodedSeconds: 6.2,
      probedSeconds: 6.2,
      problems: [],
    });
    expect(verdict).toEqual({
      kind: 'ready',
      warning: 'This file is shorter than its header says (0:06 of 3:20): it may have been cut off during upload.',
      durationSeconds: 6.2,
    });
  });

  it('never rounds the length present up to the declared one', () => {
    expect(MEDIA_MESSAGES.truncated(19.6, 20)).toContain('(0:19 of 0:20)');
  });

  it('allows MP3 encoder padding counted in the header', () => {
    const verdict = judgeIntegrity({
      declared: { declaredSeconds: 20.04, presentSeconds: null },
      decodedSeconds: 20,
      probedSeconds: 20.04,
      problems: [],
    });
    expect(verdict).toEqual({ kind: 'ready', warning: null, durationSeconds: 20.04 });
  });

  it('warns about decoder errors in a file of full length', () => {
    const verdict = judgeIntegrity({
      declared: { declaredSeconds: 30, presentSeconds: null },
      decodedSeconds: 30,
      probedSeconds: 30,
      problems: ['Invalid data found'],
    });
    expect(verdict).toEqual({ kind: 'ready', warning: MEDIA_MESSAGES.damaged, durationSeconds: 30 });
  });

  it('takes a decode that errs and ends early as cut off, even without a header length', () => {
    const verdict = judgeIntegrity({
      declared: null,
      decodedSeconds: 61,
      probedSeconds: 180,
      problems: ['Truncated packet'],
    });
    expect(verdict).toMatchObject({ kind: 'ready', warning: MEDIA_MESSAGES.truncated(61, 180), durationSeconds: 61 });
  });
});
