import { notifications } from '@mantine/notifications';
import { LIMITS } from '@mixroom/shared';

type Kind = 'success' | 'error' | 'info' | 'warning';
const colors: Record<Kind, string> = { success: 'teal', error: 'red', info: 'violet', warning: 'yellow' };

/**
 * Toasts: bottom right, 5 s, never duplicated. The id is derived from the text, so the
 * same message shown twice replaces itself instead of stacking.
 */
export function notify(kind: Kind, title: string, message: string, options: { sticky?: boolean } = {}): void {
  const id = `${kind}:${title}:${message}`;
  notifications.hide(id);
  notifications.show({
    id,
    title,
    message,
    color: colors[kind],
    autoClose: options.sticky ? false : LIMITS.toastTimeoutMs,
    withBorder: true,
  });
}
