import type { SessionOpener } from '../../browser-pool';
import type { CandidateAction } from '../candidates';
import type { Effect } from '../diff';
import { type Hints, orderActions } from './actions';
import { Budget } from './budget';
import { PageSessions } from './sessions';
import type { Behaviour, BehaviourExploreOptions } from './types';

/**
 * What one exploration holds while its strategies run: the options (with their defaults), the
 * budget, the sessions, and what was tried and found so far. Each strategy module reads and adds to
 * it; none holds state of its own.
 */
export class Exploration {
  readonly maxDepth: number;
  readonly replays: number;
  readonly verifyTimeoutMs: number;
  readonly actionTimeoutMs: number;
  readonly maxPerTemplate: number;
  readonly concurrency: number;
  readonly hints: Hints;
  readonly signal?: AbortSignal;
  readonly budget: Budget;
  readonly pages: PageSessions;
  readonly found: Behaviour[] = [];
  /** Each action tried, in its state (by `key`). */
  readonly tried = new Set<string>();
  /** The setups acted in. */
  readonly states = new Set<string>();
  /** Whether a list's states (one item, two, one completed) have been explored. */
  listExplored = false;
  /** The items' texts of the page the check about to be replayed was proposed on (with `sharedState`). */
  dataTexts: string[] = [];
  /** The effects of the action that ended each setup (by `key`), for a reload there to check. */
  readonly effectsOf = new Map<string, Effect[]>();
  /** For an adder behind a click (a dialog's form): the same click and form with the next values. */
  readonly secondAdder = new Map<string, CandidateAction>();
  /** Every value each page-level text showed in any state explored (by the text's place). */
  values = new Map<string, Set<string>>();

  constructor(
    pool: SessionOpener,
    readonly startUrl: string,
    readonly options: BehaviourExploreOptions,
  ) {
    this.maxDepth = options.maxDepth ?? 3;
    this.budget = new Budget(
      options.maxActions ?? 40,
      options.timeBudgetMs ?? 60_000,
      options.signal,
      options.onProgress,
    );
    this.replays = options.replays ?? 2;
    this.verifyTimeoutMs = options.verifyTimeoutMs ?? 1_500;
    this.actionTimeoutMs = options.actionTimeoutMs ?? 2_500;
    this.maxPerTemplate = options.maxPerTemplate ?? 2;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.hints = { searchTerm: options.searchTerm, unique: options.sharedState };
    this.signal = options.signal;
    this.pages = new PageSessions(pool, startUrl, this.budget, this.actionTimeoutMs, this.signal);
  }

  /** The actions in the order they are tried (see `orderActions`), with this exploration's focus. */
  order(actions: CandidateAction[], linksFirst = false): CandidateAction[] {
    return orderActions(actions, this.options.focus ?? [], this.maxPerTemplate, linksFirst);
  }
}
