import { notify } from '../../../lib/notify';

/** Copies a transfer's password (to pass on to its recipients another way than the link) and says so. */
export async function copyTransferPassword(password: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(password);
    notify('success', 'Transfer', 'Password copied');
  } catch {
    notify('warning', 'Transfer', 'The password could not be copied: show it and copy it by hand.');
  }
}
