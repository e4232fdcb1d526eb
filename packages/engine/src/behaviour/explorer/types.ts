import type { ExplorationSummary } from '@argus/protocol';
import type { ActionKind, CandidateAction } from '../candidates';
import type { Effect } from '../diff';
import type { PageSnapshot } from '../snapshot';
import type { BehaviourStep } from '../steps';

export interface BehaviourExploreOptions {
  /** Actions tried in all (replays not counted). @default 40 */
  maxActions?: number;
  /** Actions of setup before the one explored (add an item, add a second, complete one). @default 3 */
  maxDepth?: number;
  /**
   * Time for exploring and replaying on a page that opens as fast as a small local app on an idle
   * machine; the limit actually used is this scaled by the page's measured latency (see
   * `ExplorationSummary`), so a slow page or a busy machine gets longer, not fewer behaviours. What was
   * found and checked by then is returned. Time spent waiting in line for a browser does not count.
   * A safety net: the action budget is what ends an exploration on a small app. @default 60000
   */
  timeBudgetMs?: number;
  /** Fresh-session replays of each behaviour; only checks that held in every one are kept. @default 2 */
  replays?: number;
  /** How long a check may take in a replay before it counts as not holding. @default 1500 */
  verifyTimeoutMs?: number;
  /** Replays run at once, each in a session (a browser context) of its own. @default 2 */
  concurrency?: number;
  /** How long an action's step may take while exploring. @default 2500 */
  actionTimeoutMs?: number;
  /** The same control on how many different items (Increase quantity of A, of B…). @default 2 */
  maxPerTemplate?: number;
  /** A word to type into search fields (something the site lists). @default "test" */
  searchTerm?: string;
  /** Other same-origin pages to explore from, after the start page, while time remains. @default [] */
  pages?: string[];
  /**
   * Words to look for first (a command's clauses that nothing covered yet): in each state, the
   * actions whose description holds one of them are tried before the others of their kind.
   * @default []
   */
  focus?: string[];
  /**
   * The app keeps its data on the server for the account every session signs in as (a signed-in
   * project): each session starts from what the earlier ones left, and so will each run of the suite.
   * Only checks that hold whatever was there before are kept: about the items the behaviour itself
   * added (by the values it typed) and about the page's own controls, never counts or items it did
   * not make (docs/ARCHITECTURE.md#behaviour-exploration). @default false
   */
  sharedState?: boolean;
  /**
   * Each session signs in with an account no other session uses at the same time (a project login
   * with an account per lane, docs/PROJECTS.md#an-account-per-lane): nothing else changes a session's
   * data while it works, so checks relating numbers to the rows on the same page (a counter and the
   * rows it counts, a total and the rows it adds up) may be kept even with `sharedState`. Absolute
   * counts never are: they depend on what earlier sessions left. @default false
   */
  ownData?: boolean;
  /** Stop: the exploration ends promptly with the behaviours checked so far. */
  signal?: AbortSignal;
  /** What it is trying, in words a user reads (waiting for a browser: its place in line). */
  onProgress?: (message: string) => void;
  /** Called once at the end (also when stopped) with what was explored and what was left out. */
  onSummary?: (summary: ExplorationSummary) => void;
}

/**
 * One behaviour of the app: from `url`, the `setup` steps reach a state, the `action` steps act, and
 * `assertions` (steps too) check what that did; every one held in each fresh-session replay.
 */
export interface Behaviour {
  url: string;
  setup: BehaviourStep[];
  action: BehaviourStep[];
  kind: ActionKind;
  /** The action in words: `type into "What needs to be done?" and press Enter`. */
  description: string;
  control: CandidateAction['control'];
  value?: string;
  /** The setup's actions, in words, with their kinds. */
  setupActions: {
    kind: ActionKind;
    description: string;
    value?: string;
    control: CandidateAction['control'];
  }[];
  effects: Effect[];
  assertions: BehaviourStep[];
  /** The list's items before the action: their titles, checked and marked states. */
  itemsBefore: { label: string; checked: boolean | null; states: string[] }[];
  /** Same value for the same action in equivalent states. */
  signature: string;
}

/** A state to act in: the actions that reach it from the page as it opens. */
export interface State {
  setup: CandidateAction[];
  depth: number;
}

/** What trying one action showed, for the strategies that build on it. */
export interface Tried {
  addedItem: boolean;
  marked: boolean;
  /** The page the action was tried on (on server data, an item's page has another id in each session). */
  before?: PageSnapshot;
  /** The page after the action, when it changed something. */
  after?: PageSnapshot;
}

/** The same value for the same setup: what tells states, and actions tried in them, apart. */
export const key = (setup: CandidateAction[]) => JSON.stringify(setup.map((a) => a.steps));
