/**
 * A sentence for the landing page after the account is gone. Kept in the tab's sessionStorage
 * (written after the sign-out clears it) rather than in the address, so no link can show it.
 */
const KEY = 'mixroom.farewell';

export function leaveFarewell(message: string): void {
  sessionStorage.setItem(KEY, message);
}

/** The sentence, once: reading it removes it, so a reload shows the plain landing page. */
export function takeFarewell(): string | null {
  const message = sessionStorage.getItem(KEY);
  if (message !== null) sessionStorage.removeItem(KEY);
  return message;
}
