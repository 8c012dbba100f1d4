/** Everything a key can do on the review screen. */
export type ShortcutAction =
  | 'play-pause'
  | 'back'
  | 'back-far'
  | 'forward'
  | 'forward-far'
  | 'volume-up'
  | 'volume-down'
  | 'mute'
  | 'loop'
  | 'comment'
  | 'markers'
  | 'range'
  | 'compare'
  | 'help';

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** Seconds each seek moves: a short step, and a far one with Shift (the player's skip). */
export const SEEK_SECONDS = { near: 5, far: 15 } as const;

/** The list the "?" key shows, in the order people look for them. */
export const SHORTCUT_LIST: { keys: string[]; action: string }[] = [
  { keys: ['Space', 'K'], action: 'Play / pause' },
  { keys: ['J', '←'], action: `Back ${SEEK_SECONDS.near} s (with Shift ${SEEK_SECONDS.far} s)` },
  { keys: ['L', '→'], action: `Forward ${SEEK_SECONDS.near} s (with Shift ${SEEK_SECONDS.far} s)` },
  { keys: ['↑', '↓'], action: 'Volume up / down' },
  { keys: ['Shift+M'], action: 'Mute' },
  { keys: ['O'], action: 'Loop the range' },
  { keys: ['C'], action: 'Comment at the playhead' },
  { keys: ['R'], action: 'Range comment from the playhead' },
  { keys: ['M'], action: 'Go to the marker list (the comments)' },
  { keys: ['B'], action: 'Switch between A and B (compare)' },
  { keys: ['?'], action: 'Show these shortcuts' },
];

const PLAIN: Record<string, ShortcutAction> = {
  ' ': 'play-pause',
  k: 'play-pause',
  j: 'back',
  arrowleft: 'back',
  l: 'forward',
  arrowright: 'forward',
  arrowup: 'volume-up',
  arrowdown: 'volume-down',
  c: 'comment',
  m: 'markers',
  r: 'range',
  o: 'loop',
  b: 'compare',
  '?': 'help',
};

const SHIFTED: Record<string, ShortcutAction> = {
  j: 'back-far',
  arrowleft: 'back-far',
  l: 'forward-far',
  arrowright: 'forward-far',
  m: 'mute',
  '?': 'help',
};

/** What a key press does, or null: modified presses (Ctrl, Cmd, Alt) belong to the browser. */
export function shortcutFor(press: KeyPress): ShortcutAction | null {
  if (press.altKey || press.ctrlKey || press.metaKey) return null;
  const key = press.key.toLowerCase();
  return (press.shiftKey ? SHIFTED[key] : PLAIN[key]) ?? null;
}

/** Whether a key press lands where someone is typing (a field, an editor, a slider's own keys). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const element = target as HTMLElement;
  return (
    element.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) ||
    ['slider', 'textbox', 'combobox', 'radio', 'menuitem'].includes(element.getAttribute('role') ?? '')
  );
}
