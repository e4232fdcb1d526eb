/** Downloads a text as a file (a blob: URL, revoked once the browser has taken it). */
export function downloadText(text: string, fileName: string, type = 'application/json'): void {
  const href = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later, not at once: the browser reads the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
