import { type StepStatus, StepUpdateSchema } from '@argus/protocol';

// A stored result keeps its steps as the step updates the run sent (a pending update, then its
// success or error). The case view needs one line per step, indexed as console and network entries
// are (0-based `step_index`), to put each entry under the step that was running.

/** One step of a case as the diagnostics view heads its entries with. */
export interface CaseStep {
  /** 0-based, as `step_index` of console and network entries. */
  index: number;
  /** The step line as written in the case (its first update's description), else its action. */
  line: string;
  status: StepStatus;
  error: string | null;
}

/**
 * The steps of a stored result, in order, one per index: later updates of a step give its status and
 * error, its first its line. Unreadable updates are left out.
 */
export function caseSteps(updates: readonly unknown[]): CaseStep[] {
  const steps = new Map<number, CaseStep>();
  for (const raw of updates) {
    const parsed = StepUpdateSchema.safeParse(raw);
    if (!parsed.success) continue;
    const update = parsed.data;
    // The server sends step_index; older runs only the 1-based step_number.
    const index = update.step_index ?? Math.max(0, update.step_number - 1);
    const previous = steps.get(index);
    steps.set(index, {
      index,
      line: previous?.line ?? (update.description || update.action),
      status: update.status,
      error: update.error || null,
    });
  }
  return [...steps.values()].sort((a, b) => a.index - b.index);
}

/** 'Step 3: Click "Place order"'; entries logged before the first step read 'Before the first step'. */
export function stepHeading(index: number | null, steps: readonly CaseStep[]): string {
  if (index === null) return 'Before the first step';
  const step = steps.find((s) => s.index === index);
  return step ? `Step ${index + 1}: ${step.line}` : `Step ${index + 1}`;
}

/** Where a page-health finding's entries are: a console check's, or a failed-request check's. */
export type FindingTab = 'console' | 'network';

/**
 * The tab holding the entries a step's page-health finding reports, from the words the engine's checks
 * fail with (packages/engine/src/steps/page-check-verbs.ts): 'Console error on <page>: <message>' and
 * 'Failed request: <message>'; null for any other error.
 */
export function findingTab(error: string | null): FindingTab | null {
  if (!error) return null;
  if (/(^|\n)Console error on /.test(error)) return 'console';
  if (/(^|\n)Failed request: /.test(error)) return 'network';
  return null;
}

/**
 * Whether an entry is one a finding names: the console message, or the request's URL, appears in the
 * step's error (which quotes them as the page tracker saw them).
 */
export function namedByFinding(error: string, entry: { text: string } | { url: string }): boolean {
  const quoted = 'text' in entry ? entry.text : entry.url;
  return quoted.trim().length > 0 && error.includes(quoted.trim());
}
