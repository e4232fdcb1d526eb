import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors';
import { BrowserBudget } from '../limits/quotas';
import { type Activity, ActivityRegistry } from './activity-registry';

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;

/** Work that runs until it is stopped. */
const untilStopped = (activity: Activity) =>
  new Promise<void>((resolve) => activity.signal.addEventListener('abort', () => resolve()));

const automationOnly = (busy: Activity) =>
  busy.feature === 'automation' ? new AppError('BAD_REQUEST', `busy ${busy.kind}`) : null;

describe('ActivityRegistry', () => {
  it('keeps work under way per user, feature and session, and forgets it when it ends', async () => {
    const registry = new ActivityRegistry({ browsers: new BrowserBudget(4), log });
    let finish = () => {};
    const run = registry.begin(
      {
        userId: 'u1',
        feature: 'automation',
        kind: 'running',
        sessionId: 's1',
        browsers: 2,
        progress: { tests: 3 },
      },
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    const live = registry.begin(
      { userId: 'u1', feature: 'conversational', kind: 'live', sessionId: 's2', browsers: 1, progress: null },
      untilStopped,
    );
    expect(run.browsers).toBe(2);
    expect(registry.find<{ tests: number }>('u1', 'automation')?.progress.tests).toBe(3);
    expect(registry.list('u1').map((a) => a.sessionId)).toEqual(['s1', 's2']);
    expect(registry.list('u1', { sessionId: 's2' })).toEqual([live]);
    expect(registry.list('u2')).toEqual([]);

    finish();
    await run.done;
    expect(registry.find('u1', 'automation')).toBeUndefined();
    await registry.stop(live);
    expect(live.signal.aborted).toBe(true);
    expect(registry.list('u1')).toEqual([]);
  });

  it('refuses conflicting work and work past the browser budget, giving the browsers back', async () => {
    const budget = new BrowserBudget(2);
    const registry = new ActivityRegistry({ browsers: budget, log });
    const first = registry.begin(
      {
        userId: 'u1',
        feature: 'automation',
        kind: 'generating',
        sessionId: null,
        browsers: 1,
        progress: null,
        conflict: automationOnly,
      },
      untilStopped,
    );
    const again = () =>
      registry.begin(
        {
          userId: 'u1',
          feature: 'automation',
          kind: 'running',
          sessionId: null,
          browsers: 1,
          progress: null,
          conflict: automationOnly,
        },
        untilStopped,
      );
    expect(again).toThrow('busy generating');
    expect(budget.inUse('u1')).toBe(1);
    // Another feature may run beside it, with what is left of the budget.
    const live = registry.begin(
      { userId: 'u1', feature: 'design', kind: 'comparing', sessionId: null, browsers: 5, progress: null },
      untilStopped,
    );
    expect(live.browsers).toBe(1);
    expect(() =>
      registry.begin(
        {
          userId: 'u1',
          feature: 'conversational',
          kind: 'live',
          sessionId: null,
          browsers: 1,
          progress: null,
        },
        untilStopped,
      ),
    ).toThrow(/MAX_BROWSERS_PER_USER/);
    // Other users have budgets of their own.
    const other = registry.begin(
      { userId: 'u2', feature: 'automation', kind: 'running', sessionId: null, browsers: 2, progress: null },
      untilStopped,
    );
    expect(other.browsers).toBe(2);

    const stopped = await registry.shutdown('automation');
    expect(stopped).toEqual([first, other]);
    expect(budget.inUse('u1')).toBe(1);
    expect(registry.list('u1')).toEqual([live]);
    await registry.shutdown();
    expect(budget.inUse('u1')).toBe(0);
  });

  it('logs work that fails and still releases its browsers; done never rejects', async () => {
    const budget = new BrowserBudget(1);
    const registry = new ActivityRegistry({ browsers: budget, log });
    const failing = registry.begin(
      { userId: 'u1', feature: 'automation', kind: 'running', sessionId: null, browsers: 1, progress: null },
      async () => {
        throw new Error('database went away');
      },
    );
    await expect(failing.done).resolves.toBeUndefined();
    expect(log.error).toHaveBeenCalled();
    expect(budget.inUse('u1')).toBe(0);
  });

  it("a refusal for the user's browsers names the work holding them and where to stop it", () => {
    const registry = new ActivityRegistry({ browsers: new BrowserBudget(1), log });
    registry.begin(
      {
        userId: 'u1',
        feature: 'conversational',
        kind: 'live',
        sessionId: 's-live',
        browsers: 1,
        progress: null,
      },
      untilStopped,
    );
    const another = () =>
      registry.begin(
        {
          userId: 'u1',
          feature: 'conversational',
          kind: 'live',
          sessionId: 's2',
          browsers: 1,
          progress: null,
        },
        untilStopped,
      );
    expect(another).toThrow(
      /MAX_BROWSERS_PER_USER.*Held by a live browser on the Conversational screen \(1 browser, session s-live\): stop it there/,
    );
  });

  it("work that waited in a line holds the browsers the line granted, not the user's, and gives them back", async () => {
    const budget = new BrowserBudget(1);
    const registry = new ActivityRegistry({ browsers: budget, log });
    const released: number[] = [];
    const lease = (browsers: number) => ({ browsers, release: () => void released.push(browsers) });
    const runs = [2, 2].map((browsers) =>
      registry.begin(
        {
          userId: 'u1',
          feature: 'automation',
          kind: 'running',
          sessionId: null,
          browsers,
          progress: null,
          lease: lease(browsers),
        },
        untilStopped,
      ),
    );
    expect(runs.map((run) => run.browsers)).toEqual([2, 2]);
    expect(budget.inUse('u1')).toBe(0);
    await registry.shutdown('automation');
    expect(released).toEqual([2, 2]);
  });
});
