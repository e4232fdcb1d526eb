import type { CaseFailure, ElementKey, RepairEvidence, TestCase, Weakening } from '@argus/protocol';
import type { BrowserSession } from '../browser-session';
import type { CapturedScreenshot, RunTestOptions, TestOutcome } from '../test-runner';

/**
 * The contract between the server and the engine's repairs (docs/REPAIRS.md): a failed case of a saved
 * suite in, a verdict out. The engine explores and proves through `run` (the run's own executor, so a
 * signed-in run's repairs are signed in too); it never touches the database.
 */

/** Runs a case in a fresh browser as the run does (`runTestCase` over the pool, signed in when the run is). */
export type RepairCaseRunner = (
  testCase: TestCase,
  options: Pick<RunTestOptions, 'signal' | 'onSession' | 'atEnd' | 'screenshots' | 'onStep'>,
) => Promise<TestOutcome>;

/** A rename a proved repair of the suite made (renames.ts reads them off its lines). */
export interface Rename {
  /** The old name, as the saved case wrote it. */
  from: string;
  /** The name the proved repair put in its place. */
  to: string;
  /** The case whose proved repair showed it (named in the evidence). */
  seenIn: string;
}

/** A failed case, as its run left it. */
export interface RepairRequest {
  /** The case as the run ran it (the suite's steps; relative URLs resolve against the run's base URL). */
  testCase: TestCase;
  /** The final attempt's label; only `not_found` and a changed text the step names are repairable. */
  failure: CaseFailure;
  /** The final attempt's error (secrets hidden). */
  error: string;
  /**
   * What the case's last passing run left, when there is one: per step, the selector that matched
   * (`button:name="Add" exact`), the page URL and the element's stable attributes (element-key.ts). Null: never passed (a repair is still tried).
   */
  lastPassing: {
    steps: { index: number; selector: string | null; url: string | null; element?: ElementKey | null }[];
  } | null;
  /** Repairs of this case rejected before: one with the same page state and steps is not proposed again. */
  rejected: { page_state: string; after: string[] }[];
  /**
   * Renames the suite's other proved repairs made (`renamesOf`, renames.ts): a target one of them
   * renamed is looked for under its new name first. Optional: none known.
   */
  renames?: Rename[];
}

/** The model's side of a repair (the LLM engine; @argus/ai implements it). */
export interface RepairProposer {
  /** Shown as the proposal's engine. */
  readonly engine: string;
  /**
   * Lines to put in place of the failed step (one or more step-language lines), from the page as it
   * is now and the step's last passing evidence; null when the model finds none.
   */
  propose(
    session: BrowserSession,
    input: { steps: string[]; failedIndex: number; error: string; lastSelector: string | null },
    context: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<{ lines: string[]; reason: string } | null>;
}

export interface RepairOptions {
  run: RepairCaseRunner;
  signal?: AbortSignal;
  /** The LLM engine's proposer; absent: the built-in engine's rules alone. */
  proposer?: RepairProposer;
  /** Candidates proved at most (each proof is a run of the case). @default 3 */
  maxProofs?: number;
}

/** The engine's answer. `page_state` keys a rejection: the failed step's page, its controls' roles and names, hashed. */
export type RepairOutcome =
  | {
      verdict: 'repair' | 'weakens';
      /** The repaired case's steps (the whole list, as saved). */
      after: string[];
      /** The failed step (0-based, in the case's own steps). */
      stepIndex: number;
      weakenings: Weakening[];
      evidence: RepairEvidence;
      page_state: string;
      /** The proof's screenshot of the repaired step (the page as it left it). */
      screenshot: CapturedScreenshot | null;
    }
  | {
      verdict: 'bug';
      stepIndex: number | null;
      evidence: RepairEvidence;
      page_state: string | null;
    };
