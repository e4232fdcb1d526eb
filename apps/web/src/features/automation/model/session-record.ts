import {
  ClauseCoverageSchema,
  ExplorationSummarySchema,
  type JsonObject,
  SUITE_MAX_RETRIES,
  TestCaseListSchema,
  type TestMode,
} from '@argus/protocol';
import type { ScreenSessionMetadata, StoredSession } from '../../../lib/sessions/screen-session';
import type { AutomationState } from './automation-state';
import type { KeptWork } from './kept-work';
import { type ProjectSelection, readSelection, selectionSettings } from './project-target';
import type { TestResultItem } from './results';
import { logsForStorage } from './step-log';
import { readUsage } from './usage';

/** What the screen stored in an automation session: its inputs, its cases and its last run's results. */
export interface SavedAutomation extends KeptWork {
  url: string;
  mode: TestMode;
  command: string;
  /** The project environment the work ran on (none: a bare URL). */
  project: ProjectSelection;
  /** How many times a failed case runs again (docs/HISTORY.md#retries). */
  retries: number;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}

function readResults(value: unknown): TestResultItem[] {
  if (!Array.isArray(value)) return [];
  const out: TestResultItem[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') continue;
    const { testName, status, executionTime, error, attempts, maxAttempts } = item as Record<string, unknown>;
    if (typeof testName !== 'string' || (status !== 'passed' && status !== 'failed' && status !== 'flaky'))
      continue;
    const count = (value: unknown) =>
      typeof value === 'number' && Number.isInteger(value) && value > 1 ? value : 0;
    out.push({
      testName,
      status,
      executionTime: typeof executionTime === 'number' && executionTime >= 0 ? executionTime : 0,
      error: typeof error === 'string' ? error : null,
      ...(count(attempts) ? { attempts: count(attempts) } : {}),
      ...(count(maxAttempts) ? { maxAttempts: count(maxAttempts) } : {}),
    });
  }
  return out;
}

/**
 * Reads what the screen stored in a session (settings.testCases, else metadata.testCases; settings:
 * url, testMode, command, project; metadata: engine, generationUsage, commandCoverage, exploration, runEngine,
 * runUsage, testRunId, executionResults). Null when it holds no
 * generated cases or no URL; anything malformed is skipped rather than trusted.
 */
export function readAutomationSession({
  settings,
  metadata,
  url: sessionUrl,
}: StoredSession): SavedAutomation | null {
  const parsed = TestCaseListSchema.safeParse(
    Array.isArray(settings.testCases) ? settings.testCases : metadata.testCases,
  );
  if (!parsed.success || parsed.data.length === 0) return null;
  const url = text(settings.url) ?? sessionUrl;
  if (!url) return null;
  const mode: TestMode = settings.testMode === 'command' ? 'command' : 'full';
  return {
    url,
    mode,
    command: mode === 'command' ? (text(settings.command) ?? '') : '',
    testCases: parsed.data,
    engine: text(metadata.engine),
    generationUsage: readUsage(metadata.generationUsage),
    commandCoverage: ClauseCoverageSchema.array().max(50).safeParse(metadata.commandCoverage).data ?? null,
    exploration: ExplorationSummarySchema.safeParse(metadata.exploration).data ?? null,
    runEngine: text(metadata.runEngine),
    runUsage: readUsage(metadata.runUsage),
    testRunId: text(metadata.testRunId),
    results: readResults(metadata.executionResults),
    project: readSelection(settings.project),
    retries: readRetries(settings.retries),
  };
}

/** A stored Retries choice; anything else is none. */
function readRetries(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= SUITE_MAX_RETRIES
    ? value
    : 0;
}

/** The inputs kept with the cases that the state does not hold. */
export interface RecordInputs {
  mode: TestMode;
  command: string;
  selection: ProjectSelection;
}

/**
 * What `readAutomationSession` reads back, as the screen keeps it with its session (settings, then
 * metadata; docs/PRODUCT.md#sessions: no screenshots). `withResults`: the last run's results, log
 * and summary too (after a run, not after a generation).
 */
export function automationRecord(
  snapshot: AutomationState,
  inputs: RecordInputs,
  withResults: boolean,
): [settings: JsonObject, metadata: ScreenSessionMetadata] {
  return [
    {
      testMode: snapshot.generationMode ?? inputs.mode,
      command: inputs.command.trim() || null,
      url: snapshot.targetUrl,
      testCases: snapshot.testCases,
      ...selectionSettings(inputs.selection),
    },
    {
      testCases: snapshot.testCases,
      engine: snapshot.engine,
      generationUsage: snapshot.generationUsage,
      commandCoverage: snapshot.commandCoverage,
      exploration: snapshot.exploration,
      testRunId: snapshot.testRunId,
      ...(withResults
        ? {
            runEngine: snapshot.runEngine,
            runUsage: snapshot.runUsage,
            executionResults: snapshot.results,
            logs: logsForStorage(snapshot.log),
            summary: { runTime: snapshot.runTime, status: snapshot.status },
          }
        : {}),
    },
  ];
}
