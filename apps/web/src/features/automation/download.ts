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
  const blob = new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' });
  const href = URL.createObjectURL(blob);
  downloadUrl(href, fileName);
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
