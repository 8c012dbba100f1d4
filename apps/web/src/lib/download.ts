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
 * Why the server refused a URL. The refusal itself cannot be read inside the frame (API answers may
 * not be framed), so a same-origin URL is asked once more, outside it: a refusal is small JSON, and
 * anything that starts to succeed after all is cut off at once.
 */
async function refusalOf(url: string): Promise<string> {
  if (new URL(url, window.location.href).origin !== window.location.origin) return MESSAGES.downloadFailed;
  const controller = new AbortController();
  try {
    const response = await fetch(url, { signal: controller.signal });
    if (response.ok) return MESSAGES.downloadFailed;
    return errorMessage(await response.text()) ?? MESSAGES.downloadFailed;
  } catch {
    return MESSAGES.downloadFailed;
  } finally {
    controller.abort();
  }
}

/**
 * Hands a (signed) URL to the browser's own downloader, which streams it to disk under the server's
 * file name, without leaving the page: the URL loads in a hidden frame, so the page is never
 * unloaded (no "Leave site?" prompt, nothing running is interrupted). A frame only renders a
 * document when the server refused (a file download renders nothing), so a load means a refusal:
 * its reason goes to `onRefused`, never a raw error page in front of the user.
 */
export function startBrowserDownload(
  url: string,
  onRefused: (message: string) => void = (message) => notify('error', 'Download', message),
): void {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.setAttribute('aria-hidden', 'true');
  frame.dataset.download = 'true';
  const remove = () => frame.remove();
  frame.addEventListener('load', () => {
    let blank = false;
    try {
      // The frame's own empty document loading is no answer from the server.
      blank = frame.contentDocument?.URL === 'about:blank';
    } catch {
      blank = false;
    }
    if (blank) return;
    remove();
    void refusalOf(url).then(onRefused);
  });
  frame.src = url;
  document.body.appendChild(frame);
  setTimeout(remove, FRAME_LIFETIME_MS);
}
