import type { CaseDiagnostics, ConsoleEntry, NetworkEntry } from '@argus/protocol';
import { type CaseStep, stepHeading } from './case-steps';

// The console and network of a case, put under the step that was running when each entry came
// (docs/DIAGNOSTICS.md): the failing step's failed requests first, as they are most often the cause.

export interface EntryFilters {
  /** Console: only errors and uncaught page errors. */
  errorsOnly: boolean;
  /** Network: only requests that failed or answered ≥ 400. */
  failedOnly: boolean;
}

export const NO_FILTERS: EntryFilters = { errorsOnly: false, failedOnly: false };

export function isConsoleError(entry: Pick<ConsoleEntry, 'level'>): boolean {
  return entry.level === 'error' || entry.level === 'pageerror';
}

/** A request that never got an answer, or was answered 400 or above. */
export function isFailedRequest(entry: Pick<NetworkEntry, 'status' | 'failure'>): boolean {
  return entry.failure !== null || entry.status === null || entry.status >= 400;
}

/** The entries that ran during one step (or before the first), as the panel heads them. */
export interface StepEntries<T> {
  stepIndex: number | null;
  heading: string;
  /** The case's failing step. */
  failing: boolean;
  entries: T[];
}

function byTime<T extends { at_ms: number }>(a: T, b: T): number {
  return a.at_ms - b.at_ms;
}

/**
 * Entries grouped under their step, steps in order (before the first step leading), each group in
 * time order; only groups with entries. `failedFirst` puts entries it matches first in the failing
 * step's group.
 */
export function groupByStep<T extends { at_ms: number; step_index: number | null }>(
  entries: readonly T[],
  steps: readonly CaseStep[],
  failingStep: number | null,
  failedFirst?: (entry: T) => boolean,
): StepEntries<T>[] {
  const groups = new Map<number | null, T[]>();
  for (const entry of entries) {
    const list = groups.get(entry.step_index) ?? [];
    list.push(entry);
    groups.set(entry.step_index, list);
  }
  const order = [...groups.keys()].sort((a, b) => (a ?? -1) - (b ?? -1));
  return order.map((stepIndex) => {
    const failing = stepIndex !== null && stepIndex === failingStep;
    const list = (groups.get(stepIndex) ?? []).slice().sort(byTime);
    const sorted =
      failing && failedFirst
        ? [...list.filter((e) => failedFirst(e)), ...list.filter((e) => !failedFirst(e))]
        : list;
    return { stepIndex, heading: stepHeading(stepIndex, steps), failing, entries: sorted };
  });
}

/** The console entries the filters keep, grouped by step. */
export function consoleGroups(
  diagnostics: Pick<CaseDiagnostics, 'console'>,
  steps: readonly CaseStep[],
  failingStep: number | null,
  filters: EntryFilters,
): StepEntries<ConsoleEntry>[] {
  const kept = filters.errorsOnly ? diagnostics.console.filter(isConsoleError) : diagnostics.console;
  return groupByStep(kept, steps, failingStep, isConsoleError);
}

/** The requests the filters keep, grouped by step; the failing step's failed requests first. */
export function networkGroups(
  diagnostics: Pick<CaseDiagnostics, 'network'>,
  steps: readonly CaseStep[],
  failingStep: number | null,
  filters: EntryFilters,
): StepEntries<NetworkEntry>[] {
  const kept = filters.failedOnly ? diagnostics.network.filter(isFailedRequest) : diagnostics.network;
  return groupByStep(kept, steps, failingStep, isFailedRequest);
}

/** How a request ended, in a few characters: '500', 'net::ERR_CONNECTION_REFUSED', 'no answer'. */
export function requestOutcome(entry: Pick<NetworkEntry, 'status' | 'failure'>): string {
  if (entry.failure) return entry.failure;
  return entry.status === null ? 'no answer' : String(entry.status);
}

/** '120 ms', '1.4 s'; an en dash when it never ended. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
