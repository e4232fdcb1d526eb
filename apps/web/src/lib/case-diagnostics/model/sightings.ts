import type { FailureGroup, FailureSightings } from '@argus/protocol';

// How a failure seen across runs of a project is said (docs/DIAGNOSTICS.md): 'Seen in 14 runs since
// 2026-11-20 (first in run #3f2a9c1e)'. Days are the ISO date, so the sentence reads the same everywhere.

/** The day of an ISO timestamp: '2026-11-20'. */
export function isoDay(iso: string): string {
  return iso.slice(0, 10);
}

/** A run named in a sentence: '#' and the first 8 characters of its id. */
export function runLabel(runId: string): string {
  return `#${runId.slice(0, 8)}`;
}

/** The parts of the 'Seen in' sentence, so the screen can make the first run a link. */
export interface SeenSentence {
  /** 'Seen in 14 runs since 2026-11-20' or 'Seen in this run only'. */
  lead: string;
  /** The first run's label ('run #3f2a9c1e'), or null when it is this run. */
  firstRun: string | null;
  firstRunId: string;
}

export function seenSentence(seen: FailureSightings, currentRunId: string): SeenSentence {
  const firstHere = seen.first_run_id === currentRunId;
  if (seen.runs <= 1) {
    return {
      lead: firstHere ? 'Seen in this run only' : `Seen in 1 run, on ${isoDay(seen.first_seen_at)}`,
      firstRun: firstHere ? null : `run ${runLabel(seen.first_run_id)}`,
      firstRunId: seen.first_run_id,
    };
  }
  return {
    lead: `Seen in ${seen.runs} runs since ${isoDay(seen.first_seen_at)}`,
    firstRun: firstHere ? null : `run ${runLabel(seen.first_run_id)}`,
    firstRunId: seen.first_run_id,
  };
}

/** The whole sentence as text (the first run unlinked): for tests and titles. */
export function seenText(seen: FailureSightings, currentRunId: string): string {
  const sentence = seenSentence(seen, currentRunId);
  if (seen.runs > 1 && sentence.firstRun === null) return `${sentence.lead} (first in this run)`;
  return sentence.firstRun ? `${sentence.lead} (first in ${sentence.firstRun})` : sentence.lead;
}

/** A failure group's facts in a line: '3 runs · 2 cases · 2026-11-20 to 2026-11-28'. */
export function groupFacts(group: Pick<FailureGroup, 'runs' | 'cases' | 'first_seen_at' | 'last_seen_at'>) {
  const runs = `${group.runs} run${group.runs === 1 ? '' : 's'}`;
  const cases = `${group.cases.length} case${group.cases.length === 1 ? '' : 's'}`;
  const first = isoDay(group.first_seen_at);
  const last = isoDay(group.last_seen_at);
  return `${runs} · ${cases} · ${first === last ? first : `${first} to ${last}`}`;
}
