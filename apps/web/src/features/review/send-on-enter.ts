/** What a key press in a chat-like box carries; a React or DOM keyboard event fits. */
interface KeyPress {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  nativeEvent?: { isComposing?: boolean };
  isComposing?: boolean;
}

/**
 * Enter sends, Shift+Enter (or Alt+Enter) starts a new line, as in every chat box; Enter that
 * confirms an input method's composition (Japanese, Chinese…) never sends.
 */
export function sendsOnEnter(event: KeyPress): boolean {
  if (event.key !== 'Enter' || event.shiftKey || event.altKey) return false;
  return !(event.isComposing || event.nativeEvent?.isComposing);
}
