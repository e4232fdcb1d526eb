import type { ModelUsage, StepStatus, StepUpdate } from '@argus/protocol';
import type { ResolvedBy } from './usage';

/** One step of one test in the execution log. A step's later updates replace it in place. */
export interface LogEntry {
  /** test name + step index: unique within a run even when two tests run at once. */
  key: string;
  testName: string;
  stepIndex: number;
  stepNumber: number;
  action: string;
  /** What the step says now: its line, the model's current thought, or '<line> — <what was done>'. */
  description: string;
  /** The step line as written in the test case (the description its first update carried). */
  line: string;
  status: StepStatus;
  url: string | null;
  selector: string | null;
  value: string | null;
  error: string | null;
  nextGoal: string | null;
  timestamp: string;
  /** Which engine carried the step out ('built-in (rule-based)', or the LLM engine's name). */
  engine: string | null;
  /** How the model's part was resolved: by the model now, from the cache, or healed. */
  resolvedBy: ResolvedBy | null;
  /** The model calls the step made. */
  usage: ModelUsage | null;
  /** How many updates this step has had (1 for a pending step, 2 once it finished). */
  updates: number;
}

export type LogFilter = 'all' | StepStatus;
export const LOG_FILTERS: readonly LogFilter[] = ['all', 'success', 'error', 'pending'];

/** A step's index: `step_index` when the server sends it, else its 1-based number made 0-based. */
export function stepIndexOf(step: Pick<StepUpdate, 'step_index' | 'step_number'>): number {
  return step.step_index ?? Math.max(0, step.step_number - 1);
}

export function logKey(testName: string, stepIndex: number): string {
  return `${testName}#${stepIndex}`;
}

function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}

/**
 * Adds a step update to the log: a new step is appended, a known one (same test, same step index)
 * is updated where it stands, so the pending line turns into its success or error line.
 */
export function applyStepUpdate(
  entries: readonly LogEntry[],
  testName: string,
  step: StepUpdate,
): LogEntry[] {
  const stepIndex = stepIndexOf(step);
  const key = logKey(testName, stepIndex);
  const at = entries.findIndex((entry) => entry.key === key);
  const previous = at >= 0 ? entries[at] : null;
  const description = step.description || previous?.description || step.action;
  const entry: LogEntry = {
    key,
    testName,
    stepIndex,
    stepNumber: step.step_number,
    action: step.action,
    description,
    line: previous?.line ?? description,
    status: step.status,
    url: blankToNull(step.url) ?? previous?.url ?? null,
    selector: blankToNull(step.selector) ?? previous?.selector ?? null,
    value: blankToNull(step.value) ?? previous?.value ?? null,
    error: blankToNull(step.error),
    nextGoal: blankToNull(step.thoughts?.next_goal) ?? previous?.nextGoal ?? null,
    timestamp: step.timestamp,
    engine: blankToNull(step.engine) ?? previous?.engine ?? null,
    resolvedBy: step.resolved_by ?? previous?.resolvedBy ?? null,
    usage: step.usage ?? previous?.usage ?? null,
    updates: (previous?.updates ?? 0) + 1,
  };
  if (!previous) return [...entries, entry];
  const next = entries.slice();
  next[at] = entry;
  return next;
}

/** A step the model carries out (a free-form line) or the expected result it judges. */
export function isModelStep(entry: Pick<LogEntry, 'action'>): boolean {
  return entry.action === 'free_form' || entry.action === 'judge_expected_result';
}

export interface StepText {
  /** The step as written ('Add a to-do called "Buy milk"…', 'Judge the expected result: …'). */
  main: string;
  /** What the model did, or its verdict and the evidence, once the step finished. */
  outcome: string | null;
  /** While the model works on the step: its current thought. */
  thought: string | null;
}

const OUTCOME_SEPARATOR = ' — ';

/**
 * A model step's text in parts: the server sends '<line> — <what was done>' when it finishes, and the
 * model's thought in place of the line while it works. Other steps are their description.
 */
export function stepText(entry: Pick<LogEntry, 'action' | 'description' | 'line' | 'status'>): StepText {
  const { description, line } = entry;
  if (!isModelStep(entry)) return { main: description, outcome: null, thought: null };
  if (line !== description && description.startsWith(line + OUTCOME_SEPARATOR)) {
    return { main: line, outcome: description.slice(line.length + OUTCOME_SEPARATOR.length), thought: null };
  }
  if (entry.status === 'pending') {
    return { main: line, outcome: null, thought: description === line ? null : description };
  }
  const cut = description.indexOf(OUTCOME_SEPARATOR);
  if (cut > 0) {
    return {
      main: description.slice(0, cut),
      outcome: description.slice(cut + OUTCOME_SEPARATOR.length),
      thought: null,
    };
  }
  return { main: description, outcome: null, thought: null };
}

/** Drops one test's steps (before it is run again). */
export function withoutTest(entries: readonly LogEntry[], testName: string): LogEntry[] {
  return entries.filter((entry) => entry.testName !== testName);
}

export type LogCounts = Record<LogFilter, number>;

export function countByStatus(entries: readonly LogEntry[]): LogCounts {
  const counts: LogCounts = { all: entries.length, success: 0, error: 0, pending: 0 };
  for (const entry of entries) counts[entry.status] += 1;
  return counts;
}

/** The entries matching a status filter and a case-insensitive search over every visible field. */
export function filterEntries(
  entries: readonly LogEntry[],
  filter: LogFilter,
  query: string,
): readonly LogEntry[] {
  const needle = query.trim().toLowerCase();
  if (filter === 'all' && !needle) return entries;
  return entries.filter((entry) => {
    if (filter !== 'all' && entry.status !== filter) return false;
    if (!needle) return true;
    return [
      entry.testName,
      entry.description,
      entry.action,
      entry.url,
      entry.selector,
      entry.value,
      entry.error,
      entry.nextGoal,
      entry.engine,
    ].some((field) => field?.toLowerCase().includes(needle));
  });
}

export function firstErrorKey(entries: readonly LogEntry[]): string | null {
  return entries.find((entry) => entry.status === 'error')?.key ?? null;
}

/** docs/PRODUCT.md#step-log: the log scrolls in 200 px jumps. */
export const LOG_SCROLL_STEP_PX = 200;

export function scrollTarget(current: number, direction: 'up' | 'down', maxScroll: number): number {
  const next = current + (direction === 'down' ? LOG_SCROLL_STEP_PX : -LOG_SCROLL_STEP_PX);
  return Math.min(Math.max(0, next), Math.max(0, maxScroll));
}

/** A compact, image-free copy of the last log lines for storing with the session (docs/PRODUCT.md#sessions: 10). */
export function logsForStorage(entries: readonly LogEntry[], limit = 10) {
  return entries.slice(-limit).map((entry) => ({
    timestamp: entry.timestamp,
    level: entry.status === 'error' ? 'error' : 'info',
    message: `${entry.testName} #${entry.stepNumber} ${entry.status}: ${entry.description}${
      entry.error ? ` (${entry.error})` : ''
    }`,
  }));
}
