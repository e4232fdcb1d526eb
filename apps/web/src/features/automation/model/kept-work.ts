import type { ClauseCoverage, ExplorationSummary, ModelUsage, TestCase } from '@argus/protocol';
import type { TestResultItem } from './results';

/**
 * The cases and the last run's outcome: what the screen shows (AutomationState), keeps with its session
 * and reads back from it (SavedAutomation, session-record.ts). Declared once, for all three.
 */
export interface KeptWork {
  testCases: TestCase[];
  /** Which planner wrote the cases, as the server names it (e.g. 'builtin (rule-based, no LLM)'). */
  engine: string | null;
  /** What writing the cases cost in model calls; null for the built-in engine. */
  generationUsage: ModelUsage | null;
  /** Command mode: each clause of the command with the tests that cover it, or why none does. */
  commandCoverage: ClauseCoverage[] | null;
  /** What the generation explored by acting on the app, and what its budget left out. */
  exploration: ExplorationSummary | null;
  /** Which engine carries out the last run's steps, as execution_started / all_tests_completed name it. */
  runEngine: string | null;
  /** The last run's model calls, from all_tests_completed (all zero on a rerun replayed from the cache). */
  runUsage: ModelUsage | null;
  /** The test run the server created with the cases; sent back with every run. */
  testRunId: string | null;
  results: TestResultItem[];
}

/** Kept work as restored: sessions saved before coverage and exploration were kept have neither. */
export type RestoredWork = Omit<KeptWork, 'commandCoverage' | 'exploration'> &
  Partial<Pick<KeptWork, 'commandCoverage' | 'exploration'>>;

/** Just the kept work of something that holds more (a saved session's inputs, a restore action). */
export function keptWork(source: RestoredWork): KeptWork {
  return {
    testCases: source.testCases,
    engine: source.engine,
    generationUsage: source.generationUsage,
    commandCoverage: source.commandCoverage ?? null,
    exploration: source.exploration ?? null,
    runEngine: source.runEngine,
    runUsage: source.runUsage,
    testRunId: source.testRunId,
    results: source.results,
  };
}
