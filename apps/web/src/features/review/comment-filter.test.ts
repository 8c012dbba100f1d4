import { describe, expect, it } from 'vitest';
import type { Comment } from '@mixroom/contracts';
import { filterComments, filterCounts } from './comment-filter';

const comment = (id: string, resolved: boolean) => ({ id, resolved }) as Comment;
const list = [comment('a', false), comment('b', true), comment('c', false)];

describe('comment filter', () => {
  it('keeps open, resolved or all comments, in their order', () => {
    expect(filterComments(list, 'open').map((c) => c.id)).toEqual(['a', 'c']);
    expect(filterComments(list, 'resolved').map((c) => c.id)).toEqual(['b']);
    expect(filterComments(list, 'all')).toBe(list);
  });

  it('counts what each filter shows', () => {
    expect(filterCounts(list)).toEqual({ open: 2, resolved: 1, all: 3 });
    expect(filterCounts([])).toEqual({ open: 0, resolved: 0, all: 0 });
  });
});
