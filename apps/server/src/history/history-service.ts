import {
  type HistoryFilter,
  type HistoryRow,
  isUuid,
  type Repositories,
  type SuiteScope,
  type SuiteVersionRow,
  type TestResultRow,
} from '@argus/db';
import {
  CASE_STRIP_LENGTH,
  type CaseChange,
  type CaseComparison,
  type CaseHistory,
  type CaseHistoryQuerySchema,
  type CaseOutcome,
  type HistoryItem,
  type HistoryKind,
  type HistoryPage,
  type HistoryQuerySchema,
  type RunComparison,
  type StepDifference,
} from '@argus/protocol';
import type { z } from 'zod';
import { AppError } from '../errors';

// Test history (docs/HISTORY.md): the list of everything a user ran, a run compared with the previous
// run of its suite, and one case's recent results. The SQL is packages/db/src/history.ts.

type HistoryQuery = z.output<typeof HistoryQuerySchema>;
type CaseQuery = z.output<typeof CaseHistoryQuerySchema>;

const DAY_MS = 86_400_000;
const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** Filters only runs have: any of them leaves comparisons and conversations out. */
const RUN_ONLY = ['project_id', 'environment_id', 'suite_id', 'engine', 'trigger'] as const;

/** The opaque cursor: the last line's exact position and id, base64url. */
export function encodeCursor(row: { position: string; id: string }): string {
  return Buffer.from(`${row.position}|${row.id}`, 'utf8').toString('base64url');
}

/** The cursor's position and id, or a 422 naming `cursor` when it is not one this server gave. */
export function decodeCursor(cursor: string): { position: string; id: string } {
  const [position, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !position || !id || !POSITION.test(position) || !isUuid(id)) {
    throw new AppError('VALIDATION', [
      {
        loc: ['query', 'cursor'],
        msg: 'Not a cursor this server gave; start from the first page',
        type: 'value_error',
      },
    ]);
  }
  return { position, id };
}

/** A day or an instant as the inclusive start of a range (a bare date: that day's start, UTC). */
export function rangeStart(value: string): Date {
  return BARE_DATE.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
}
/** The exclusive end of a range: an instant as it is, a bare date includes its whole day (UTC). */
export function rangeEnd(value: string): Date {
  return BARE_DATE.test(value) ? new Date(Date.parse(`${value}T00:00:00Z`) + DAY_MS) : new Date(value);
}

/**
 * A failure message with what varies between occurrences folded, so one failure's repeats group
 * together: URL query strings, quoted values, UUIDs and hex ids, then numbers.
 */
export function failureSignature(message: string): string {
  return message
    .replace(/\?[^\s"'()]*=[^\s"'()]*/g, '?…')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b0x[0-9a-f]+\b/gi, '<id>')
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<id>')
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A result row's status as history shows it: anything that did not finish was skipped. */
export function caseOutcome(status: string | undefined): CaseOutcome {
  if (status === 'passed' || status === 'flaky') return status;
  if (status === 'failed' || status === 'error') return 'failed';
  return 'skipped';
}

/**
 * How a case fared against the previous run. A flaky case passed; a skipped one did not (a run
 * stopped before it reached the case did not show it works).
 */
export function caseChange(now: CaseOutcome | null, before: CaseOutcome | null): CaseChange {
  if (now === null) return 'removed';
  if (before === null) return 'new';
  const passes = (o: CaseOutcome) => o === 'passed' || o === 'flaky';
  if (passes(now)) return passes(before) ? 'still_passing' : 'fixed';
  return passes(before) ? 'new_failure' : 'still_failing';
}

interface StepView {
  action: string;
  status: string;
  error: string | null;
}
function stepView(step: unknown): StepView | null {
  if (!step || typeof step !== 'object') return null;
  const s = step as Record<string, unknown>;
  // A step's text is the line as written (description); the action kind is the fallback.
  const text = typeof s.description === 'string' && s.description ? s.description : s.action;
  return {
    action: typeof text === 'string' ? text : '',
    status: typeof s.status === 'string' ? s.status : '',
    error: typeof s.error === 'string' ? s.error : null,
  };
}

/** The first step (1-based) whose text or status differs between two results' steps; null if none. */
export function firstDifference(now: unknown[], before: unknown[]): StepDifference | null {
  const length = Math.max(now.length, before.length);
  for (let i = 0; i < length; i++) {
    const a = i < now.length ? stepView(now[i]) : null;
    const b = i < before.length ? stepView(before[i]) : null;
    if (a?.action !== b?.action || a?.status !== b?.status) return { step_number: i + 1, now: a, before: b };
  }
  return null;
}

/**
 * The latest saved version in which the case's steps changed from the version before (its first
 * version counts: that is when it was written).
 */
export function lastChange(versions: SuiteVersionRow[], name: string): SuiteVersionRow | null {
  let found: SuiteVersionRow | null = null;
  let previous: string | undefined;
  for (const version of versions) {
    const testCase = version.test_cases.find((c) => caseName(c) === name) as { steps?: unknown } | undefined;
    const steps = testCase ? JSON.stringify(testCase.steps ?? []) : undefined;
    if (steps !== undefined && steps !== previous) found = version;
    previous = steps;
  }
  return found;
}

function caseName(testCase: unknown): string | undefined {
  if (!testCase || typeof testCase !== 'object') return undefined;
  const c = testCase as Record<string, unknown>;
  const name = c.test_name ?? c.testName ?? c.name;
  return typeof name === 'string' ? name : undefined;
}

function item(row: HistoryRow): HistoryItem {
  const { position, test_suite_name: _name, run_status: _status, ...rest } = row;
  return {
    ...rest,
    status: rest.status as HistoryItem['status'],
    created_at: new Date(position).toISOString(),
  };
}

function scopeOf(run: {
  suite_id: string | null;
  environment_id: string | null;
  url: string | null;
  test_suite_name: string | null;
}): SuiteScope {
  return run.suite_id
    ? { suite_id: run.suite_id, environment_id: run.environment_id }
    : { url: run.url ?? '', test_suite_name: run.test_suite_name };
}

export class HistoryService {
  constructor(private readonly repos: Pick<Repositories, 'history' | 'testRuns' | 'users'>) {}

  /** One page of the user's history, newest first; `next_cursor` while more follow. */
  async list(userId: string, query: HistoryQuery): Promise<HistoryPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    let kinds: HistoryKind[] = query.kind ? [query.kind] : ['run', 'comparison', 'conversation'];
    if (RUN_ONLY.some((key) => query[key] !== undefined)) kinds = kinds.filter((k) => k === 'run');
    if (query.status === 'done') kinds = kinds.filter((k) => k !== 'run');
    else if (query.status) kinds = kinds.filter((k) => k === 'run');
    // An id that is no id matches nothing (the SQL compares uuids).
    const badId = (['project_id', 'environment_id', 'suite_id'] as const).some(
      (key) => query[key] !== undefined && !isUuid(query[key] as string),
    );
    if (badId || kinds.length === 0) return { items: [], next_cursor: null };
    const filter: HistoryFilter = {
      kinds,
      project_id: query.project_id,
      environment_id: query.environment_id,
      suite_id: query.suite_id,
      status: query.status === 'done' ? undefined : query.status,
      engine: query.engine,
      trigger: query.trigger,
      from: query.from ? rangeStart(query.from) : undefined,
      to: query.to ? rangeEnd(query.to) : undefined,
      q: query.q || undefined,
      after,
      limit: query.limit + 1,
    };
    const rows = await this.repos.history.list(userId, filter);
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(item),
      next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null,
    };
  }

  /** The run compared with the previous run of its suite, case by case. */
  async compareRun(userId: string, runId: string): Promise<RunComparison> {
    const { history, testRuns } = this.repos;
    const run = await history.run(userId, runId);
    if (!run) throw new AppError('TEST_RUN_NOT_FOUND');
    const previous = await history.previousRun(userId, run, scopeOf(run));
    const [nowRun, beforeRun, results] = await Promise.all([
      testRuns.get(userId, run.id),
      previous ? testRuns.get(userId, previous.id) : undefined,
      testRuns.results(userId, previous ? [run.id, previous.id] : [run.id]),
    ]);
    const cases = (runRow: { id: string; test_cases: unknown[] } | undefined) => {
      const byName = new Map<string, TestResultRow | undefined>();
      if (!runRow) return byName;
      for (const testCase of runRow.test_cases) {
        const name = caseName(testCase);
        if (name !== undefined && !byName.has(name)) byName.set(name, undefined);
      }
      // Oldest first: a later row of the same case wins.
      for (const result of results)
        if (result.test_run_id === runRow.id) byName.set(result.test_case_name, result);
      return byName;
    };
    const now = cases(nowRun);
    const before = cases(beforeRun);
    const comparisons: CaseComparison[] = [];
    const compare = (name: string) => {
      const a = now.has(name) ? caseOutcome(now.get(name)?.status) : null;
      const b = previous ? (before.has(name) ? caseOutcome(before.get(name)?.status) : null) : null;
      const change = previous ? caseChange(a, b) : 'new';
      const nowResult = now.get(name);
      const beforeResult = before.get(name);
      comparisons.push({
        name,
        change,
        status: a,
        previous_status: b,
        error: nowResult?.error_message ?? null,
        first_difference:
          nowResult && beforeResult ? firstDifference(nowResult.steps ?? [], beforeResult.steps ?? []) : null,
      });
    };
    for (const name of now.keys()) compare(name);
    for (const name of before.keys()) if (!now.has(name)) compare(name);
    const count = (change: CaseChange) => comparisons.filter((c) => c.change === change).length;
    // Runs from before organizations name no starter: their personal organization's id is the user's.
    const starter = nowRun ? await this.repos.users.findById(nowRun.started_by ?? nowRun.user_id) : undefined;
    return {
      run: item(run),
      started_by: starter?.username ?? null,
      previous: previous ? item(previous) : null,
      cases: comparisons,
      counts: {
        new_failures: count('new_failure'),
        fixed: count('fixed'),
        still_failing: count('still_failing'),
        new: count('new'),
        removed: count('removed'),
      },
    };
  }

  /** A case's last results in its suite, its failures grouped, and when its steps last changed. */
  async caseHistory(userId: string, query: CaseQuery): Promise<CaseHistory> {
    const { history, testRuns } = this.repos;
    let scope: SuiteScope;
    if (query.suite_id) {
      if (!(await history.ownsSuite(userId, query.suite_id))) throw new AppError('SUITE_NOT_FOUND');
      scope = { suite_id: query.suite_id, environment_id: null };
    } else if (query.run_id) {
      const run = await testRuns.get(userId, query.run_id);
      if (!run) throw new AppError('TEST_RUN_NOT_FOUND');
      scope = scopeOf(run);
    } else {
      throw new AppError('VALIDATION', [
        { loc: ['query', 'suite_id'], msg: 'Give suite_id or run_id', type: 'missing' },
      ]);
    }
    const suiteId = 'suite_id' in scope ? scope.suite_id : null;
    const [results, versions] = await Promise.all([
      history.caseResults(userId, query.name, scope, CASE_STRIP_LENGTH),
      suiteId ? history.suiteVersions(userId, suiteId) : Promise.resolve([]),
    ]);
    const groups = new Map<string, CaseHistory['failures'][number]>();
    // Newest first, so a group's first occurrence is its latest.
    for (const result of results) {
      if (caseOutcome(result.status) !== 'failed' || !result.error_message) continue;
      const message = failureSignature(result.error_message);
      const group = groups.get(message);
      if (group) group.count++;
      else {
        groups.set(message, {
          message,
          count: 1,
          last_seen: result.created_at.toISOString(),
          last_run_id: result.run_id,
        });
      }
    }
    const changed = suiteId ? lastChange(versions, query.name) : null;
    return {
      name: query.name,
      suite_id: suiteId,
      results: results.map((r) => ({
        run_id: r.run_id,
        created_at: r.created_at.toISOString(),
        status: caseOutcome(r.status),
        attempts: r.attempts,
        execution_time: r.execution_time,
        error: r.error_message,
        suite_version: r.suite_version,
      })),
      failures: [...groups.values()].sort(
        (a, b) => b.count - a.count || b.last_seen.localeCompare(a.last_seen),
      ),
      last_changed: changed
        ? {
            version: changed.version,
            saved_at: changed.saved_at.toISOString(),
            saved_by: changed.saved_by,
            change: changed.change,
          }
        : null,
    };
  }
}
