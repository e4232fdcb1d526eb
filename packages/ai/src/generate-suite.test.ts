/**
 * generateSuite over injected browser work (the server's way in): what reaches the explorers and the
 * planner, the progress it reports, the start-page screenshot for planners that read images, and that
 * a Stop at any point rejects with AbortedError before anything is handed out.
 */
import type { BehaviourExploreOptions } from '@argus/engine';
import { AbortedError, type Behaviour, type PageObservation } from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import { describe, expect, it, vi } from 'vitest';
import { generateSuite, type SuiteBrowsers } from './generate-suite';
import type { Planner, PlanRequest } from './planner';

const page = (url: string, extra: Partial<PageObservation> = {}) =>
  ({ url, links: [], forms: [], buttons: [], ...extra }) as unknown as PageObservation;
const start = page('https://shop.example/home');
const contact = page('https://shop.example/contact', {
  forms: [{ hasPassword: false }],
} as unknown as Partial<PageObservation>);
const behaviour = {
  kind: 'add',
  description: 'type into "New todo" and press Enter',
  control: { name: 'New todo' },
  setup: [],
  action: [],
  setupActions: [],
  effects: [],
  assertions: [],
  itemsBefore: [],
  signature: 'add|New todo',
} as unknown as Behaviour;
const written: TestCase = {
  test_name: 'Home loads',
  description: '',
  category: 'Functional',
  priority: 'High',
  steps: ['Navigate to "/"'],
  expected_result: '',
} as TestCase;

function planner(extra: Partial<Planner> = {}) {
  const generate = vi.fn(async (_request: PlanRequest) => [written]);
  return { engine: 'fake planner', generate, ...extra } as Planner & { generate: typeof generate };
}

function browsers(extra: Partial<SuiteBrowsers> = {}) {
  return {
    explore: vi.fn(async (_url: string, options: { onProgress?: (m: string) => void }) => {
      options.onProgress?.('Exploring https://shop.example/ (1/3)');
      return [start, contact];
    }),
    exploreBehaviours: vi.fn(async () => [behaviour]),
    ...extra,
  };
}

describe('generateSuite over injected browser work', () => {
  it('explores within the budgets, acts from the explored start page, and plans from both', async () => {
    const parts = browsers();
    const plan = planner();
    const progress: string[] = [];
    const suite = await generateSuite(parts, 'https://shop.example/', {
      planner: plan,
      command: 'add an item',
      maxPages: 3,
      timeBudgetMs: 1000,
      behaviour: { concurrency: 2 },
      onProgress: (m) => progress.push(m),
    });
    expect(parts.explore).toHaveBeenCalledWith(
      'https://shop.example/',
      expect.objectContaining({ maxPages: 3, timeBudgetMs: 1000 }),
    );
    expect(parts.exploreBehaviours).toHaveBeenCalledWith(
      'https://shop.example/home',
      expect.objectContaining({ concurrency: 2, pages: ['https://shop.example/contact'] }),
    );
    expect(plan.generate.mock.calls[0][0]).toEqual({
      url: 'https://shop.example/',
      command: 'add an item',
      pages: [start, contact],
      behaviours: [behaviour],
      screenshot: undefined,
    });
    expect(progress).toEqual([
      'Exploring https://shop.example/ (1/3)',
      'Explored 2 pages and found 1 behaviour; writing test cases',
    ]);
    expect(suite).toEqual({
      cases: [written],
      engine: 'fake planner',
      pages: 2,
      behaviours: 1,
      explored: [start, contact],
      notice: undefined,
      // The planner wrote nothing for the clause, though a behaviour matched it.
      coverage: [
        { clause: 'add an item', tests: [], reason: expect.stringMatching(/but wrote no test for it/) },
      ],
    });
  });

  it("hands on the behaviour explorer's summary of what it tried and left out", async () => {
    const summary = {
      actions: 40,
      maxActions: 40,
      states: 3,
      behaviours: 1,
      latencyMs: 120,
      timeLimitMs: 30_000,
      elapsedMs: 21_000,
      ended: 'actions' as const,
      skipped: ['click "Clear completed"'],
    };
    const seen: unknown[] = [];
    const parts = browsers({
      exploreBehaviours: vi.fn(async (_url: string, options: BehaviourExploreOptions) => {
        options.onSummary?.(summary);
        return [behaviour];
      }),
    });
    const suite = await generateSuite(parts, 'https://shop.example/', {
      planner: planner(),
      behaviour: { onSummary: (s) => seen.push(s) },
    });
    expect(suite.exploration).toEqual(summary);
    expect(seen).toEqual([summary]);
  });

  it('explores again, trying their words first, for clauses nothing matched when the budget ran out', async () => {
    const clearing = {
      ...behaviour,
      kind: 'click',
      description: 'click "Clear completed"',
      control: { role: 'button', name: 'Clear completed', item: null, type: 'button' },
      signature: 'click|button|Clear completed',
    } as unknown as Behaviour;
    const summary = (ended: 'actions' | 'complete') => ({
      actions: 4,
      maxActions: 4,
      states: 2,
      behaviours: 1,
      latencyMs: 100,
      timeLimitMs: 60_000,
      elapsedMs: 5_000,
      ended,
      skipped: ended === 'actions' ? ['click "Clear completed"'] : [],
    });
    const calls: BehaviourExploreOptions[] = [];
    const parts = browsers({
      exploreBehaviours: vi.fn(async (_url: string, options: BehaviourExploreOptions) => {
        calls.push(options);
        options.onSummary?.(summary(calls.length === 1 ? 'actions' : 'complete'));
        return calls.length === 1 ? [behaviour] : [behaviour, clearing];
      }),
    });
    const plan = planner();
    const suite = await generateSuite(parts, 'https://shop.example/', {
      planner: plan,
      command: 'add a todo and clear completed',
    });
    expect(calls).toHaveLength(2);
    expect(calls[0].focus).toBeUndefined();
    expect(calls[1].focus).toEqual(['clear', 'completed']);
    // The second pass's new behaviour joins the first's, once each.
    expect(plan.generate.mock.calls[0][0].behaviours).toEqual([behaviour, clearing]);
    expect(suite.exploration).toMatchObject({ actions: 8, maxActions: 8, behaviours: 2, ended: 'complete' });
    // A command whose every clause matched, or an exploration that tried everything, explores once.
    const once = browsers({
      exploreBehaviours: vi.fn(async (_url: string, options: BehaviourExploreOptions) => {
        options.onSummary?.(summary('actions'));
        return [behaviour];
      }),
    });
    await generateSuite(once, 'https://shop.example/', { planner: planner(), command: 'add a todo' });
    expect(once.exploreBehaviours).toHaveBeenCalledTimes(1);
  });

  it('without a behaviour explorer, or with no page read, plans from the pages alone', async () => {
    const progress: string[] = [];
    const suite = await generateSuite(browsers({ exploreBehaviours: undefined }), 'https://shop.example/', {
      planner: planner(),
      onProgress: (m) => progress.push(m),
    });
    expect(suite.behaviours).toBe(0);
    expect(progress.at(-1)).toBe('Explored 2 pages; writing test cases');

    const none = browsers({ explore: vi.fn(async () => []) });
    const empty = await generateSuite(none, 'https://shop.example/', { planner: planner() });
    expect(none.exploreBehaviours).not.toHaveBeenCalled();
    expect(empty).toMatchObject({ pages: 0, behaviours: 0, explored: [] });
  });

  it('hands a planner that reads images the start page, and one that cannot be shown as none', async () => {
    const screenshot = vi.fn(async () => Buffer.from('jpeg'));
    const sees = planner({ vision: true });
    await generateSuite(browsers({ screenshot }), 'https://shop.example/', { planner: sees });
    expect(screenshot).toHaveBeenCalledWith('https://shop.example/home', undefined);
    expect(sees.generate.mock.calls[0][0].screenshot).toEqual(Buffer.from('jpeg'));

    const blind = planner();
    await generateSuite(browsers({ screenshot }), 'https://shop.example/', { planner: blind });
    expect(screenshot).toHaveBeenCalledTimes(1);

    const broken = planner({ vision: true });
    const failing = vi.fn(async () => {
      throw new Error('page crashed');
    });
    const suite = await generateSuite(browsers({ screenshot: failing }), 'https://shop.example/', {
      planner: broken,
    });
    expect(broken.generate.mock.calls[0][0].screenshot).toBeUndefined();
    expect(suite.cases).toEqual([written]);
  });

  it('passes on what the planner said the user should read', async () => {
    const notice = 'Nothing matching "the weather".';
    const plan = planner({
      generate: vi.fn(async (_request, options) => {
        options?.onNotice?.(notice);
        return [];
      }),
    });
    const suite = await generateSuite(browsers(), 'https://shop.example/', { planner: plan });
    expect(suite).toMatchObject({ cases: [], notice });
  });

  it('a Stop during behaviour exploration rejects, and the planner never runs', async () => {
    const stop = new AbortController();
    const plan = planner();
    const parts = browsers({
      exploreBehaviours: vi.fn(async () => {
        stop.abort();
        // What was checked so far comes back; the Stop still ends the generation.
        return [behaviour];
      }),
    });
    await expect(
      generateSuite(parts, 'https://shop.example/', { planner: plan, signal: stop.signal }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(plan.generate).not.toHaveBeenCalled();
  });

  it('a Stop while the planner writes rejects, even when the planner returns cases', async () => {
    const stop = new AbortController();
    const plan = planner({
      generate: vi.fn(async () => {
        stop.abort();
        return [written];
      }),
    });
    await expect(
      generateSuite(browsers(), 'https://shop.example/', { planner: plan, signal: stop.signal }),
    ).rejects.toBeInstanceOf(AbortedError);
  });

  it('a Stop while the start page is shot rejects rather than planning without it', async () => {
    const plan = planner({ vision: true });
    const screenshot = vi.fn(async () => {
      throw new AbortedError('Stopped');
    });
    await expect(
      generateSuite(browsers({ screenshot }), 'https://shop.example/', { planner: plan }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(plan.generate).not.toHaveBeenCalled();
  });
});
