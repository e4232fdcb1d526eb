import {
  AbortedError,
  type Behaviour,
  type BehaviourExploreOptions,
  BrowserPool,
  type ExploreOptions,
  explore,
  exploreBehaviours,
  type PageObservation,
  runTestCase,
  type SessionOpener,
  SignInLanes,
} from '@argus/engine';
import type { ClauseCoverage, ExplorationSummary, TestCase } from '@argus/protocol';
import { describeBehaviours, matchCommand, words } from './behaviour-cases';
import { type CaseCheckOptions, type CaseRunner, checkCases } from './case-check';
import { commandCoverage } from './command-coverage';
import type { Planner } from './planner';

export interface GenerateSuiteOptions {
  planner: Planner;
  /** Command mode: what the user asked to test. */
  command?: string;
  /** Stop: ends exploring at once and rejects with AbortedError. */
  signal?: AbortSignal;
  /** What it is doing, in words a user reads (while it waits for a browser: its place in line). */
  onProgress?: (message: string) => void;
  /** Pages the crawl visits. @default 10 */
  maxPages?: number;
  /** Time the crawl may take, in ms. @default 20000 */
  timeBudgetMs?: number;
  /** How behaviours are explored (actions, depth, time, replays, browsers at once). */
  behaviour?: BehaviourExploreOptions;
  /**
   * Check the written cases as runs run them before handing them out (`checkCases`: the suite run
   * twice at parallelism 2 unless told otherwise), dropping the ones that fail on the app as it is.
   * Needs `SuiteBrowsers.runCase`. Not checked when absent.
   */
  check?: Omit<CaseCheckOptions, 'signal' | 'onProgress'>;
}

export interface GeneratedSuite {
  cases: TestCase[];
  /** Which planner wrote them. */
  engine: string;
  /** Pages explored. */
  pages: number;
  /** Behaviours found by acting on the app (each checked in repeated replays). */
  behaviours: number;
  /** The pages explored, as read: why nothing was written can be told from them. */
  explored: PageObservation[];
  /** Something to tell the user with the result (a command nothing matched). */
  notice?: string;
  /** Command mode: each clause of the command with the tests that cover it, or why none does. */
  coverage?: ClauseCoverage[];
  /** What acting on the app explored and what its budget left out (absent when nothing was acted on). */
  exploration?: ExplorationSummary;
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
 * The browser work of a generation. The server hands in its own (over its pool, with its budgets);
 * `poolBrowsers` builds them over a pool for the mutation test and the bench.
 */
export interface SuiteBrowsers {
  /** Reads the site's pages, from the start page (the engine's `explore`). */
  explore: (url: string, options: ExploreOptions) => Promise<PageObservation[]>;
  /** Finds behaviours by acting on the app (the engine's `exploreBehaviours`); none are looked for without it. */
  exploreBehaviours?: (url: string, options: BehaviourExploreOptions) => Promise<Behaviour[]>;
  /** A JPEG of a page, for planners whose model reads images; none is taken without it. */
  screenshot?: (url: string, signal?: AbortSignal) => Promise<Buffer | undefined>;
  /** Runs a written case as a run would (for `GenerateSuiteOptions.check`). */
  runCase?: CaseRunner;
}

/**
 * The engine's explorers, `screenshotPage` and `runTestCase` over `pool` (signed in again mid-case,
 * as a run is, when the pool is a project's `SignInLanes`).
 */
export function poolBrowsers(pool: SessionOpener): SuiteBrowsers {
  return {
    explore: (url, options) => explore(pool, url, options),
    exploreBehaviours: (url, options) => exploreBehaviours(pool, url, options),
    screenshot: (url, signal) => screenshotPage(pool, url, signal),
    runCase: (testCase, baseUrl, signal) =>
      runTestCase(pool, testCase, {
        baseUrl,
        signal,
        screenshots: false,
        renewal: pool instanceof SignInLanes ? pool.renewal : undefined,
      }),
  };
}

/**
 * The whole generation, as the server, the mutation test and the bench run it: explore the site
 * (pages), explore behaviour by acting on it (start page first, then pages with forms or buttons),
 * and have the planner write the cases. A Stop rejects with AbortedError whenever it comes, so a
 * stopped generation hands out nothing.
 */
export async function generateSuite(
  browsers: BrowserPool | SuiteBrowsers,
  url: string,
  options: GenerateSuiteOptions,
): Promise<GeneratedSuite> {
  const { planner, command, signal, onProgress } = options;
  const using = browsers instanceof BrowserPool ? poolBrowsers(browsers) : browsers;
  const stopped = () => {
    if (signal?.aborted) throw new AbortedError('Generation stopped');
  };
  stopped();
  const pages = await using.explore(url, {
    maxPages: options.maxPages,
    timeBudgetMs: options.timeBudgetMs,
    signal,
    onProgress,
  });
  stopped();
  const start = pages[0] ? (pages[0].url ?? url) : undefined;
  // Nothing read, nothing to act on (explore returns no page only when stopped before the first).
  let exploration: ExplorationSummary | undefined;
  const exploreFrom = async (page: string, focus?: string[]) =>
    using.exploreBehaviours
      ? using.exploreBehaviours(page, {
          pages: interactivePages(pages),
          searchTerm: searchTermOf(pages),
          ...options.behaviour,
          ...(focus ? { focus } : {}),
          signal,
          onProgress,
          onSummary: (summary) => {
            exploration = exploration && focus ? merged(exploration, summary) : summary;
            options.behaviour?.onSummary?.(summary);
          },
        })
      : [];
  let behaviours = start ? await exploreFrom(start) : [];
  stopped();
  // Command mode: clauses nothing found matches, when the budget ran out before everything was
  // tried, get a second exploration that tries what their words name first.
  const unmatched =
    command?.trim() &&
    start &&
    exploration &&
    (exploration.ended === 'actions' || exploration.ended === 'time')
      ? matchCommand(command, describeBehaviours(behaviours)).clauses.filter((c) => c.matched.length === 0)
      : [];
  if (unmatched.length > 0 && start) {
    const focus = [...new Set(unmatched.flatMap((c) => plainWords(c.clause)))];
    onProgress?.(`Exploring again for ${unmatched.map((c) => `"${c.clause}"`).join(', ')}`);
    const more = await exploreFrom(start, focus);
    stopped();
    const known = new Set(behaviours.map((b) => b.signature));
    behaviours = [...behaviours, ...more.filter((b) => !known.has(b.signature))];
    if (exploration) exploration = { ...exploration, behaviours: behaviours.length };
  }
  const found = behaviours.length
    ? ` and found ${behaviours.length} behaviour${behaviours.length === 1 ? '' : 's'}`
    : '';
  onProgress?.(`Explored ${pages.length} page${pages.length === 1 ? '' : 's'}${found}; writing test cases`);
  const screenshot = planner.vision && start ? await startPageShot(using, start, signal) : undefined;
  let notice: string | undefined;
  const written = await planner.generate(
    { url, command, pages, behaviours, screenshot },
    { signal, onProgress, onNotice: (message) => (notice = message) },
  );
  stopped();
  let cases = written;
  if (options.check && using.runCase && written.length > 0) {
    const checked = await checkCases(written, url, using.runCase, { ...options.check, signal, onProgress });
    cases = checked.kept;
    if (exploration) exploration = { ...exploration, checked: checked.check };
    stopped();
  }
  return {
    cases,
    engine: planner.engine,
    pages: pages.length,
    behaviours: behaviours.length,
    explored: pages,
    notice,
    ...(exploration ? { exploration } : {}),
    ...(command?.trim()
      ? { coverage: commandCoverage(command, cases, { behaviours, engine: planner.engine }) }
      : {}),
  };
}

/** Two explorations' summaries as one: actions, states and time added up, the second's ending. */
function merged(first: ExplorationSummary, second: ExplorationSummary): ExplorationSummary {
  return {
    ...second,
    actions: first.actions + second.actions,
    maxActions: first.maxActions + second.maxActions,
    states: first.states + second.states,
    behaviours: first.behaviours + second.behaviours,
    timeLimitMs: first.timeLimitMs + second.timeLimitMs,
    elapsedMs: first.elapsedMs + second.elapsedMs,
  };
}

/** A clause's own words (no stop words), as written: what an action's description may contain. */
function plainWords(clause: string): string[] {
  return clause
    .split(/[^\p{L}\p{N}]+/u)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 2 && words(w).length > 0);
}

/** The start page's screenshot; a page that cannot be shown is planned without one, but a Stop stops. */
async function startPageShot(
  browsers: SuiteBrowsers,
  url: string,
  signal?: AbortSignal,
): Promise<Buffer | undefined> {
  if (!browsers.screenshot) return undefined;
  try {
    return await browsers.screenshot(url, signal);
  } catch (error) {
    if (error instanceof AbortedError) throw error;
    return undefined;
  }
}

/** A page as a model that reads images sees it (JPEG, 1280×800); undefined when it cannot be shown. */
export async function screenshotPage(
  pool: SessionOpener,
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
