import { type JsonObject, type TestCase, TestCaseListSchema, type TestMode } from '@argus/protocol';
import type { TestResultItem } from './results';
import { hostOf } from './validation';

/** What the screen needs to know of a stored session (the sessions store's client sessions fit). */
export interface StoredSession {
  id: string;
  type: string;
  status: string;
  updatedAt: string;
  url: string | null;
  settings: JsonObject;
  metadata: { [key: string]: unknown };
}

/** The screen as it was left: the last automation session with generated cases. */
export interface RestorePlan {
  sessionId: string;
  host: string;
  settings: JsonObject;
  url: string;
  mode: TestMode;
  command: string;
  testCases: TestCase[];
  engine: string | null;
  testRunId: string | null;
  results: TestResultItem[];
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}

function readResults(value: unknown): TestResultItem[] {
  if (!Array.isArray(value)) return [];
  const out: TestResultItem[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') continue;
    const { testName, status, executionTime, error } = item as Record<string, unknown>;
    if (typeof testName !== 'string' || (status !== 'passed' && status !== 'failed')) continue;
    out.push({
      testName,
      status,
      executionTime: typeof executionTime === 'number' && executionTime >= 0 ? executionTime : 0,
      error: typeof error === 'string' ? error : null,
    });
  }
  return out;
}

/**
 * Picks the most recently updated active automation session that holds generated cases, and reads
 * what the screen stored there (settings.testCases, metadata: engine, testRunId, executionResults).
 * Anything malformed is skipped rather than trusted.
 */
export function planRestore(sessions: readonly StoredSession[]): RestorePlan | null {
  const candidates = sessions
    .filter((session) => session.type === 'automation' && session.status === 'active')
    .slice()
    .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
  for (const session of candidates) {
    const { settings, metadata } = session;
    const parsed = TestCaseListSchema.safeParse(
      Array.isArray(settings.testCases) ? settings.testCases : metadata.testCases,
    );
    if (!parsed.success || parsed.data.length === 0) continue;
    const url = text(settings.url) ?? session.url;
    if (!url) continue;
    const mode: TestMode = settings.testMode === 'command' ? 'command' : 'full';
    return {
      sessionId: session.id,
      host: hostOf(url),
      settings,
      url,
      mode,
      command: mode === 'command' ? (text(settings.command) ?? '') : '',
      testCases: parsed.data,
      engine: text(metadata.engine),
      testRunId: text(metadata.testRunId),
      results: readResults(metadata.executionResults),
    };
  }
  return null;
}
