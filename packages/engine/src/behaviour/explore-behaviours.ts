import type { ExplorationSummary } from '@argus/protocol';
import { QueuePositions, queuedMessage, type SessionOpener } from '../browser-pool';
import type { BrowserSession } from '../browser-session';
import { AbortedError, abortableDelay } from '../errors';
import { RUN_ID } from '../variables';
import { resolveWebUrl } from '../web-url';
import {
  countAssertions,
  isVolatile,
  type ProposedAssertion,
  persistenceAssertions,
  proposeAssertions,
  sumAssertions,
} from './assertions';
import { type ActionKind, type CandidateAction, candidateActions, itemPageLink } from './candidates';
import { diffSnapshots, type Effect, meaningful } from './diff';
import type { PageSnapshot } from './snapshot';
import { asStep, type BehaviourStep } from './steps';

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

interface State {
  setup: CandidateAction[];
  depth: number;
}

const SETTLE_MS = 50;
/** How long a confirmation's Cancel is watched for a change that must not come. */
const NOTHING_HAPPENS_MS = 1_000;
/** Kept back while exploring a page for checking how it opens (at reference latency). */
const LOAD_RESERVE_MS = 4_000;
/** How long a proposed check may take on the page it was proposed from (at reference latency). */
const PRECHECK_MS = 400;
/**
 * Opening a small local app in a fresh session and reading it takes about this long on an idle
 * 2-core machine (measured: docs/PERFORMANCE.md); time limits are written for it and scaled by
 * how much longer the page at hand takes.
 */
const REFERENCE_LATENCY_MS = 150;
/** A page may be this many times slower than the reference before its limits stop growing. */
const MAX_SLOWDOWN = 6;
const key = (setup: CandidateAction[]) => JSON.stringify(setup.map((a) => a.steps));

/**
 * Explores an app by acting: from the start page it tries each candidate action (type and press
 * Enter, submit, click, check, select, follow in-page links, hover to reveal, double-click to edit),
 * diffs a snapshot before and after, and keeps those with effects as behaviours. After an action
 * that adds an item, it explores the new item's controls (with a second item beside it, so deleting
 * or filtering has something to leave alone), and after completing one of two, the page's filters,
 * clear-completed and reload. Each behaviour is replayed in fresh sessions and keeps only the checks
 * that held every time. Bounded by actions, depth and time; stopped by the signal.
 */
export async function exploreBehaviours(
  pool: SessionOpener,
  startUrl: string,
  options: BehaviourExploreOptions = {},
): Promise<Behaviour[]> {
  const explorer = new BehaviourExplorer(pool, resolveWebUrl(startUrl), options);
  return explorer.run();
}

class BehaviourExplorer {
  private readonly maxActions: number;
  private readonly maxDepth: number;
  private readonly startedAt = Date.now();
  private readonly budgetMs: number;
  /** Its waits for browsers: the place in line users are told, and the time the budget leaves out. */
  private readonly line: QueuePositions;
  private readonly replays: number;
  private readonly verifyTimeoutMs: number;
  private readonly actionTimeoutMs: number;
  private readonly maxPerTemplate: number;
  private readonly concurrency: number;
  private readonly hints: { searchTerm?: string; unique?: boolean };
  private readonly signal?: AbortSignal;
  private session: BrowserSession | null = null;
  /** The setup the open session shows, or null when it has been acted on since. */
  private at: string | null = null;
  private url: string;
  private actions = 0;
  private readonly found: Behaviour[] = [];
  private readonly tried = new Set<string>();
  /** How long each fresh session took to open the page and read it (the latency sample). */
  private readonly openings: number[] = [];
  /** Sessions opened so far (the latency is sampled on some of them). */
  private opened = 0;
  /** The setups acted in. */
  private readonly states = new Set<string>();
  /** What the budget left out, in words. */
  private readonly skipped: string[] = [];
  /** Whether a list's states (one item, two, one completed) have been explored. */
  private listExplored = false;
  /** The items' texts of the page the check about to be replayed was proposed on (with `sharedState`). */
  private dataTexts: string[] = [];
  /** The effects of the action that ended each setup (by `key`), for a reload there to check. */
  private readonly effectsOf = new Map<string, Effect[]>();
  /** For an adder behind a click (a dialog's form): the same click and form with the next values. */
  private readonly secondAdder = new Map<string, CandidateAction>();

  constructor(
    private readonly pool: SessionOpener,
    private readonly startUrl: string,
    private readonly options: BehaviourExploreOptions,
  ) {
    this.url = startUrl;
    this.maxActions = options.maxActions ?? 40;
    this.maxDepth = options.maxDepth ?? 3;
    this.budgetMs = options.timeBudgetMs ?? 60_000;
    this.line = new QueuePositions((position) => options.onProgress?.(queuedMessage(position)));
    this.replays = options.replays ?? 2;
    this.verifyTimeoutMs = options.verifyTimeoutMs ?? 1_500;
    this.actionTimeoutMs = options.actionTimeoutMs ?? 2_500;
    this.maxPerTemplate = options.maxPerTemplate ?? 2;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.hints = { searchTerm: options.searchTerm, unique: options.sharedState };
    this.signal = options.signal;
  }

  /** Time kept back while exploring a page, for checking how it opens once its dynamic texts are known. */
  private reserve = 0;
  /** Every value each page-level text showed in any state explored (by the text's place). */
  private values = new Map<string, Set<string>>();

  /** The median opening time measured so far (the reference until one is measured). */
  private get latencyMs(): number {
    if (this.openings.length === 0) return REFERENCE_LATENCY_MS;
    const sorted = [...this.openings].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }

  /** How many times slower than the reference this page opens, here and now (1 at most as fast). */
  private get slowdown(): number {
    return Math.min(MAX_SLOWDOWN, Math.max(1, this.latencyMs / REFERENCE_LATENCY_MS));
  }

  /** A time limit written for the reference latency, scaled to the page's. */
  private scaled(ms: number): number {
    return Math.round(ms * this.slowdown);
  }

  /** The budget runs while it has or is getting browsers, not while it waits in line for one. */
  private get deadline(): number {
    return this.startedAt + this.scaled(this.budgetMs) + this.line.waitedMs;
  }

  private get out(): boolean {
    const out =
      this.signal?.aborted === true ||
      Date.now() >= this.deadline - this.scaled(this.reserve) ||
      this.actions >= this.maxActions;
    // Asked before trying something: when the answer is yes, something was left out.
    if (out) this.ranOut = true;
    return out;
  }

  /** Whether the budget ever stopped something from being tried. */
  private ranOut = false;

  /** Notes what the budget left out (once each, the first 20). */
  private skip(what: string | (string | CandidateAction)[]): void {
    if (this.signal?.aborted) return;
    const words = (typeof what === 'string' ? [what] : what).map((a) =>
      typeof a === 'string' ? a : a.description,
    );
    for (const w of words) if (!this.skipped.includes(w) && this.skipped.length < 20) this.skipped.push(w);
  }

  private summary(): ExplorationSummary {
    const ended = this.signal?.aborted
      ? 'stopped'
      : this.skipped.length === 0 && !this.ranOut
        ? 'complete'
        : this.actions >= this.maxActions
          ? 'actions'
          : 'time';
    return {
      actions: this.actions,
      maxActions: this.maxActions,
      states: this.states.size,
      behaviours: this.found.length,
      latencyMs: Math.round(this.latencyMs),
      timeLimitMs: this.scaled(this.budgetMs),
      elapsedMs: Math.max(0, Date.now() - this.startedAt - this.line.waitedMs),
      ended,
      skipped: [...this.skipped],
    };
  }

  async run(): Promise<Behaviour[]> {
    try {
      await this.explorePage(this.startUrl, true);
      for (const [i, page] of (this.options.pages ?? []).entries()) {
        if (this.out) {
          for (const rest of (this.options.pages ?? []).slice(i)) this.skip(`the page ${rest}`);
          break;
        }
        let url: string;
        try {
          url = resolveWebUrl(page, this.startUrl);
        } catch {
          continue;
        }
        if (new URL(url).origin !== new URL(this.startUrl).origin || url === this.startUrl) continue;
        await this.explorePage(url, false);
      }
    } catch (error) {
      if (!(error instanceof AbortedError) && !this.signal?.aborted) throw error;
    } finally {
      await this.session?.close().catch(() => {});
      this.session = null;
      this.options.onSummary?.(this.summary());
    }
    return this.found;
  }

  private async explorePage(url: string, deep: boolean): Promise<void> {
    this.url = url;
    this.at = null;
    const root: State = { setup: [], depth: 0 };
    const snapshot = await this.reach(root).catch((error) => {
      if (error instanceof AbortedError) throw error;
      return null;
    });
    if (!snapshot) return;
    this.values = new Map();
    this.remember(snapshot);
    this.reserve = LOAD_RESERVE_MS;
    try {
      await this.exploreFrom(root, snapshot, deep);
    } finally {
      this.reserve = 0;
    }
    if (!this.out) await this.opening(root, snapshot);
    else this.skip('how the page opens');
  }

  /** Notes the values of the page's own texts (not items'), to know which of them change. */
  private remember(snapshot: PageSnapshot): void {
    for (const t of snapshot.texts) {
      if (t.item !== null) continue;
      const seen = this.values.get(t.key) ?? new Set<string>();
      seen.add(t.text);
      this.values.set(t.key, seen);
    }
  }

  /**
   * How the page opens: the texts that other actions changed (counts, totals, a status) show their
   * first values, and none of the values they took elsewhere; the list's items and their count.
   */
  private async opening(root: State, snapshot: PageSnapshot): Promise<void> {
    const shown = snapshot.texts.map((t) => t.text.toLowerCase()).join('\n');
    const proposed: ProposedAssertion[] = [];
    const effects: Effect[] = [];
    for (const [key, values] of this.values) {
      if (values.size < 2 || proposed.length >= 12) continue;
      const now = snapshot.texts.find((t) => t.key === key && t.item === null);
      if (!now || isVolatile(now.text)) continue;
      const dup = (text: string, visible: boolean) =>
        proposed.some(
          (p) => p.step.verb === 'verifyText' && p.step.text === text && p.step.visible === visible,
        );
      // Every such text is an effect of opening (its words name the test); those with a number are checked.
      effects.push({ kind: 'textAdded', text: now.text, item: null, context: now.context });
      if (/\d/.test(now.text) && !dup(now.text, true))
        proposed.push({ step: { verb: 'verifyText', text: now.text, visible: true } });
      for (const other of values) {
        if (other === now.text || isVolatile(other) || other.length < 2) continue;
        if (shown.includes(other.toLowerCase()) || !/\d/.test(other) || dup(other, false)) continue;
        proposed.push({ step: { verb: 'verifyText', text: other, visible: false } });
      }
    }
    if (!proposed.some((p) => p.step.verb === 'verifyText' && p.step.visible)) return;
    for (const role of ['listitem', 'row'] as const) {
      const count = snapshot.counts[role] ?? 0;
      if (count > 0) proposed.push({ step: { verb: 'verifyExactCount', role, count } });
    }
    const action = openingAction();
    this.dataTexts = snapshot.items.flatMap((i) => [i.label, i.text]);
    this.actions++;
    this.options.onProgress?.(`Trying: ${action.description}`);
    const assertions = await this.verify(root, action, proposed);
    if (!assertions) return;
    this.found.push({
      url: this.url,
      setup: [],
      action: [],
      kind: 'load',
      description: action.description,
      control: action.control,
      setupActions: [],
      effects,
      assertions,
      itemsBefore: [],
      signature: 'load',
    });
  }

  private async exploreFrom(root: State, snapshot: PageSnapshot, deep: boolean): Promise<void> {
    const candidates = this.order(candidateActions(snapshot, 0, this.hints));
    // Adding comes first: it opens the states the rest is explored in.
    const adders: { action: CandidateAction; result: Tried }[] = [];
    for (const action of candidates.filter((a) => isAdder(a))) {
      if (this.out) return this.skip(candidates);
      const result = await this.tryAction(root, action);
      if (result?.addedItem) adders.push({ action, result });
    }
    // The list is explored once: from the start page's adder, else from the first page that has one
    // (a form on its own page that adds to a list on another, as server-rendered apps do).
    const adder = deep || !this.listExplored ? adders[0] : undefined;
    if (adder && this.maxDepth >= 1) {
      this.listExplored = true;
      await this.exploreList(adder.action);
    }
    const rest = candidates.filter((a) => !isAdder(a));
    for (const [i, action] of rest.entries()) {
      if (this.out) return this.skip(rest.slice(i));
      const result = await this.tryAction(root, action);
      // A button that opens a form (a "New ticket" dialog): the form, filled and sent after the click,
      // is tried as one action, and adds to the list like a form that is always there.
      if (result?.after && action.kind === 'click' && action.scope === 'page' && !this.listExplored) {
        await this.tryOpenedForms(root, snapshot, action, result.after);
      }
      // A form of several fields that added an item (an expense, a contact) opens the list's states too.
      if (result?.addedItem && isListForm(action) && !this.listExplored && this.maxDepth >= 1) {
        this.listExplored = true;
        await this.exploreList(action);
      }
    }
  }

  /**
   * The forms a click revealed (a dialog's), each tried as the click then the filled form; one that
   * adds an item opens the list's states, as the start page's adder would.
   */
  private async tryOpenedForms(
    root: State,
    before: PageSnapshot,
    opener: CandidateAction,
    after: PageSnapshot,
  ): Promise<void> {
    const revealed = this.revealedBy(before, after).filter((a) => a.kind === 'submit');
    for (const form of revealed) {
      if (this.out) return;
      // The list is explored from one adder; the form's other ways (sent blank) are still tried.
      if (this.listExplored && (isAdder(form) || isListForm(form))) continue;
      const composite: CandidateAction = {
        ...form,
        description: `${opener.description}, then ${form.description}`,
        steps: [...opener.steps, ...form.steps],
        signature: `${opener.signature}>${form.signature}`,
      };
      const result = await this.tryAction(root, composite);
      // The second item goes in the same way, with the form's next values.
      const next = candidateActions(after, 1, this.hints).find((a) => a.signature === form.signature);
      if (next) {
        this.secondAdder.set(composite.signature, {
          ...next,
          description: `${opener.description}, then ${next.description}`,
          steps: [...opener.steps, ...next.steps],
          signature: composite.signature,
        });
      }
      if (result?.addedItem && this.maxDepth >= 1) {
        this.listExplored = true;
        await this.exploreList(composite);
      }
    }
  }

  /** The actions an action brought onto the page (a dialog's form or buttons): those `before` did not offer. */
  private revealedBy(before: PageSnapshot, after: PageSnapshot): CandidateAction[] {
    const known = new Set(candidateActions(before, 0, this.hints).map((a) => a.signature));
    return candidateActions(after, 0, this.hints).filter((a) => !known.has(a.signature));
  }

  /** The states a list app is explored in: one item, two items, one of two completed. */
  private async exploreList(adder: CandidateAction): Promise<void> {
    const one: State = { setup: [adder], depth: 1 };
    const first = await this.reach(one).catch(rethrowAbort);
    if (!first) return;
    const firstItem = newItemLabel(first, adder);
    // A second item beside the first.
    const again =
      candidateActions(first, 1, this.hints).find(
        (a) => a.kind === adder.kind && a.signature === adder.signature,
      ) ??
      this.secondAdder.get(adder.signature) ??
      (first.url !== this.url ? await this.addAgainFrom(one, adder) : undefined);
    let two: State | null = null;
    let second: PageSnapshot | null = null;
    if (again && this.maxDepth >= 2) {
      const result = await this.tryAction(one, again);
      if (result?.addedItem) {
        two = { setup: [adder, again], depth: 2 };
        second = await this.reach(two).catch(rethrowAbort);
      }
    }
    const listState = second && two ? two : one;
    const listSnapshot = second ?? first;
    // The newest item's own controls, with the first above it: acting on an item that is not the first
    // tells "removes (or ticks) the one clicked" from "removes the first one" (a bug lists are prone to).
    const target = second && again ? (newItemLabel(second, again, firstItem) ?? firstItem) : firstItem;
    const itemActions = this.order(
      candidateActions(listSnapshot, 2, this.hints).filter(
        (a) => a.scope === 'item' && a.control.item === target,
      ),
    );
    let completed: CandidateAction | null = null;
    for (const [i, action] of itemActions.entries()) {
      if (this.out)
        return this.skip([
          ...itemActions.slice(i).map((a) => a.description),
          'the page after completing an item',
          'a reload',
        ]);
      const result = await this.tryAction(listState, action);
      // What marks an item without removing it (a checkbox, a "Mark as paid" button) completes it.
      if (!completed && (action.kind === 'check' || action.kind === 'click') && result?.marked)
        completed = action;
    }
    // The item's own page (a detail page its title links to), and what can be done there.
    const viaPage = target ? await this.exploreItemPage(listState, listSnapshot, target) : null;
    if (!completed && viaPage) {
      // Marked on its page, the item as the list shows it then (its status), and the list's filters below.
      completed = viaPage;
      if (!this.out) await this.tryAction(listState, viaPage);
    }
    // The site's other pages (a summary, a report) seen before and after the first item was added.
    await this.revisitPages(one, first);
    // One of two completed: the page's own controls (filters, clear completed, toggle all) and a reload.
    // The first is the one completed, the newest left active: a bulk action that reaches only the
    // first item ("mark all" marking one) then leaves a visible difference.
    const completeFirst =
      completed && target !== firstItem
        ? (candidateActions(listSnapshot, 2, this.hints).find(
            (a) =>
              a.scope === 'item' &&
              a.control.item === firstItem &&
              a.kind === completed!.kind &&
              a.signature === completed!.signature,
          ) ?? completed)
        : completed;
    let done: State | null = null;
    const explored = new Set<string>();
    if (completeFirst && this.maxDepth >= listState.depth + 1) {
      done = { setup: [...listState.setup, completeFirst], depth: listState.depth + 1 };
      const doneSnapshot = await this.reach(done).catch(rethrowAbort);
      if (doneSnapshot) {
        // Filters first: they are what a completed item changes most.
        const pageActions = this.order(
          candidateActions(doneSnapshot, 3, this.hints).filter((a) => a.scope === 'page' && !isAdder(a)),
          true,
        );
        for (const [i, action] of pageActions.entries()) {
          if (this.out)
            return this.skip([
              ...pageActions.slice(i).map((a) => `${a.description} (an item completed)`),
              'a reload',
            ]);
          explored.add(action.signature);
          await this.tryAction(done, action);
        }
      }
    }
    // A reload of the richest state, then the page's controls with one item (those not tried above).
    if (!this.out) await this.tryAction(done ?? listState, reloadAction());
    else this.skip('a reload');
    const pageActions = this.order(
      candidateActions(first, 1, this.hints).filter(
        (a) => a.scope === 'page' && !isAdder(a) && !explored.has(a.signature),
      ),
    );
    for (const [i, action] of pageActions.entries()) {
      if (this.out) return this.skip(pageActions.slice(i).map((a) => `${a.description} (with one item)`));
      await this.tryAction(one, action);
    }
  }

  /**
   * The site's other pages that show the list's data (a summary, totals per category): each opened
   * once before the first item is added and again after, so a page that keeps what it first showed
   * is told from one that follows the data. Pages the adder's form or the list are on are left out.
   */
  private async revisitPages(one: State, list: PageSnapshot): Promise<void> {
    const seen = new Set([strip(this.url), strip(list.url)]);
    // The item just added links to its own page, which did not exist before: not a page to revisit.
    const added = one.setup.flatMap((a) => (a.value ? [a.value.toLowerCase()] : []));
    const pages = list.controls.filter((c) => {
      if (added.some((v) => c.name.toLowerCase().includes(v))) return false;
      // A link that is all its list entry holds (a nav bar's) belongs to the page.
      if (c.role !== 'link' || (c.item !== null && c.item !== c.name) || !c.href || c.leaves || !c.name)
        return false;
      const to = new URL(c.href);
      if (to.origin !== new URL(this.url).origin || seen.has(strip(c.href))) return false;
      // With data shared by every session, an item's own page (/tickets/1) shows data another test
      // may change: it is not a page that follows the list.
      if (
        this.options.sharedState &&
        to.pathname.split('/').some((part) => /^\d+$|^[0-9a-f-]{32,36}$/i.test(part))
      )
        return false;
      seen.add(strip(c.href));
      return true;
    });
    for (const [i, link] of pages.slice(0, 2).entries()) {
      if (this.out || this.maxDepth < one.depth + 1)
        return this.skip(pages.slice(i, 2).map((p) => `${p.name} after a change`));
      const visit = (description: string): CandidateAction => ({
        kind: 'link',
        description,
        steps: [{ verb: 'navigate', url: link.href! }],
        control: { role: 'link', name: link.name, item: null, type: 'page' },
        scope: 'page',
        signature: `revisit|${link.name}`,
      });
      const back: CandidateAction = {
        kind: 'link',
        description: 'go back to the start page',
        steps: [{ verb: 'navigate', url: this.url }],
        control: { role: 'link', name: 'start page', item: null, type: 'page' },
        scope: 'page',
        signature: 'back|start',
      };
      const before: State = {
        setup: [visit(`open ${JSON.stringify(link.name)}`), back, ...one.setup],
        depth: one.depth + 1,
      };
      await this.tryAction(before, visit(`open ${JSON.stringify(link.name)} again after the change`));
    }
  }

  /**
   * Follows an item's link to a page of its own and tries what is there, in that state: its forms
   * (edit, comment), each followed by a reload; its buttons (close, delete), a button that opens a
   * confirmation with each of the confirmation's buttons (Delete, and Cancel, which must change
   * nothing), and one that changes the item in place with a reload and the buttons it brought (Reopen).
   * Answers a way to mark the item from the list (open its page, press that button, go back), for the
   * list's filters to be tried with a marked item when the list has no control of its own for it.
   */
  private async exploreItemPage(
    state: State,
    snapshot: PageSnapshot,
    item: string,
  ): Promise<CandidateAction | null> {
    const link = itemPageLink(snapshot, item);
    if (!link || this.out || this.maxDepth < state.depth + 1) return null;
    const follow: CandidateAction = {
      kind: 'link',
      description: `open ${JSON.stringify(link.name)}`,
      steps: [
        { verb: 'click', target: link.name, role: 'link', ...(link.name !== item ? { region: item } : {}) },
      ],
      control: { role: 'link', name: link.name, item, type: 'link' },
      scope: 'item',
      signature: 'open|item',
    };
    let opened: State = { setup: [...state.setup, follow], depth: state.depth + 1 };
    const page = await this.reach(opened).catch(rethrowAbort);
    if (!page || page.url === snapshot.url) return null;
    // A page drawn by script after the address changes: the steps after the click wait for its heading
    // (the item's title), so that they act on the item's page, not on what the list left on screen.
    const arrived: BehaviourStep = { verb: 'verifyElement', role: 'heading', name: item, visible: true };
    if (
      this.session &&
      (await this.holding(this.session, [{ step: arrived }], this.scaled(PRECHECK_MS))).length
    ) {
      follow.steps.push(arrived);
      opened = { setup: [...state.setup, follow], depth: state.depth + 1 };
      this.at = key(opened.setup);
    }
    // The list's own controls (a "New ticket" button in the header) are not the item's.
    const listed = new Set(candidateActions(snapshot, 2, this.hints).map((a) => a.signature));
    const actions = this.order(
      candidateActions(page, 2, this.hints).filter(
        (a) => a.scope === 'page' && (a.kind === 'submit' || a.kind === 'click') && !listed.has(a.signature),
      ),
    );
    let marker: CandidateAction | null = null;
    for (const [i, action] of actions.entries()) {
      if (this.out) {
        this.skip(actions.slice(i).map((a) => `${a.description} (on the page of ${JSON.stringify(item)})`));
        break;
      }
      const result = await this.tryAction(opened, action);
      const after = result?.after;
      if (!after) continue;
      const here = result.before ?? page;
      if (after.dialogs.length > here.dialogs.length) {
        await this.tryConfirmation(opened, here, action, after);
        continue;
      }
      // (Deeper than maxDepth: a reload and the few buttons a change brought are all that is tried there.)
      if (after.url !== here.url) continue;
      // It changed the page in place (a comment added, the ticket closed): kept after a reload?
      const changed: State = { setup: [...opened.setup, action], depth: opened.depth + 1 };
      if (!this.out) await this.tryAction(changed, reloadAction());
      if (action.kind !== 'click') continue;
      marker ??= {
        ...action,
        description: `open ${JSON.stringify(link.name)}, ${action.description}, and go back to the list`,
        steps: [...follow.steps, ...action.steps, { verb: 'navigate', url: snapshot.url }],
        scope: 'item',
        control: { ...action.control, item },
        signature: `item page|${action.signature}`,
      };
      // The buttons it brought (Reopen after Close), in that state.
      for (const next of this.revealedBy(here, after).filter(
        (a) => a.kind === 'click' && a.scope === 'page' && !listed.has(a.signature),
      )) {
        if (this.out) break;
        await this.tryAction(changed, next);
      }
    }
    return marker;
  }

  /**
   * A click that opened a confirmation (a dialog of buttons): each button after the click, as one
   * action. One that changes nothing (Cancel) is kept as a behaviour too: the page must be as it was.
   */
  private async tryConfirmation(
    state: State,
    before: PageSnapshot,
    opener: CandidateAction,
    after: PageSnapshot,
  ): Promise<void> {
    const buttons = this.revealedBy(before, after).filter((a) => a.kind === 'click' || a.kind === 'submit');
    // Named with the dialog's question ("Delete this ticket?"): what the buttons answer.
    const dialog = after.dialogs.find((d) => !before.dialogs.includes(d));
    const asked = dialog ? ` in ${JSON.stringify(dialog)}` : '';
    for (const button of buttons) {
      if (this.out) return this.skip(`${opener.description}, then ${button.description}${asked}`);
      await this.tryAction(state, {
        ...button,
        kind: 'click',
        description: `${opener.description}, then ${button.description}${asked}`,
        // What must not happen (Cancel deleting anyway) would happen after the click, not at once: the
        // checks wait a moment for it, as a tester watches the page before calling it unchanged.
        steps: [...opener.steps, ...button.steps, { verb: 'wait', ms: NOTHING_HAPPENS_MS }],
        signature: `${opener.signature}>${button.signature}`,
        mayChangeNothing: true,
      });
    }
  }

  /**
   * The adder again, for a second item, when it is on another page than the list it adds to (a form
   * on /new that leads back to /): the list's state, a visit to the form's page, and the form filled
   * with the second item's values.
   */
  private async addAgainFrom(state: State, adder: CandidateAction): Promise<CandidateAction | undefined> {
    try {
      await this.reach(state);
      const session = this.session!;
      this.at = null;
      const visit: BehaviourStep = { verb: 'navigate', url: this.url };
      await this.perform(session, visit, this.scaled(this.actionTimeoutMs));
      const form = await this.settle(session);
      const again = candidateActions(form, 1, this.hints).find(
        (a) => a.kind === adder.kind && a.signature === adder.signature,
      );
      return again && { ...again, steps: [visit, ...again.steps] };
    } catch (error) {
      rethrowAbort(error);
      return undefined;
    }
  }

  /** Adding first, then checkboxes, item controls, page buttons, links, fields, editing. */
  private order(actions: CandidateAction[], linksFirst = false): CandidateAction[] {
    const rank: Record<ActionKind, number> = {
      add: 0,
      submit: 1,
      check: 2,
      hoverClick: 3,
      click: 4,
      quantity: 5,
      link: 6,
      select: 7,
      edit: 8,
      reload: 9,
      load: 10,
    };
    const focus = (this.options.focus ?? []).map((w) => w.toLowerCase()).filter((w) => w.length > 2);
    // The more of the focus's words an action's description holds, the sooner it is tried.
    const unfocused = (a: CandidateAction) =>
      -focus.filter((w) => a.description.toLowerCase().includes(w)).length;
    const perTemplate = new Map<string, number>();
    return [...actions]
      .sort((a, b) =>
        // Adding stays first: it opens the states the rest is found in.
        (a.kind === 'add') !== (b.kind === 'add')
          ? rank[a.kind] - rank[b.kind]
          : unfocused(a) - unfocused(b) ||
            (linksFirst ? linkFirst(a) - linkFirst(b) : 0) ||
            rank[a.kind] - rank[b.kind],
      )
      .filter((a) => {
        const n = perTemplate.get(a.signature) ?? 0;
        perTemplate.set(a.signature, n + 1);
        return a.scope === 'page' || n < this.maxPerTemplate;
      });
  }

  /**
   * Tries one action in a state: reaches the state, snapshots, acts, snapshots, and when it did
   * something, replays it and keeps the checks that held as a behaviour.
   */
  private async tryAction(state: State, action: CandidateAction): Promise<Tried | null> {
    const id = `${key(state.setup)}|${JSON.stringify(action.steps)}`;
    if (this.tried.has(id) || this.out) return null;
    this.tried.add(id);
    this.actions++;
    this.options.onProgress?.(`Trying: ${action.description}`);
    let before: PageSnapshot | null;
    try {
      before = await this.reach(state);
    } catch (error) {
      rethrowAbort(error);
      return null;
    }
    if (!before) return null;
    this.states.add(key(state.setup));
    const acted = await this.act(action);
    if (!acted) return null;
    const { after, steps } = acted;
    if (state.setup.length === 0 || after.url === before.url) this.remember(after);
    const raw = diffSnapshots(before, after);
    // Nothing changed at all: the session still shows the state, and the next action can use it.
    if (raw.length === 0 && action.kind !== 'reload') this.at = key(state.setup);
    const effects = meaningful(raw);
    const unchanged = effects.length === 0 && action.kind !== 'reload';
    if (unchanged && !action.mayChangeNothing) return { addedItem: false, marked: false };
    const proposed = unchanged
      ? []
      : action.kind === 'reload'
        ? [
            ...(persistenceAssertions(before, after, typedBy(state.setup)) ?? []),
            ...this.keptAfterReload(state, before, after),
          ]
        : proposeAssertions(before, after, effects, action);
    // A summary's rows adding up to its total, on a page the action opened (or whose summary it changed).
    const sums = sumAssertions(after);
    if (!unchanged && JSON.stringify(sums) !== JSON.stringify(sumAssertions(before))) proposed.push(...sums);
    // A counter that counts rows, where the action changed it.
    if (!unchanged && effects.some((e) => e.kind === 'textChanged' && e.item === null && /\d/.test(e.to)))
      proposed.push(...countAssertions(after));
    // What this run made (its values bear the run's id): still shown, or gone, as the action left it.
    for (const value of typedBy(state.setup).filter((v) => v.includes(`{{${RUN_ID}}}`))) {
      if (!shows(before, value)) continue;
      const step: BehaviourStep = { verb: 'verifyText', text: value, visible: shows(after, value) };
      if (!proposed.some((p) => JSON.stringify(p.step) === JSON.stringify(step))) proposed.push({ step });
    }
    if (unchanged) {
      if (proposed.length === 0) return { addedItem: false, marked: false };
      // Still on the same page (an item's page has another id in each session: not checked then).
      const path = new URL(before.url).pathname;
      if (!/\d/.test(path)) proposed.push({ step: { verb: 'verifyUrl', text: path } });
    }
    if (!unchanged && effects.length > 0) this.effectsOf.set(key([...state.setup, action]), effects);
    const tried: Tried = {
      before,
      after,
      addedItem: effects.some((e) => e.kind === 'itemAdded') && count(before) < count(after),
      // An item's state changed and the item stayed: a checkbox, a class, or (a button that marks a
      // row as paid) a text of the item acted on, with nothing removed.
      marked:
        effects.some((e) => (e.kind === 'stateChanged' || e.kind === 'checkedChanged') && e.item !== null) ||
        (action.kind === 'click' &&
          action.control.item !== null &&
          !effects.some((e) => e.kind === 'itemRemoved') &&
          effects.some(
            (e) => (e.kind === 'textChanged' || e.kind === 'textAdded') && e.item === action.control.item,
          )),
    };
    if (!proposed || proposed.length === 0) return tried;
    // What does not hold right here is not worth a replay: checked at once, briefly.
    const likely = await this.holding(this.session!, proposed, this.scaled(PRECHECK_MS));
    if (likely.length === 0) return tried;
    const performed = { ...action, steps };
    this.dataTexts = [...before.items, ...after.items].flatMap((i) => [i.label, i.text]);
    const assertions = await this.verify(state, performed, likely);
    if (!assertions) return tried;
    this.found.push({
      url: this.url,
      setup: state.setup.flatMap((a) => a.steps),
      action: steps,
      kind: action.kind,
      description: action.description,
      control: action.control,
      value: action.value,
      setupActions: state.setup.map((a) => ({
        kind: a.kind,
        description: a.description,
        value: a.value,
        control: a.control,
      })),
      effects,
      assertions,
      itemsBefore: before.items
        .filter((i) => ['listitem', 'row', 'article', 'item'].includes(i.role))
        .map((i) => ({ label: i.label, checked: i.checked, states: i.states })),
      signature: `${action.signature}|${state.setup.map((a) => a.signature).join('>')}`,
    });
    return tried;
  }

  /**
   * After a reload, what the action that led to the state changed on the page (a status now "Closed",
   * a "Reopen" button), where the reload still shows it: a change the server did not keep goes.
   */
  private keptAfterReload(state: State, before: PageSnapshot, after: PageSnapshot): ProposedAssertion[] {
    const effects = this.effectsOf.get(key(state.setup)) ?? [];
    const out: ProposedAssertion[] = [];
    const texts = (s: PageSnapshot) => s.texts.filter((t) => t.item === null).map((t) => t.text);
    const was = texts(before);
    const now = texts(after);
    for (const e of effects) {
      const text =
        e.kind === 'textChanged' && e.item === null
          ? e.to
          : e.kind === 'textAdded' && e.item === null
            ? e.text
            : null;
      if (text && !isVolatile(text) && was.includes(text) && now.includes(text))
        out.push({ step: { verb: 'verifyText', text, visible: true } });
      if (
        e.kind === 'controlAdded' &&
        e.item === null &&
        e.name &&
        (e.role === 'button' || e.role === 'link') &&
        after.controls.some((c) => c.role === e.role && c.name === e.name && c.item === null)
      )
        out.push({ step: { verb: 'verifyElement', role: e.role, name: e.name, visible: true } });
    }
    return out.slice(0, 6);
  }

  /** Performs an action; an edit types a new title into the field the double-click opened. */
  private async act(
    action: CandidateAction,
  ): Promise<{ after: PageSnapshot; steps: BehaviourStep[] } | null> {
    const session = this.session!;
    this.at = null;
    const steps = [...action.steps];
    try {
      for (const step of action.steps) await this.perform(session, step, this.scaled(this.actionTimeoutMs));
      let after = await this.settle(session);
      if (action.kind === 'edit') {
        const item = action.control.item ?? '';
        if (!after.focused?.value.includes(item)) return { after, steps };
        const plain =
          [...EDIT_VALUES].find((v) => !v.toLowerCase().includes(item.toLowerCase())) ?? EDIT_VALUES[0];
        const value = this.options.sharedState ? `${plain} {{${RUN_ID}}}` : plain;
        const more: BehaviourStep[] = [
          { verb: 'fillFocused', value },
          { verb: 'press', key: 'Enter' },
        ];
        for (const step of more) await this.perform(session, step, this.scaled(this.actionTimeoutMs));
        steps.push(...more);
        action.value = value;
        after = await this.settle(session);
      }
      return { after, steps };
    } catch (error) {
      rethrowAbort(error);
      return null;
    }
  }

  /** Replays the behaviour in fresh sessions; the checks that held every time, or null. */
  private async verify(
    state: State,
    action: CandidateAction,
    proposed: ProposedAssertion[],
  ): Promise<BehaviourStep[] | null> {
    if (this.options.sharedState) {
      const own = typedBy([...state.setup, action]);
      proposed = proposed.filter((a) => holdsOnAnyData(a.step, own, this.dataTexts));
      if (proposed.length === 0) return null;
    }
    // The exploring session is let go: replays run in sessions of their own, some at once.
    await this.session?.close().catch(() => {});
    this.session = null;
    this.at = null;
    let alive = proposed;
    for (let first = 1; first <= this.replays; first += this.concurrency) {
      if (this.signal?.aborted || Date.now() >= this.deadline) return null;
      const batch = Array.from(
        { length: Math.min(this.concurrency, this.replays - first + 1) },
        (_, i) => first + i,
      );
      this.options.onProgress?.(
        `Checking: ${action.description} (replay ${batch.join(' and ')} of ${this.replays})`,
      );
      const results = await Promise.all(batch.map(() => this.replay(state, action, alive)));
      if (results.some((r) => r === null)) return null;
      alive = alive.filter((a) => results.every((held) => held?.includes(a)));
      if (alive.length === 0) return null;
    }
    // One wording per group: the first that held.
    const groups = new Set<string>();
    const kept = alive.filter((a) => {
      if (!a.group) return true;
      if (groups.has(a.group)) return false;
      groups.add(a.group);
      return true;
    });
    if (kept.every((a) => a.step.verb === 'verifyNoConsoleErrors')) return null;
    return kept.map((a) => a.step);
  }

  /** The checks that hold on the page as it is (each given `timeoutMs`). */
  private async holding(
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

  /** One replay in a fresh session: the checks that held, or null when the behaviour could not be replayed. */
  private async replay(
    state: State,
    action: CandidateAction,
    checks: ProposedAssertion[],
  ): Promise<ProposedAssertion[] | null> {
    const opened = await this.open(state).catch(rethrowAbort);
    if (!opened) return null;
    const { session } = opened;
    try {
      for (const step of action.steps) await this.perform(session, step, this.scaled(this.actionTimeoutMs));
      return await this.holding(session, checks, this.scaled(this.verifyTimeoutMs));
    } catch (error) {
      rethrowAbort(error);
      return null;
    } finally {
      await session.close().catch(() => {});
    }
  }

  /** A session showing the state: the open one if it does, else a fresh one with the setup replayed. */
  private async reach(state: State): Promise<PageSnapshot | null> {
    const wanted = key(state.setup);
    if (this.session && !this.session.closed && this.at === wanted) return this.settle(this.session);
    await this.session?.close().catch(() => {});
    this.session = null;
    this.at = null;
    const opened = await this.open(state);
    if (!opened) return null;
    this.session = opened.session;
    this.at = wanted;
    return this.settle(opened.session);
  }

  /** A fresh session at the start page with the state's setup performed (closed again if that fails). */
  private async open(state: State): Promise<{ session: BrowserSession } | null> {
    if (this.signal?.aborted) throw new AbortedError();
    const { value: session } = await this.line.acquire((request) =>
      this.pool.openSession({
        signal: this.signal,
        stepTimeoutMs: this.scaled(this.actionTimeoutMs),
        onQueued: request.onQueued,
        onClose: () => request.over(),
      }),
    );
    try {
      const opening = Date.now();
      const { status } = await session.navigate(this.url, { timeoutMs: 15_000 });
      if (status >= 400) throw new Error(`${this.url} answered HTTP ${status}`);
      // The latency sample: navigating and reading the page, as every state reached begins. Taken on
      // the first opens and then on one in four, so the extra reading stays off most opens.
      if (this.opened++ < 5 || this.opened % 4 === 0) {
        await session.snapshot({ signal: this.signal });
        this.openings.push(Date.now() - opening);
        if (this.openings.length > 15) this.openings.shift();
      }
      for (const action of state.setup) {
        for (const step of action.steps) await this.perform(session, step, this.scaled(this.actionTimeoutMs));
      }
      return { session };
    } catch (error) {
      await session.close().catch(() => {});
      if (error instanceof AbortedError) throw error;
      return null;
    }
  }

  private async perform(session: BrowserSession, step: BehaviourStep, timeoutMs: number): Promise<void> {
    if (this.signal?.aborted) throw new AbortedError();
    await session.perform(asStep(step), { timeoutMs, signal: this.signal });
  }

  /**
   * A snapshot once the page has stopped changing (two equal readings, at most a few tries), with the
   * session's own `{{RUN_ID}}` value written back as the placeholder: what the explorer reads, names
   * and checks is then the same in every session, each of which fills in an id of its own.
   */
  private async settle(session: BrowserSession): Promise<PageSnapshot> {
    let last = await session.snapshot({ signal: this.signal });
    for (let i = 0; i < 4; i++) {
      await abortableDelay(SETTLE_MS, this.signal);
      const next = await session.snapshot({ signal: this.signal });
      if (same(last, next)) return withPlaceholder(next, session.runId);
      last = next;
    }
    return withPlaceholder(last, session.runId);
  }
}

interface Tried {
  addedItem: boolean;
  marked: boolean;
  /** The page the action was tried on (on server data, an item's page has another id in each session). */
  before?: PageSnapshot;
  /** The page after the action, when it changed something. */
  after?: PageSnapshot;
}

const EDIT_VALUES = ['Water the plants', 'Book the dentist', 'Renew the passport'];

const linkFirst = (a: CandidateAction) => (a.kind === 'link' ? 0 : 1);

/** Fields and buttons of forms that look things up or sign up rather than add to a list. */
const NOT_ADDING = /search|query|find|coupon|promo|voucher|code|e-?mail|newsletter|subscribe/i;

/** Typing and pressing Enter, or a one-field form (an "Add" button): what may add an item to a list. */
function isAdder(action: CandidateAction): boolean {
  if (action.kind === 'add') return true;
  const fields = Object.keys(action.filled ?? {});
  return (
    action.kind === 'submit' && fields.length === 1 && !NOT_ADDING.test(`${fields[0]} ${action.control.name}`)
  );
}

/** A filled form of any size that is not a search or a sign-up: it may add to a list on another page. */
function isListForm(action: CandidateAction): boolean {
  const fields = Object.keys(action.filled ?? {});
  return (
    action.kind === 'submit' &&
    fields.length > 0 &&
    !NOT_ADDING.test(`${fields.join(' ')} ${action.control.name}`)
  );
}

function openingAction(): CandidateAction {
  return {
    kind: 'load',
    description: 'open the page',
    steps: [],
    control: { role: 'page', name: 'page', item: null, type: 'page' },
    scope: 'page',
    signature: 'load',
  };
}

function reloadAction(): CandidateAction {
  return {
    kind: 'reload',
    description: 'reload the page',
    steps: [{ verb: 'reload' }],
    control: { role: 'page', name: 'page', item: null, type: 'page' },
    scope: 'page',
    signature: 'reload',
  };
}

function count(s: PageSnapshot): number {
  return (s.counts.listitem ?? 0) + (s.counts.row ?? 0) + (s.counts.article ?? 0) + (s.counts.item ?? 0);
}

/** The label of the item an adder added (its value), else the last item's that is not `other`. */
function newItemLabel(s: PageSnapshot, adder: CandidateAction, other?: string | null): string | null {
  const value = adder.value?.toLowerCase() ?? '';
  const hit = s.items.find((i) => value && i.text.toLowerCase().includes(value) && i.label !== other);
  return hit?.label ?? s.items.filter((i) => i.label !== other).at(-1)?.label ?? null;
}

/** A page's address without its fragment and query: the page, not one of its views. */
function strip(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

function same(a: PageSnapshot, b: PageSnapshot): boolean {
  const strip = (s: PageSnapshot) =>
    JSON.stringify([s.url, s.items, s.controls, s.texts, s.dialogs, s.counts]);
  return strip(a) === strip(b);
}

/** Whether the page shows `value` anywhere: a text, an item, a control's name. */
function shows(snapshot: PageSnapshot, value: string): boolean {
  const v = value.toLowerCase();
  return (
    snapshot.texts.some((t) => t.text.toLowerCase().includes(v)) ||
    snapshot.items.some((i) => i.text.toLowerCase().includes(v)) ||
    snapshot.controls.some((c) => c.name.toLowerCase().includes(v))
  );
}

/** The snapshot with each occurrence of the session's run id written as `{{RUN_ID}}`. */
function withPlaceholder(snapshot: PageSnapshot, runId: string): PageSnapshot {
  const json = JSON.stringify(snapshot);
  return json.includes(runId)
    ? (JSON.parse(json.split(runId).join(`{{${RUN_ID}}}`)) as PageSnapshot)
    : snapshot;
}

function rethrowAbort(error: unknown): null {
  if (error instanceof AbortedError) throw error;
  return null;
}

/**
 * The texts these actions typed into fields (not the options they chose: every item may show "High"),
 * long enough to look for.
 */
function typedBy(actions: CandidateAction[]): string[] {
  const values = actions.flatMap((a) => [
    ...(a.kind === 'select' ? [] : [a.value ?? '']),
    ...a.steps.flatMap((step) => (step.verb === 'fill' ? [step.value] : [])),
  ]);
  return [...new Set(values.filter((v) => v.length >= 3))];
}

/**
 * With data shared between sessions (`sharedState`), whether a check holds whatever data was there
 * before: a check about what the behaviour typed (its own item) does; counts, numbers and items it did
 * not make do not (an earlier run may have added, closed or deleted them).
 */
export function holdsOnAnyData(step: BehaviourStep, own: string[], data: string[] = []): boolean {
  const lower = (text: string) => text.toLowerCase();
  const mine = (text: string | undefined) =>
    !!text && own.some((value) => lower(text).includes(lower(value)));
  if (step.verb === 'verifyExactCount') return false;
  const region = 'region' in step ? step.region : undefined;
  if (region && !mine(region)) return false;
  if (step.verb === 'verifyText') {
    // Absent: only what bears this run's id, since other behaviours and earlier runs type the same words.
    if (!step.visible) return mine(step.text) && step.text.includes(`{{${RUN_ID}}}`);
    if (mine(step.text) || mine(region)) return true;
    // An item's text the behaviour did not type is data another test may close, edit or delete.
    if (data.some((text) => lower(text).includes(lower(step.text)))) return false;
    return !/\d/.test(step.text);
  }
  return true;
}
