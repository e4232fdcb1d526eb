/** Starts a browser download of a URL (a data: or blob: URL) under a file name. */
export function downloadUrl(href: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** Downloads a value as pretty-printed JSON. */
export function downloadJson(value: unknown, fileName: string): void {
  downloadText(JSON.stringify(value, null, 2), fileName);
}

/** Downloads a text as a file (a blob: URL, revoked once the browser has taken it). */
export function downloadText(text: string, fileName: string, type = 'application/json'): void {
  const href = URL.createObjectURL(new Blob([text], { type }));
  downloadUrl(href, fileName);
  // Revoked later, not at once: the browser reads the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
