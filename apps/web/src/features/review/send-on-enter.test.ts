import { describe, expect, it } from 'vitest';
import { sendsOnEnter } from './send-on-enter';

const press = (key: string, extra: Partial<{ shiftKey: boolean; altKey: boolean; isComposing: boolean }> = {}) => ({
  key,
  shiftKey: false,
  altKey: false,
  ...extra,
});

describe('Enter in a comment or reply box', () => {
  it('sends on Enter, adds a line on Shift+Enter or Alt+Enter', () => {
    expect(sendsOnEnter(press('Enter'))).toBe(true);
    expect(sendsOnEnter(press('Enter', { shiftKey: true }))).toBe(false);
    expect(sendsOnEnter(press('Enter', { altKey: true }))).toBe(false);
    expect(sendsOnEnter(press('a'))).toBe(false);
  });

  it('never sends while an input method is composing', () => {
    expect(sendsOnEnter(press('Enter', { isComposing: true }))).toBe(false);
    expect(sendsOnEnter({ ...press('Enter'), nativeEvent: { isComposing: true } })).toBe(false);
  });
});
