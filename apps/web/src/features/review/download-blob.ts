/** Saves a file the app received (a PDF, exported markers) through the browser's download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later: the download reads the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
