import {
  AbortedError,
  type BehaviourExploreOptions,
  type BrowserPool,
  explore,
  exploreBehaviours,
  type PageObservation,
} from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import type { Planner } from './planner';

export interface GenerateSuiteOptions {
  planner: Planner;
  /** Command mode: what the user asked to test. */
  command?: string;
  /** Stop: ends exploring at once and rejects with AbortedError. */
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Pages the crawl visits. @default 10 */
  maxPages?: number;
  /** Time the crawl may take, in ms. @default 20000 */
  timeBudgetMs?: number;
  /** How behaviours are explored (actions, depth, time, replays). */
  behaviour?: BehaviourExploreOptions;
}

export interface GeneratedSuite {
  cases: TestCase[];
  /** Which planner wrote them. */
  engine: string;
  /** Pages explored. */
  pages: number;
  /** Behaviours found by acting on the app (each checked in repeated replays). */
  behaviours: number;
  /** Something to tell the user with the result (a command nothing matched). */
  notice?: string;
}

/** Other pages worth acting on: the explored pages with forms or buttons, after the start page. */
export function interactivePages(pages: PageObservation[], limit = 3): string[] {
  return pages
    .slice(1)
    .filter(
      (p) =>
        (p.forms ?? []).some((f) => !f.hasPassword) ||
        (p.buttons ?? []).length > (p.forms ?? []).filter((f) => f.hasPassword && f.submit).length,
    )
    .slice(0, limit)
    .map((p) => p.url);
}

/**
 * A word worth searching for: the longest word of the first thing the site lists (a table's first
 * column, else a list item that is not a link), so a search behaviour finds something.
 */
export function searchTermOf(pages: PageObservation[]): string | undefined {
  const items: string[] = [];
  for (const p of pages)
    for (const t of p.tables ?? []) for (const row of t.rows) if (row[0]) items.push(row[0]);
  for (const p of pages) {
    const links = new Set((p.links ?? []).map((l) => l.text));
    items.push(...(p.listItems ?? []).filter((li) => !links.has(li)));
  }
  const item = items.find((t) => /^[\p{L}\p{N} '&-]{5,60}$/u.test(t) && t.split(' ').length >= 2);
  return item
    ?.split(' ')
    .sort((a, b) => b.length - a.length)[0]
    .toLowerCase();
}

/**
 * The whole generation, as the server and the mutation test run it: explore the site (pages), explore
 * behaviour by acting on it (start page first, then pages with forms or buttons), and have the planner
 * write the cases. A Stop rejects with AbortedError.
 */
export async function generateSuite(
  pool: BrowserPool,
  url: string,
  options: GenerateSuiteOptions,
): Promise<GeneratedSuite> {
  const { planner, command, signal, onProgress } = options;
  const stopped = () => {
    if (signal?.aborted) throw new AbortedError('Generation stopped');
  };
  stopped();
  const pages = await explore(pool, url, {
    maxPages: options.maxPages,
    timeBudgetMs: options.timeBudgetMs,
    signal,
    onProgress,
  });
  stopped();
  const behaviours = await exploreBehaviours(pool, pages[0]?.url ?? url, {
    pages: interactivePages(pages),
    searchTerm: searchTermOf(pages),
    ...options.behaviour,
    signal,
    onProgress,
  });
  stopped();
  onProgress?.(
    `Explored ${pages.length} page${pages.length === 1 ? '' : 's'} and found ${behaviours.length} behaviour${behaviours.length === 1 ? '' : 's'}; writing test cases`,
  );
  let notice: string | undefined;
  const screenshot = planner.vision ? await screenshotPage(pool, pages[0]?.url ?? url, signal) : undefined;
  const cases = await planner.generate(
    { url, command, pages, behaviours, screenshot },
    { signal, onProgress, onNotice: (message) => (notice = message) },
  );
  stopped();
  return { cases, engine: planner.engine, pages: pages.length, behaviours: behaviours.length, notice };
}

/** A page as a model that reads images sees it (JPEG, 1280×800); undefined when it cannot be shown. */
export async function screenshotPage(
  pool: BrowserPool,
  url: string,
  signal?: AbortSignal,
): Promise<Buffer | undefined> {
  const session = await pool.openSession({ viewport: { width: 1280, height: 800 }, signal, baseUrl: url });
  try {
    await session.navigate(url, { signal });
    return (await session.screenshot({ quality: 60, signal })).data;
  } catch (error) {
    if (error instanceof AbortedError) throw error;
    return undefined;
  } finally {
    await session.close();
  }
}
