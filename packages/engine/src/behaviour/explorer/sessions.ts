import type { SessionOpener } from '../../browser-pool';
import type { BrowserSession } from '../../browser-session';
import { AbortedError, abortableDelay } from '../../errors';
import { RUN_ID } from '../../variables';
import type { ProposedAssertion } from '../assertions';
import type { PageSnapshot } from '../snapshot';
import { asStep, type BehaviourStep } from '../steps';
import type { Budget } from './budget';
import { ExplorationMade } from './exploration-made';
import { key, type State } from './types';

const SETTLE_MS = 50;

/**
 * The sessions an exploration opens at the page it explores: the one held open for acting (with the
 * setup it shows, so the next action in the same state needs no fresh session) and fresh ones with a
 * state's setup replayed.
 */
export class PageSessions {
  /** The session held open for acting. */
  session: BrowserSession | null = null;
  /** The setup the open session shows, or null when it has been acted on since. */
  at: string | null = null;
  /** What the sessions made (each with an id of its own): taken out of every snapshot but the session's own. */
  readonly made = new ExplorationMade();

  constructor(
    private readonly pool: SessionOpener,
    /** The page explored: every session opens there. */
    public url: string,
    private readonly budget: Budget,
    private readonly actionTimeoutMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Closes the session held open, if any. */
  async letGo(): Promise<void> {
    await this.session?.close().catch(() => {});
    this.session = null;
    this.at = null;
  }

  /** A session showing the state: the open one if it does, else a fresh one with the setup replayed. */
  async reach(state: State): Promise<PageSnapshot | null> {
    const wanted = key(state.setup);
    const fresh = state.setup.length === 0;
    if (this.session && !this.session.closed && this.at === wanted) return this.settle(this.session, fresh);
    await this.letGo();
    const opened = await this.open(state);
    if (!opened) return null;
    this.session = opened.session;
    this.at = wanted;
    return this.settle(opened.session, fresh);
  }

  /** A fresh session at the start page with the state's setup performed (closed again if that fails). */
  async open(state: State): Promise<{ session: BrowserSession } | null> {
    if (this.signal?.aborted) throw new AbortedError();
    const { value: session } = await this.budget.line.acquire((request) =>
      this.pool.openSession({
        signal: this.signal,
        stepTimeoutMs: this.budget.scaled(this.actionTimeoutMs),
        onQueued: request.onQueued,
        onClose: () => request.over(),
      }),
    );
    this.made.sessionOpened(session.runId);
    try {
      const opening = Date.now();
      const { status } = await session.navigate(this.url, { timeoutMs: 15_000 });
      if (status >= 400) throw new Error(`${this.url} answered HTTP ${status}`);
      // The latency sample: navigating and reading the page, as every state reached begins.
      if (this.budget.samples()) {
        await session.snapshot({ signal: this.signal });
        this.budget.measured(Date.now() - opening);
      }
      for (const action of state.setup) {
        for (const step of action.steps) await this.actStep(session, step);
      }
      return { session };
    } catch (error) {
      await session.close().catch(() => {});
      if (error instanceof AbortedError) throw error;
      return null;
    }
  }

  async perform(session: BrowserSession, step: BehaviourStep, timeoutMs: number): Promise<void> {
    if (this.signal?.aborted) throw new AbortedError();
    await session.perform(asStep(step), { timeoutMs, signal: this.signal });
  }

  /** Performs a step of an action, in the action's time (scaled). */
  actStep(session: BrowserSession, step: BehaviourStep): Promise<void> {
    this.made.typedIn(step);
    return this.perform(session, step, this.budget.scaled(this.actionTimeoutMs));
  }

  /** The checks that hold on the page as it is (each given `timeoutMs`). */
  async holding(
    session: BrowserSession,
    checks: ProposedAssertion[],
    timeoutMs: number,
  ): Promise<ProposedAssertion[]> {
    const held: ProposedAssertion[] = [];
    for (const a of checks) {
      try {
        await this.perform(session, a.step, timeoutMs);
        held.push(a);
      } catch (error) {
        rethrowAbort(error);
      }
    }
    return held;
  }

  /**
   * A snapshot once the page has stopped changing (two equal readings, at most a few tries), with the
   * session's own `{{RUN_ID}}` value written back as the placeholder: what the explorer reads, names
   * and checks is then the same in every session, each of which fills in an id of its own. What
   * other sessions made is taken out (see `ExplorationMade`); `fresh` for the page's start state,
   * whose texts, the first time a page is reached, are what it holds before the exploration.
   */
  async settle(session: BrowserSession, fresh = false): Promise<PageSnapshot> {
    let last = await session.snapshot({ signal: this.signal });
    for (let i = 0; i < 4; i++) {
      await abortableDelay(SETTLE_MS, this.signal);
      const next = await session.snapshot({ signal: this.signal });
      if (same(last, next)) break;
      last = next;
    }
    const snapshot = withPlaceholder(last, session.runId);
    if (fresh) this.made.freshPage(snapshot);
    return this.made.strip(snapshot, session.runId);
  }
}

/** Lets an abort through; any other failure is answered as null (the attempt did not work). */
export function rethrowAbort(error: unknown): null {
  if (error instanceof AbortedError) throw error;
  return null;
}

function same(a: PageSnapshot, b: PageSnapshot): boolean {
  const strip = (s: PageSnapshot) =>
    JSON.stringify([s.url, s.items, s.controls, s.texts, s.dialogs, s.counts]);
  return strip(a) === strip(b);
}

/** The snapshot with each occurrence of the session's run id written as `{{RUN_ID}}`. */
function withPlaceholder(snapshot: PageSnapshot, runId: string): PageSnapshot {
  const json = JSON.stringify(snapshot);
  return json.includes(runId)
    ? (JSON.parse(json.split(runId).join(`{{${RUN_ID}}}`)) as PageSnapshot)
    : snapshot;
}
