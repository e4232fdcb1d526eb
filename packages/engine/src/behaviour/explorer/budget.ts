import type { ExplorationSummary } from '@argus/protocol';
import { QueuePositions, queuedMessage } from '../../browser-pool';
import type { CandidateAction } from '../candidates';

/**
 * Opening a small local app in a fresh session and reading it takes about this long on an idle
 * 2-core machine (measured: docs/PERFORMANCE.md); time limits are written for it and scaled by
 * how much longer the page at hand takes.
 */
const REFERENCE_LATENCY_MS = 150;
/** A page may be this many times slower than the reference before its limits stop growing. */
const MAX_SLOWDOWN = 6;
/** How long a proposed check may take on the page it was proposed from (at reference latency). */
export const PRECHECK_MS = 400;

/**
 * An exploration's budget: actions tried, and time scaled by the page's measured latency (so a slow
 * page or a busy machine gets longer, not fewer behaviours), less the time spent waiting in line for
 * a browser. Also what the budget left out, for the summary.
 */
export class Budget {
  private readonly startedAt = Date.now();
  /** Its waits for browsers: the place in line users are told, and the time the budget leaves out. */
  readonly line: QueuePositions;
  /** Actions tried so far. */
  actions = 0;
  /** Time kept back while exploring a page, for checking how it opens once its dynamic texts are known. */
  reserve = 0;
  /** How long each fresh session took to open the page and read it (the latency sample). */
  private readonly openings: number[] = [];
  /** Sessions opened so far (the latency is sampled on some of them). */
  private opened = 0;
  /** What the budget left out, in words. */
  private readonly skipped: string[] = [];
  /** Whether the budget ever stopped something from being tried. */
  private ranOut = false;

  constructor(
    readonly maxActions: number,
    private readonly budgetMs: number,
    private readonly signal: AbortSignal | undefined,
    onProgress: ((message: string) => void) | undefined,
  ) {
    this.line = new QueuePositions((position) => onProgress?.(queuedMessage(position)));
  }

  /** The median opening time measured so far (the reference until one is measured). */
  get latencyMs(): number {
    if (this.openings.length === 0) return REFERENCE_LATENCY_MS;
    const sorted = [...this.openings].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }

  /** How many times slower than the reference this page opens, here and now (1 at most as fast). */
  private get slowdown(): number {
    return Math.min(MAX_SLOWDOWN, Math.max(1, this.latencyMs / REFERENCE_LATENCY_MS));
  }

  /** A time limit written for the reference latency, scaled to the page's. */
  scaled(ms: number): number {
    return Math.round(ms * this.slowdown);
  }

  /** The budget runs while it has or is getting browsers, not while it waits in line for one. */
  get deadline(): number {
    return this.startedAt + this.scaled(this.budgetMs) + this.line.waitedMs;
  }

  get out(): boolean {
    const out =
      this.signal?.aborted === true ||
      Date.now() >= this.deadline - this.scaled(this.reserve) ||
      this.actions >= this.maxActions;
    // Asked before trying something: when the answer is yes, something was left out.
    if (out) this.ranOut = true;
    return out;
  }

  /**
   * Whether this opening is sampled: the first openings and then one in four, so the extra reading
   * stays off most opens.
   */
  samples(): boolean {
    return this.opened++ < 5 || this.opened % 4 === 0;
  }

  /** A sampled opening's time (the last 15 are kept). */
  measured(ms: number): void {
    this.openings.push(ms);
    if (this.openings.length > 15) this.openings.shift();
  }

  /** Notes what the budget left out (once each, the first 20). */
  skip(what: string | (string | CandidateAction)[]): void {
    if (this.signal?.aborted) return;
    const words = (typeof what === 'string' ? [what] : what).map((a) =>
      typeof a === 'string' ? a : a.description,
    );
    for (const w of words) if (!this.skipped.includes(w) && this.skipped.length < 20) this.skipped.push(w);
  }

  summary(states: number, behaviours: number): ExplorationSummary {
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
      states,
      behaviours,
      latencyMs: Math.round(this.latencyMs),
      timeLimitMs: this.scaled(this.budgetMs),
      elapsedMs: Math.max(0, Date.now() - this.startedAt - this.line.waitedMs),
      ended,
      skipped: [...this.skipped],
    };
  }
}
