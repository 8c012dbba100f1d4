import { startBrowserDownload } from '../../lib/download';

/**
 * Up to this size a download is read by the page (its progress shown) and handed to the browser
 * whole; a bigger one goes straight to the browser's own downloader, which shows its progress and
 * streams it to disk without holding it in memory.
 */
export const PAGE_DOWNLOAD_MAX_BYTES = 500_000_000;
/** How often the progress bar moves. */
export const PROGRESS_INTERVAL_MS = 500;

const nameFrom = (disposition: string | null, fallback: string) => {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? fallback;
};

/** Hands bytes the page holds to the browser as a file download. */
function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  // The browser has taken the file by the next tasks; the object URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Downloads `url` (a ZIP or one file) with its progress in percent every 500 ms; -1 while the
 * progress is not known (the browser's downloader took it). Rejects when the server refused.
 */
export async function downloadWithProgress(
  url: string,
  expectedBytes: number,
  fallbackName: string,
  onProgress: (percent: number) => void,
): Promise<void> {
  if (expectedBytes > PAGE_DOWNLOAD_MAX_BYTES) {
    onProgress(-1);
    startBrowserDownload(url);
    return;
  }
  const response = await fetch(url);
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? 'The download could not start.');
  }
  const total = Number(response.headers.get('content-length')) || expectedBytes || 1;
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  let reported = 0;
  onProgress(0);
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks.push(read.value);
    received += read.value.byteLength;
    if (Date.now() - reported >= PROGRESS_INTERVAL_MS) {
      reported = Date.now();
      onProgress(Math.min(99, Math.floor((received / total) * 100)));
    }
  }
  onProgress(100);
  save(new Blob(chunks), nameFrom(response.headers.get('content-disposition'), fallbackName));
}
