/** Nothing typed: the server's default start page. */
export const DEFAULT_START_URL = '';

/**
 * The page the live browser starts on: the typed URL (https:// added when no scheme was typed), or
 * '' when nothing was typed: the server's default start page, a search engine's home page (docs/PRODUCT.md#starting-a-conversation,
 * CONVERSATION_START_URL). Null when it is no http(s) URL at all.
 */
export function normalizeStartUrl(input: string): string | null {
  const text = input.trim();
  if (!text) return DEFAULT_START_URL;
  const withScheme =
    /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^:/]+:\d+(\/|$)/.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}
