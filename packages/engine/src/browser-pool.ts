import { randomBytes } from 'node:crypto';
import { viewportProblem } from '@argus/protocol';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { BrowserSession, type SessionOptions, type StorageState } from './browser-session';
import {
  CHROMIUM_ARGS,
  findChromium,
  MAX_POPUPS_PER_CONTEXT,
  PAGE_GUARD_SCRIPT,
  RUNNING_AS_ROOT,
  refuseLocalSchemes,
} from './chromium';
import { AbortedError } from './errors';
import { type PolicyProxy, startPolicyProxy } from './policy-proxy';
import type { QueueOptions } from './queue';
import type { TargetPolicy } from './target-policy';

export interface BrowserPoolOptions {
  policy: TargetPolicy;
  /** Path of a local Chromium; auto-detected when unset. */
  chromiumPath?: string;
  /** A remote browser (`chromium.launchServer()` / browserless) instead of a local one. */
  wsEndpoint?: string;
  /** Contexts open at once; more wait in line. @default 4 */
  maxContexts?: number;
  /**
   * Where the policy proxy listens with a remote browser (POLICY_PROXY_HOST): an address that browser
   * can reach. A local browser's proxy always listens on 127.0.0.1. @default '127.0.0.1'
   */
  proxyHost?: string;
  /** The proxy's host as the remote browser dials it (POLICY_PROXY_PUBLIC_HOST). @default proxyHost */
  proxyPublicHost?: string;
}

export interface ContextOptions extends QueueOptions {
  viewport?: { width: number; height: number };
  /** Aborting while waiting for a free slot rejects at once. */
  signal?: AbortSignal;
}

/**
 * What opens browser sessions for exploring and running: the pool itself, or a view of it whose
 * sessions all start the same way (signed in: see `signedIn`).
 */
export type SessionOpener = Pick<BrowserPool, 'openSession'>;

/** Sessions of `pool` that all start from `storageState` (a project's signed-in browser). */
export function withStorageState(pool: SessionOpener, storageState: () => StorageState): SessionOpener {
  return { openSession: (options = {}) => pool.openSession({ ...options, storageState: storageState() }) };
}

export { type QueueOptions, QueuePositions, type QueueRequest, queuedMessage } from './queue';
export { AbortedError };

/**
 * One shared browser, an isolated context per test or session, at most `maxContexts` at once. A
 * crashed browser is relaunched on next use; `close()` leaves nothing running.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;
  private proxy: Promise<PolicyProxy> | null = null;
  private active = 0;
  private readonly waiting: {
    resolve: () => void;
    reject: (e: Error) => void;
    signal?: AbortSignal;
    onQueued?: (position: number) => void;
  }[] = [];
  private readonly contexts = new Set<BrowserContext>();
  private closed = false;
  readonly maxContexts: number;

  constructor(private readonly options: BrowserPoolOptions) {
    this.maxContexts = Math.max(1, options.maxContexts ?? 4);
  }

  get policy(): TargetPolicy {
    return this.options.policy;
  }

  /** How many contexts are open and how many wait. */
  stats() {
    return { active: this.active, waiting: this.waiting.length, max: this.maxContexts };
  }

  /** The PID of the browser process, if one is running (for tests and diagnostics). */
  async browserPid(): Promise<number | undefined> {
    if (!this.browser) return undefined;
    const browser = await this.browser.catch(() => null);
    if (!browser?.isConnected()) return undefined;
    const cdp = await browser.newBrowserCDPSession();
    try {
      const info = (await cdp.send('SystemInfo.getProcessInfo')) as {
        processInfo: { type: string; id: number }[];
      };
      return info.processInfo.find((p) => p.type === 'browser')?.id;
    } finally {
      await cdp.detach().catch(() => {});
    }
  }

  /** The proxy's address, unique to this pool (diagnostics; tests find its processes by it). */
  async proxyUrl(): Promise<string | undefined> {
    return this.proxy ? (await this.proxy).url : undefined;
  }

  /** Why the proxy refused a host, to explain a failed navigation. */
  async refusalFor(host: string): Promise<string | undefined> {
    return this.proxy ? (await this.proxy).refusalFor(host) : undefined;
  }

  private async slot(signal?: AbortSignal, onQueued?: (position: number) => void): Promise<void> {
    if (signal?.aborted) throw new AbortedError();
    if (this.active < this.maxContexts) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const entry = { resolve, reject, signal, onQueued };
      this.waiting.push(entry);
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) {
            this.waiting.splice(i, 1);
            this.moved(i);
          }
          reject(new AbortedError());
        },
        { once: true },
      );
      tellPosition(entry, this.waiting.length);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) {
      next.resolve();
      this.moved(0);
    } else this.active--;
  }

  /** Everyone in line from `from` on moved up one place: each is told its new place. */
  private moved(from: number): void {
    for (let i = from; i < this.waiting.length; i++) tellPosition(this.waiting[i], i + 1);
  }

  private async getProxy(): Promise<PolicyProxy> {
    // A remote browser reaches the proxy over a network: it gets credentials of its own, fresh per pool.
    // The local browser is our child and dials loopback; its proxy asks for no credentials (Playwright
    // would then pause every request and turn the cache off to answer the challenge), so it never
    // listens anywhere else, whatever POLICY_PROXY_HOST says: elsewhere it would be an open relay to
    // whatever ALLOWED_TARGETS names.
    const remote = Boolean(this.options.wsEndpoint);
    this.proxy ??= startPolicyProxy(this.options.policy, {
      host: remote ? this.options.proxyHost : '127.0.0.1',
      publicHost: remote ? this.options.proxyPublicHost : undefined,
      credentials: remote
        ? { username: 'argus', password: randomBytes(18).toString('base64url') }
        : undefined,
    });
    return this.proxy;
  }

  private async getBrowser(): Promise<Browser> {
    if (this.browser) {
      const current = await this.browser.catch(() => null);
      if (current?.isConnected()) return current;
      this.browser = null;
    }
    this.browser = this.launch();
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    const browser = await this.launchOrConnect();
    try {
      await refuseLocalSchemes(browser);
    } catch (error) {
      await browser.close().catch(() => {});
      throw error;
    }
    return browser;
  }

  private async launchOrConnect(): Promise<Browser> {
    if (this.options.wsEndpoint) return chromium.connect(this.options.wsEndpoint, { timeout: 30_000 });
    const proxy = await this.getProxy();
    return chromium.launch({
      executablePath: findChromium(this.options.chromiumPath),
      headless: true,
      timeout: 30_000,
      // The process's own shutdown closes the browser once the work under way is done (a stopping
      // worker lets its cases finish); Playwright would close it at the signal, under them. It still
      // kills the browser when the process exits.
      handleSIGTERM: false,
      handleSIGINT: false,
      // Playwright turns the sandbox off unless asked; keep it wherever Chromium can run it.
      chromiumSandbox: !RUNNING_AS_ROOT,
      // Playwright turns Chromium's popup blocker off; with it on, a page's script opens no window
      // without a click or key press (popups past the allowance are closed in newContext anyway).
      ignoreDefaultArgs: ['--disable-popup-blocking'],
      args: [
        ...CHROMIUM_ARGS,
        `--proxy-server=${proxy.url}`,
        // Chromium never proxies loopback by default; the policy must see those requests too.
        '--proxy-bypass-list=<-loopback>',
      ],
    });
  }

  /** Runs `fn` with a fresh isolated context, closed afterwards whatever happens. */
  async withContext<T>(
    fn: (context: BrowserContext) => Promise<T>,
    options: ContextOptions = {},
  ): Promise<T> {
    if (this.closed) throw new Error('The browser pool is closed');
    await this.slot(options.signal, options.onQueued);
    let context: BrowserContext | undefined;
    try {
      context = await this.newContext(options.viewport);
      return await fn(context);
    } finally {
      if (context) {
        this.contexts.delete(context);
        await context.close().catch(() => {});
      }
      this.release();
    }
  }

  /**
   * Opens a {@link BrowserSession}: a fresh isolated context and page that the caller holds across
   * calls, counted against `maxContexts` (waiting in line like `withContext`) until it closes, by
   * `close()`, its idle timeout, its signal, or the browser going away.
   */
  async openSession(options: SessionOptions & QueueOptions = {}): Promise<BrowserSession> {
    if (this.closed) throw new Error('The browser pool is closed');
    await this.slot(options.signal, options.onQueued);
    let context: BrowserContext | undefined;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (context) this.contexts.delete(context);
      this.release();
    };
    try {
      context = await this.newContext(options.viewport, options.storageState, options.recordVideo);
      // A case's trace starts before its page exists: cheaper than installing it into an open page.
      await options.onContextCreated?.(context);
      const page = await context.newPage();
      if (options.signal?.aborted) throw new AbortedError();
      // A case's trace and diagnostics start before the page opens anything.
      await options.onContextOpen?.({ context, page });
      return new BrowserSession(
        {
          context,
          page,
          refusalFor: (host) => this.refusalFor(host),
          release,
          poolClosed: () => this.closed,
        },
        options,
      );
    } catch (error) {
      await context?.close().catch(() => {});
      release();
      throw error;
    }
  }

  /** A fresh context behind the target policy, tracked until closed. */
  private async newContext(
    viewport?: { width: number; height: number },
    storageState?: StorageState,
    recordVideo?: SessionOptions['recordVideo'],
  ): Promise<BrowserContext> {
    const problem = viewport ? viewportProblem(viewport.width, viewport.height) : null;
    if (problem) throw new RangeError(problem);
    const browser = await this.getBrowser();
    // A remote browser cannot be launched with our --proxy-server, so each of its contexts is sent
    // through the proxy instead: redirects, subresources and WebSockets are then checked there, after
    // our own DNS resolution, exactly as with the local browser.
    const proxy = this.options.wsEndpoint ? await this.getProxy() : undefined;
    const context = await browser.newContext({
      viewport: viewport ?? { width: 1280, height: 800 },
      serviceWorkers: 'block',
      acceptDownloads: false,
      ...(storageState ? { storageState } : {}),
      ...(recordVideo ? { recordVideo } : {}),
      ...(proxy
        ? {
            proxy: {
              server: proxy.url,
              username: proxy.credentials?.username,
              password: proxy.credentials?.password,
              // Nothing bypasses the proxy, loopback included. Named here rather than left to Playwright,
              // which adds `<-loopback>` to an empty list only when the remote side's environment has
              // no PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK (there loopback would go around).
              bypass: '<-loopback>',
            },
          }
        : {}),
    });
    this.contexts.add(context);
    // One browser serves every user: a page opening windows by the hundred would take its memory
    // from all of them. Past the session's own page and a few popups (a link that opens a new tab
    // keeps working), every new page of this context is closed as it appears; pages, not renderer
    // processes, are counted, since same-origin popups share their opener's renderer.
    // Each new page closes every page past the allowance, oldest kept (the list is in creation order),
    // so a page whose close failed while it was still being set up is closed on the next one.
    const closing = new WeakSet<Page>();
    context.on('page', () => {
      for (const extra of context.pages().slice(1 + MAX_POPUPS_PER_CONTEXT)) {
        if (closing.has(extra)) continue;
        closing.add(extra);
        extra.close().catch(() => closing.delete(extra));
      }
    });
    try {
      // Functions passed to page.evaluate are serialised from our compiled code; when it was compiled
      // with esbuild's keepNames (tsx does), they call a `__name` helper the page does not have.
      await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
      await context.addInitScript({ content: PAGE_GUARD_SCRIPT });
      if (this.options.wsEndpoint) await this.guardRemote(context);
    } catch (error) {
      this.contexts.delete(context);
      await context.close().catch(() => {});
      throw error;
    }
    return context;
  }

  /**
   * A second layer for a remote browser, whose proxy settings a misconfigured service could ignore:
   * every request Playwright sees is judged before it leaves. (It cannot see redirect hops or
   * WebSockets, and the browser resolves DNS for it, which is why the proxy is the real guard.)
   */
  private async guardRemote(context: BrowserContext): Promise<void> {
    await context.route('**/*', async (route) => {
      const decision = await this.options.policy.check(route.request().url());
      if (decision.allowed) await route.fallback();
      else await route.abort('blockedbyclient');
    });
  }

  /** Closes every context, the browser and the proxy; waiting callers are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new AbortedError('The browser pool closed'));
    await Promise.all([...this.contexts].map((c) => c.close().catch(() => {})));
    const browser = this.browser ? await this.browser.catch(() => null) : null;
    this.browser = null;
    await browser?.close().catch(() => {});
    const proxy = this.proxy ? await this.proxy.catch(() => null) : null;
    this.proxy = null;
    await proxy?.close();
  }
}

/** A caller's queue callback must not break the line for everyone else. */
function tellPosition(entry: { onQueued?: (position: number) => void }, position: number): void {
  try {
    entry.onQueued?.(position);
  } catch {
    // ignored: it is only a report
  }
}
