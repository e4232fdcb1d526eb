import type { Page } from 'playwright-core';
import { AbortedError } from './errors';
import type { PageTracker } from './page-tracker';
import { type QueueOptions, queuedMessage } from './queue';
import { resolveWebUrl } from './web-url';

export interface FieldObservation {
  /** What a person reads next to it: label, else aria-label, else placeholder, else name. */
  label: string;
  tag: 'input' | 'textarea' | 'select';
  type: string;
  name: string;
  required: boolean;
  options: string[];
}

export interface FormObservation {
  name: string;
  submit: string | null;
  noValidate: boolean;
  isSearch: boolean;
  hasPassword: boolean;
  fields: FieldObservation[];
}

export interface LinkObservation {
  text: string;
  href: string;
  sameOrigin: boolean;
  inNav: boolean;
}

/** A compact snapshot of one page: what the generators (and later the LLM engine) read. */
export interface PageObservation {
  url: string;
  status: number;
  title: string;
  headings: { level: number; text: string }[];
  links: LinkObservation[];
  forms: FormObservation[];
  buttons: string[];
  images: { src: string; alt: string | null }[];
  tables: { caption: string; headers: string[]; rows: string[][] }[];
  listItems: string[];
  /** Playwright's ARIA snapshot (roles and names), truncated. */
  aria: string;
  consoleErrors: string[];
  failedRequests: string[];
}

type DomSnapshot = Omit<PageObservation, 'status' | 'aria' | 'consoleErrors' | 'failedRequests'>;

/** Reads the DOM in the page: everything a first-pass test suite is made from. */
async function readDom(page: Page): Promise<DomSnapshot> {
  return page.evaluate(() => {
    const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      return (
        style.display !== 'none' && style.visibility !== 'hidden' && (el as HTMLElement).offsetParent !== null
      );
    };
    const labelOf = (el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement) =>
      clean(el.labels?.[0]?.textContent) ||
      clean(el.getAttribute('aria-label')) ||
      clean(el.getAttribute('placeholder')) ||
      clean(el.name);
    const forms = Array.from(document.forms)
      .filter(visible)
      .map((form, i) => {
        const fields = Array.from(
          form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
            'input, textarea, select',
          ),
        )
          .filter(
            (el) =>
              !['hidden', 'submit', 'button', 'reset', 'image'].includes((el as HTMLInputElement).type) &&
              visible(el),
          )
          .map((el) => ({
            label: labelOf(el),
            tag: el.tagName.toLowerCase() as 'input' | 'textarea' | 'select',
            type:
              el instanceof HTMLSelectElement
                ? 'select'
                : el instanceof HTMLTextAreaElement
                  ? 'textarea'
                  : el.type,
            name: el.name,
            required: el.required,
            options:
              el instanceof HTMLSelectElement
                ? Array.from(el.options)
                    .filter((o) => o.value !== '')
                    .map((o) => clean(o.text))
                : [],
          }));
        const submitEl = form.querySelector<HTMLElement>(
          'button:not([type=button]):not([type=reset]), input[type=submit]',
        );
        const submit = submitEl
          ? clean(submitEl.textContent) || clean((submitEl as HTMLInputElement).value)
          : null;
        const heading = form.closest('section, main, article')?.querySelector('h1, h2, h3');
        const name =
          clean(form.getAttribute('aria-label')) ||
          clean(form.querySelector('legend')?.textContent) ||
          clean(heading?.textContent) ||
          clean(form.id || form.getAttribute('name')) ||
          `Form ${i + 1}`;
        const isSearch =
          form.getAttribute('role') === 'search' ||
          fields.some(
            (f) => f.type === 'search' || /search|query|^q$/i.test(f.name) || /search/i.test(f.label),
          );
        return {
          name,
          submit,
          noValidate: form.noValidate,
          isSearch,
          hasPassword: fields.some((f) => f.type === 'password'),
          fields,
        };
      });
    const links = Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href]'))
      .filter(visible)
      .map((a) => {
        const url = new URL(a.href, location.href);
        return {
          text:
            clean(a.textContent) || clean(a.getAttribute('aria-label')) || clean(a.querySelector('img')?.alt),
          href: url.href,
          sameOrigin: url.origin === location.origin,
          inNav: !!a.closest('nav, header, [role=navigation]'),
        };
      })
      .filter((l) => l.text !== '' && /^https?:/.test(l.href));
    return {
      url: location.href,
      title: document.title,
      headings: Array.from(document.querySelectorAll('h1, h2, h3'))
        .filter(visible)
        .map((h) => ({ level: Number(h.tagName[1]), text: clean(h.textContent) }))
        .filter((h) => h.text),
      links,
      forms,
      buttons: Array.from(document.querySelectorAll('button, [role=button], input[type=submit]'))
        .filter(visible)
        .map((b) => clean(b.textContent) || clean((b as HTMLInputElement).value))
        .filter(Boolean),
      images: Array.from(document.images).map((img) => ({
        src: img.getAttribute('src') ?? '',
        alt: img.getAttribute('alt'),
      })),
      tables: Array.from(document.querySelectorAll('table'))
        .filter(visible)
        .map((t) => ({
          caption: clean(t.caption?.textContent),
          headers: Array.from(t.querySelectorAll('thead th, tr:first-child th')).map((th) =>
            clean(th.textContent),
          ),
          rows: Array.from(t.querySelectorAll('tbody tr'))
            .slice(0, 20)
            .map((tr) => Array.from(tr.querySelectorAll('td, th')).map((td) => clean(td.textContent))),
        })),
      listItems: Array.from(document.querySelectorAll('main li, article li'))
        .filter(visible)
        .map((li) => clean(li.textContent))
        .filter((t) => t && t.length < 120)
        .slice(0, 30),
    };
  });
}

export async function observePage(
  page: Page,
  tracker: PageTracker,
  status: number,
): Promise<PageObservation> {
  const dom = await readDom(page);
  const aria = await page
    .locator('body')
    .ariaSnapshot({ timeout: 5_000 })
    .catch(() => '');
  return {
    ...dom,
    status,
    aria: aria.length > 4000 ? `${aria.slice(0, 4000)}\n…` : aria,
    consoleErrors: tracker.consoleErrors().map((p) => p.message),
    failedRequests: tracker.failedRequests().map((p) => p.message),
  };
}

export interface ExploreOptions {
  /** @default 10 */
  maxPages?: number;
  /** Time for visiting pages, counted from when the browser is had (not while waiting for one). @default 20000 */
  timeBudgetMs?: number;
  signal?: AbortSignal;
  /** What it is doing, in words a user reads (waiting for a browser: its place in line). */
  onProgress?: (message: string) => void;
}

/**
 * What `explore` needs to open a session: `BrowserPool` is one. A structural interface rather than the
 * pool, so this file depends on neither the pool nor the session (which reads pages through it).
 */
export interface SessionOpener {
  openSession(options: QueueOptions & { signal?: AbortSignal }): Promise<ExploringSession>;
}

/** The part of a `BrowserSession` that `explore` drives. */
export interface ExploringSession {
  navigate(url: string, options: { timeoutMs?: number }): Promise<{ status: number }>;
  observe(): Promise<PageObservation>;
  close(): Promise<void>;
}

const SKIP_EXTENSIONS = /\.(pdf|zip|gz|png|jpe?g|gif|svg|webp|mp4|mp3|docx?|xlsx?|pptx?|exe|dmg)$/i;
const SKIP_WORDS = /log ?out|sign ?out|delete|remove|unsubscribe/i;

/**
 * Visits the start page and same-origin pages it links to, breadth first, within a page count and
 * a time budget, in one browser session. The budget starts once the session is open, so a request
 * that waited in line for a browser still explores; the start page is always visited, and must load
 * (else this throws why); a later page that fails is skipped. A stop (the signal) ends the visit with
 * the pages observed so far.
 */
export async function explore(
  pool: SessionOpener,
  startUrl: string,
  options: ExploreOptions = {},
): Promise<PageObservation[]> {
  const maxPages = options.maxPages ?? 10;
  startUrl = resolveWebUrl(startUrl);
  const session = await pool.openSession({
    signal: options.signal,
    onQueued: (position) => options.onProgress?.(queuedMessage(position)),
  });
  const deadline = Date.now() + (options.timeBudgetMs ?? 20_000);
  try {
    const origin = new URL(startUrl).origin;
    const queue = [startUrl];
    const queued = new Set([normalise(startUrl)]);
    const observations: PageObservation[] = [];
    while (
      queue.length &&
      observations.length < maxPages &&
      (observations.length === 0 || Date.now() < deadline)
    ) {
      if (options.signal?.aborted) break;
      const url = queue.shift()!;
      const first = observations.length === 0;
      options.onProgress?.(`Exploring ${url} (${observations.length + 1}/${maxPages})`);
      let observation: PageObservation;
      try {
        // The start page gets its full time whatever is left of the budget: without it nothing is explored.
        const { status } = await session.navigate(url, {
          timeoutMs: first ? 15_000 : Math.max(1_000, Math.min(15_000, deadline - Date.now())),
        });
        if (status >= 400) {
          if (first) throw new Error(`Could not open ${url}: ${url} answered HTTP ${status}`);
          continue;
        }
        await new Promise((r) => setTimeout(r, 150)); // late console errors and async renders
        // A script may have sent the page somewhere that is not a web page: nothing there is read.
        observation = await session.observe();
      } catch (error) {
        if (error instanceof AbortedError) break;
        if (first) throw startPageError(url, error);
        continue;
      }
      observations.push(observation);
      for (const link of observation.links) {
        if (
          !link.sameOrigin ||
          SKIP_EXTENSIONS.test(new URL(link.href).pathname) ||
          SKIP_WORDS.test(link.text) ||
          // A signed-in exploration must not end its own session by a link's address either.
          /\/(log-?out|sign-?out|logoff)\b/i.test(new URL(link.href).pathname)
        )
          continue;
        const key = normalise(link.href);
        if (!queued.has(key) && new URL(link.href).origin === origin) {
          queued.add(key);
          queue.push(link.href.split('#')[0]);
        }
      }
    }
    return observations;
  } finally {
    await session.close();
  }
}

/**
 * Why nothing could be explored, naming the start page: a refusal by the target policy and "Could not
 * open …" already say so; a timeout or anything else is put in those words.
 */
function startPageError(url: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/^(Could not open|Blocked by the target policy)/.test(message)) return error as Error;
  return new Error(`Could not open the start page ${url}: ${message}`);
}

/** One visit per path: `search.html?q=a` and `?q=b` are the same page for a first pass. */
function normalise(url: string): string {
  const u = new URL(url);
  u.hash = '';
  u.search = '';
  return u.href.replace(/\/index\.html?$/, '/');
}
