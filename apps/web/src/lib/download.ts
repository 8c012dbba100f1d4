import { MESSAGES } from '@mixroom/shared';
import { notify } from './notify';

/** How long a download's frame stays: the browser hands a file to its downloader once headers arrive. */
const FRAME_LIFETIME_MS = 120_000;

/** The message of the API's JSON error shape, if the text is one. */
function errorMessage(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } } | null;
    return typeof parsed?.error?.message === 'string' ? parsed.error.message : null;
  } catch {
    return null;
  }
}

/**
 * Hands a (signed) URL to the browser's own downloader, which streams it to disk under the server's
 * file name, without leaving the page: the URL loads in a hidden frame, so the page is never
 * unloaded (no "Leave site?" prompt, nothing running is interrupted). A frame only renders a
 * document when the server refused (a file download renders nothing), so a load means a refusal:
 * its JSON error message goes to `onRefused`, never a raw error page in front of the user.
 */
export function startBrowserDownload(url: string, onRefused: (message: string) => void = (message) => notify('error', 'Download', message)): void {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.setAttribute('aria-hidden', 'true');
  frame.dataset.download = 'true';
  const remove = () => frame.remove();
  frame.addEventListener('load', () => {
    let text = '';
    try {
      // Same-origin refusals can be read; a storage provider's page on another origin cannot.
      text = frame.contentDocument?.body?.innerText ?? '';
    } catch {
      text = '';
    }
    if (frame.contentDocument?.URL === 'about:blank') return;
    onRefused(errorMessage(text) ?? MESSAGES.downloadFailed);
    remove();
  });
  frame.src = url;
  document.body.appendChild(frame);
  setTimeout(remove, FRAME_LIFETIME_MS);
}
