import { URL_SCHEME_REFUSED } from '@argus/protocol';

/** A navigation the target policy refuses before the browser sees it (a scheme other than http/https). */
export class SchemeRefusedError extends Error {
  constructor(readonly url: string) {
    super(URL_SCHEME_REFUSED);
    this.name = 'SchemeRefusedError';
  }
}

/**
 * `target` resolved against `base` (relative `Navigate to /about`), only if the result is an http(s)
 * URL; anything else (`file:`, `chrome:`, `view-source:`, `javascript:`, `data:`, `blob:`…) throws
 * {@link SchemeRefusedError}. The WHATWG parser is the browser's own, so case, leading control
 * characters and backslashes are read exactly as Chromium would read them.
 */
export function resolveWebUrl(target: string, base?: string): string {
  let url: URL;
  try {
    url = base ? new URL(target, base) : new URL(target);
  } catch {
    throw new Error(`Not a valid URL: ${target}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SchemeRefusedError(url.href);
  return url.href;
}

/**
 * Whether a page showing `url` may stay on screen (and be photographed): http(s) pages, the blank
 * page a context starts on (and a refused page is sent to; with a `#fragment` or `?query` a script
 * may add, it is still blank), and Chromium's own network-error page, which shows no content but the
 * failure ("This site can't be reached", "blocked by your administrator").
 */
export function isWebPage(url: string): boolean {
  if (url === 'chrome-error://chromewebdata/') return true;
  try {
    const { protocol, pathname } = new URL(url);
    if (protocol === 'about:') return pathname === 'blank';
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
