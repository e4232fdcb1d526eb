/**
 * The init script that draws a field as discs the moment a secret is typed into it (a text field, as
 * a password field already is), so no screencast frame of the trace and no video frame shows it. The
 * session masks such fields after a step too (`BrowserSession.maskSecretFields`), but a frame may be
 * painted in between; this listener runs in the same task as the input, before the next paint, and the
 * DOM snapshots then carry the style as well. The values live only in this script's closure.
 */
export function maskScript(secrets: string[]): string {
  return `(() => {
  const secrets = ${JSON.stringify(secrets)};
  const mask = (field) => {
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
    if (field instanceof HTMLInputElement && field.type === 'password') return;
    const value = field.value;
    if (value && secrets.some((secret) => value.includes(secret)))
      field.style.setProperty('-webkit-text-security', 'disc', 'important');
  };
  for (const type of ['input', 'change']) addEventListener(type, (event) => mask(event.target), true);
})();`;
}
