import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  isRunOver,
  type RunCaseResult,
  type RunEvent,
  RunEventSchema,
  type RunReport,
  RunReportSchema,
  type RunSavedSuite,
  RunStartedSchema,
} from '@argus/protocol';
import {
  type Connection,
  errorOf,
  HttpError,
  open,
  readText,
  requestJson,
  requestText,
  serverSentEvents,
} from './http';
import { repairLines } from './repair-lines';
import { CouldNotStart, checked, findEnvironment, findProject, findSuite, NoVerdict } from './resolve';
import { downloadTraces } from './traces';
import { type VisualMode, visualLines, visualToReview } from './visual-lines';

export interface RunOptions {
  project: string;
  suite: string;
  env?: string;
  junit?: string;
  json?: string;
  /** Where the traces of failed and flaky cases go (`--traces DIR`). */
  traces?: string;
  /** The branch the run's visual checks compare on first (`--branch`, checked); absent: the default one. */
  branch?: string;
  /** What visual changes to review do to the exit code (`--visual`). @default 'fail' */
  visual?: VisualMode;
  /** Where lines go (stdout); `error` for the reasons (stderr). */
  out: (line: string) => void;
  /** Warnings that change no verdict (a trace that could not be downloaded); stderr. */
  warn?: (line: string) => void;
  /** Set when Ctrl-C (or a CI's cancel) asks to stop: the run is cancelled. */
  signal: AbortSignal;
}

/**
 * The verdict of a run that ended: 0 every case passed, 1 otherwise. A flaky case (passed on a retry,
 * docs/CI.md#retries) passes: it is said in the summary, not failed. A run with visual changes waiting
 * for review is 'changes to review': 1 as well, unless `visual` is `report` (`--visual=report`).
 */
export function exitCodeOf(report: RunReport, { visual = 'fail' }: { visual?: VisualMode } = {}): 0 | 1 {
  const passes = new Set(['passed', 'flaky', 'skipped']);
  const allPassed =
    report.status === 'completed' &&
    report.failed_tests === 0 &&
    report.not_run.length === 0 &&
    report.results.every((result) => passes.has(result.status));
  if (!allPassed) return 1;
  return visual === 'fail' && visualToReview(report) > 0 ? 1 : 0;
}

const secondsText = (value: number | null) => (value === null ? '' : ` (${value.toFixed(1)} s)`);

/** One line per finished case: ✓, ~ (flaky) or ✗, its name, its time, the first line of its error. */
export function caseLine(result: RunCaseResult): string {
  const head = `${result.test_name}${secondsText(result.execution_time)}`;
  if (result.status === 'flaky') return `  ~ ${head}: flaky, passed on attempt ${result.attempts}`;
  const mark = result.status === 'passed' ? '✓' : result.status === 'skipped' ? '-' : '✗';
  const error = result.error?.trim().split('\n')[0];
  const tries = result.status === 'failed' && result.attempts > 1 ? ` (${result.attempts} attempts)` : '';
  return `  ${mark} ${head}${tries}${error && result.status !== 'passed' ? `: ${error}` : ''}`;
}

/** The summary line of a run that ended. */
export function summaryLine(report: RunReport): string {
  const failed = report.results.filter((r) => r.status === 'failed' || r.status === 'error').length;
  const passed = report.results.filter((r) => r.status === 'passed').length;
  const flaky = report.results.filter((r) => r.status === 'flaky').length;
  const parts = [`${passed} passed`, ...(flaky > 0 ? [`${flaky} flaky`] : []), `${failed} failed`];
  if (report.not_run.length > 0) parts.push(`${report.not_run.length} not run`);
  const time = report.execution_time === null ? '' : ` in ${report.execution_time.toFixed(1)} s`;
  return `${parts.join(', ')} of ${report.total_tests}${time}; run ${report.id} ${report.status}`;
}

/** Starts the suite's run, follows it to its end, writes the reports; answers the exit code. */
export async function runSuite(connection: Connection, options: RunOptions): Promise<number> {
  const { out } = options;
  const project = await findProject(connection, options.project);
  const environment = findEnvironment(project, options.env);
  const suite = await findSuite(connection, project, options.suite);
  let started: { test_run_id: string; environment_name: string };
  try {
    started = checked(
      RunStartedSchema,
      await requestJson(
        connection,
        'POST',
        `/api/projects/${encodeURIComponent(project.id)}/suites/${encodeURIComponent(suite.id)}/runs`,
        { body: startBody(environment.id, options.branch) },
      ),
      'the run started',
    );
  } catch (error) {
    // Refusals of the start itself (work already under way, a quota): nothing runs.
    if (error instanceof HttpError && error.status !== 401 && error.status !== 403)
      throw new CouldNotStart(`the server refused to start the run (${error.message})`);
    throw error;
  }
  const runId = started.test_run_id;
  const cases = suite.test_cases.length;
  const branch = options.branch ? ` on branch ${options.branch}` : '';
  out(
    `argus: running "${suite.name}" v${suite.version} (${cases} case${cases === 1 ? '' : 's'}) of "${project.name}" on ${started.environment_name} (${environment.base_url})${branch}, run ${runId}`,
  );

  const cancelled = new Promise<'cancelled'>((done) => {
    if (options.signal.aborted) done('cancelled');
    options.signal.addEventListener('abort', () => done('cancelled'), { once: true });
  });
  const follow = new RunFollower(connection, runId, out);
  const outcome = await Promise.race([follow.toTheEnd(options.signal), cancelled]);
  if (outcome === 'cancelled') {
    out(`argus: cancelling run ${runId}`);
    try {
      await requestJson(connection, 'POST', `/api/runs/${encodeURIComponent(runId)}/cancel`, {
        idleTimeoutMs: 10_000,
      });
      out(`argus: run ${runId} cancelled`);
    } catch (error) {
      out(`argus: could not cancel run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return 130;
  }
  const report = outcome;
  out(`argus: ${summaryLine(report)}`);
  for (const line of repairLines(report, connection.server)) out(line);
  for (const line of visualLines(report, connection.server)) out(line);
  await writeReports(connection, runId, options);
  if (options.traces)
    await downloadTraces(connection, runId, options.traces, { out, warn: options.warn ?? out });
  return exitCodeOf(report, { visual: options.visual });
}

/** The start's body (`RunSavedSuiteSchema`): the environment, and the branch when one is named. */
export function startBody(environmentId: string, branch: string | undefined): RunSavedSuite {
  return { environment_id: environmentId, ...(branch ? { branch } : {}) };
}

/** Downloads the server's reports of the run into the files asked for. */
async function writeReports(
  connection: Connection,
  runId: string,
  { junit, json, out }: Pick<RunOptions, 'junit' | 'json' | 'out'>,
): Promise<void> {
  const id = encodeURIComponent(runId);
  const downloads: [string | undefined, string, string][] = [
    [junit, `/api/runs/${id}/report.xml`, 'application/xml'],
    [json, `/api/runs/${id}/report.json`, 'application/json'],
  ];
  for (const [file, path, accept] of downloads) {
    if (!file) continue;
    let text: string;
    try {
      text = await requestText(connection, path, accept);
      if (accept === 'application/json') checked(RunReportSchema, JSON.parse(text), 'the JSON report');
    } catch (error) {
      throw new NoVerdict(
        `could not download ${path}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const target = resolve(file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
    out(`argus: wrote ${file}`);
  }
}

/** Lost the server while following a run: no verdict (exit 2). */
export class LostRun extends NoVerdict {}

/**
 * Follows a run to its end: the event stream (each case as it finishes), and, when the stream cannot be
 * opened or breaks, `GET /api/runs/{id}` every second. Prints each finished case once.
 */
class RunFollower {
  private printed = 0;
  /** The queue place last printed, so a waiting run's place is said once per change. */
  private place: number | null = null;

  constructor(
    private readonly connection: Connection,
    private readonly runId: string,
    private readonly out: (line: string) => void,
  ) {}

  /** `argus: queued, 2 ahead` while the run waits its turn, each time the number changes. */
  private standing(report: RunReport): void {
    if (report.status !== 'queued' || report.queue_position === undefined) return;
    if (report.queue_position === this.place) return;
    this.place = report.queue_position;
    this.out(`argus: queued, ${this.place} ahead`);
  }

  private show(results: RunCaseResult[]): void {
    for (const result of results.slice(this.printed)) this.out(caseLine(result));
    this.printed = Math.max(this.printed, results.length);
  }

  async toTheEnd(signal: AbortSignal): Promise<RunReport> {
    try {
      const report = await this.stream(signal);
      if (report) return report;
    } catch (error) {
      if (signal.aborted) throw error;
      // A refusal of the run itself is no reason to poll.
      if (error instanceof HttpError && [401, 403, 404].includes(error.status)) throw this.refused(error);
    }
    return this.poll(signal);
  }

  private refused(error: HttpError): Error {
    return new CouldNotStart(`the server answered ${error.message} for run ${this.runId}`);
  }

  /** The run's end from its event stream, or null when the stream ended without it. */
  private async stream(signal: AbortSignal): Promise<RunReport | null> {
    const path = `/api/runs/${encodeURIComponent(this.runId)}/events`;
    // A case may take TEST_TIMEOUT_MS (90 s by default) with nothing to say: past that, poll instead.
    const response = await open(this.connection, 'GET', path, {
      accept: 'text/event-stream',
      idleTimeoutMs: 150_000,
      signal,
    });
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      throw errorOf('GET', path, status, await readText(response).catch(() => ''));
    }
    for await (const message of serverSentEvents(response)) {
      let event: RunEvent;
      try {
        event = RunEventSchema.parse({ type: message.event, ...JSON.parse(message.data) });
      } catch {
        continue; // an event this version does not know
      }
      if (event.type === 'run') {
        this.standing(event.run);
        this.show(event.run.results);
      } else if (event.type === 'case_finished') {
        this.out(caseLine(event.result));
        this.printed++;
      } else {
        this.show(event.run.results);
        response.destroy();
        return event.run;
      }
    }
    return null;
  }

  /** `GET /api/runs/{id}` every second until the run is over; the server lost for a minute: LostRun. */
  private async poll(signal: AbortSignal): Promise<RunReport> {
    const path = `/api/runs/${encodeURIComponent(this.runId)}`;
    let failingSince: number | null = null;
    for (;;) {
      try {
        const report = checked(
          RunReportSchema,
          await requestJson(this.connection, 'GET', path, { signal }),
          'the run',
        );
        failingSince = null;
        this.standing(report);
        this.show(report.results);
        if (isRunOver(report.status)) return report;
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof HttpError && [401, 403, 404].includes(error.status)) throw this.refused(error);
        failingSince ??= Date.now();
        if (Date.now() - failingSince > 60_000) {
          throw new LostRun(
            `lost the server while following run ${this.runId}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      await sleep(1000, undefined, { signal }).catch(() => {});
      if (signal.aborted) throw new Error('cancelled');
    }
  }
}
