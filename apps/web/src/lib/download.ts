/** Hands a (signed) URL to the browser's own downloader: it streams to disk under the server's file name. */
export function startBrowserDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
