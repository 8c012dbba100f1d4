import { describe, expect, it } from 'vitest';
import { isTypingTarget, shortcutFor, type KeyPress } from './shortcuts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

/** A stand-in for a DOM element: what the check reads from a key event's target. */
const element = (tagName: string, attrs: Record<string, string> = {}, isContentEditable = false) =>
  ({ tagName, isContentEditable, getAttribute: (name: string) => attrs[name] ?? null }) as unknown as EventTarget;

describe('review shortcuts', () => {
  it('maps space, J/K/L, arrows, C, R, M, O, B and ? to their actions', () => {
    expect(shortcutFor(press(' '))).toBe('play-pause');
    expect(shortcutFor(press('k'))).toBe('play-pause');
    expect(shortcutFor(press('j'))).toBe('back');
    expect(shortcutFor(press('ArrowLeft'))).toBe('back');
    expect(shortcutFor(press('L'))).toBe('forward');
    expect(shortcutFor(press('ArrowRight'))).toBe('forward');
    expect(shortcutFor(press('c'))).toBe('comment');
    expect(shortcutFor(press('m'))).toBe('markers');
    expect(shortcutFor(press('r'))).toBe('range');
    expect(shortcutFor(press('o'))).toBe('loop');
    expect(shortcutFor(press('b'))).toBe('compare');
    expect(shortcutFor(press('?', { shiftKey: true }))).toBe('help');
  });

  it('Shift seeks further and turns M into mute', () => {
    expect(shortcutFor(press('ArrowLeft', { shiftKey: true }))).toBe('back-far');
    expect(shortcutFor(press('L', { shiftKey: true }))).toBe('forward-far');
    expect(shortcutFor(press('M', { shiftKey: true }))).toBe('mute');
    expect(shortcutFor(press('R', { shiftKey: true }))).toBeNull();
  });

  it('leaves Ctrl, Cmd and Alt combinations and unknown keys to the browser', () => {
    expect(shortcutFor(press('l', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press('r', { metaKey: true }))).toBeNull();
    expect(shortcutFor(press(' ', { altKey: true }))).toBeNull();
    expect(shortcutFor(press('x'))).toBeNull();
  });

  it('never fires while typing in a field, an editor or on a slider', () => {
    expect(isTypingTarget(element('INPUT'))).toBe(true);
    expect(isTypingTarget(element('TEXTAREA'))).toBe(true);
    expect(isTypingTarget(element('DIV', {}, true))).toBe(true);
    expect(isTypingTarget(element('DIV', { role: 'slider' }))).toBe(true);
    expect(isTypingTarget(element('BUTTON'))).toBe(false);
    expect(isTypingTarget(element('DIV'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
