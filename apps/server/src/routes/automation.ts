import type { CaseArtifactRow, TestResultRow, TestRunRow } from '@argus/db';
import {
  type CaseArtifact,
  IdParamsSchema,
  TestResultRecordSchema,
  TestRunCreateSchema,
  type TestRunDetail,
  TestRunDetailSchema,
  TestRunListQuerySchema,
  TestRunListSchema,
  type TestRunStatus,
  TestRunUpdateSchema,
} from '@argus/protocol';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Services } from '../app-services';
import { checkSessionOwner, ownTestRun } from '../auth/ownership';
import { caseArtifacts, publicOrigin } from '../diagnostics/artifact-links';
import { runSightings, type SightingsByFingerprint, seenOf } from '../diagnostics/failure-sightings';
import { caseFailureOf, diagnosticsSummaryOf } from '../diagnostics/result-failure';
import { AppError } from '../errors';
import { checkRunSize } from '../limits/quotas';
import { routeGroup, routeOf, routePlugin } from './route-group';

export function toApiTestRun(
  row: TestRunRow,
  results: TestResultRow[] = [],
  /** Signed links to the run's screenshots (`services.urls.screenshot`). */
  screenshotPaths: string[] = [],
  /** Its failures' sightings in its project (`runSightings`); none on a list page. */
  sightings: SightingsByFingerprint = new Map(),
  /** Each result's kept traces and videos, with signed links (`caseArtifacts`). */
  artifactsOf: (result: TestResultRow) => CaseArtifact[] = () => [],
): TestRunDetail {
  return {
    id: row.id,
    session_id: row.session_id,
    user_id: row.user_id,
    url: row.url,
    target_url: row.target_url,
    test_suite_name: row.test_suite_name,
    test_cases: row.test_cases,
    status: row.status as TestRunStatus,
    started_at: row.started_at?.toISOString() ?? null,
    completed_at: row.completed_at?.toISOString() ?? null,
    execution_time_seconds: row.execution_time_seconds,
    total_tests: row.total_tests,
    passed_tests: row.passed_tests,
    failed_tests: row.failed_tests,
    flaky_tests: row.flaky_tests,
    test_results: results.map((r) => ({
      id: r.id,
      test_case_id: r.test_case_id,
      test_case_name: r.test_case_name,
      status: r.status,
      execution_time: r.execution_time,
      attempts: r.attempts,
      error_message: r.error_message,
      failure: caseFailureOf(r),
      seen: seenOf(r, sightings),
      artifacts: artifactsOf(r),
      diagnostics: diagnosticsSummaryOf(r),
      steps: r.steps,
      logs: r.logs,
      screenshots: r.screenshots,
      created_at: r.created_at.toISOString(),
    })),
    screenshots_paths: screenshotPaths,
    execution_log: row.execution_log,
    engine: row.engine,
    test_mode: row.test_mode,
    command: row.command,
    created_at: row.created_at.toISOString(),
    usage: {
      model_calls: row.model_calls,
      input_tokens: row.input_tokens,
      output_tokens: row.output_tokens,
      cost_usd: row.cost_usd,
    },
  };
}

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type AutomationRouteServices = Pick<Services, 'repos' | 'urls' | 'automation'> & {
  config: Pick<Services['config'], 'maxCasesPerRun' | 'maxStepsPerCase' | 'publicUrl'>;
};

/** Where the run's file links point (absolute: the trace viewer's service worker fetches them). */
const originOf = (request: FastifyRequest, services: AutomationRouteServices) =>
  publicOrigin(request, services.config.publicUrl);

/** Each result's kept traces and videos, signed now, from the files of its run. */
function artifactsFrom(services: AutomationRouteServices, rows: CaseArtifactRow[], origin: string) {
  return (result: TestResultRow) =>
    caseArtifacts(
      services.urls,
      rows.filter((a) => a.test_run_id === result.test_run_id && a.test_case_name === result.test_case_name),
      result.id,
      origin,
    );
}

/** A run with its results and signed links to its screenshots. */
async function fullRun(services: AutomationRouteServices, orgId: string, row: TestRunRow, origin: string) {
  const runs = services.repos.testRuns;
  const [results, shots, files] = await Promise.all([
    runs.results(orgId, row.id),
    runs.screenshots(orgId, [row.id]),
    services.repos.caseArtifacts.forRun(orgId, row.id),
  ]);
  return toApiTestRun(
    row,
    results,
    shots.map((s) => services.urls.screenshot(s.id, orgId)),
    await runSightings(services.repos.failureGroups, orgId, row, results),
    artifactsFrom(services, files, origin),
  );
}

/** A page of runs: two queries for the whole page, not two per run. */
async function runPage(services: AutomationRouteServices, orgId: string, rows: TestRunRow[], origin: string) {
  const runs = services.repos.testRuns;
  const ids = rows.map((row) => row.id);
  const [results, shots, files] = await Promise.all([
    runs.results(orgId, ids),
    runs.screenshots(orgId, ids),
    services.repos.caseArtifacts.forRuns(orgId, ids),
  ]);
  const artifactsOf = artifactsFrom(services, files, origin);
  return rows.map((row) =>
    toApiTestRun(
      row,
      results.filter((r) => r.test_run_id === row.id),
      shots.filter((s) => s.test_run_id === row.id).map((s) => services.urls.screenshot(s.id, orgId)),
      undefined,
      artifactsOf,
    ),
  );
}

type RunUpdate = z.output<typeof TestRunUpdateSchema>;

/** A run's changed fields and, when results are sent, their counts (unless given) and the results themselves. */
async function updateRun(
  services: AutomationRouteServices,
  orgId: string,
  id: string,
  body: RunUpdate,
  origin: string,
) {
  const runs = services.repos.testRuns;
  const { completed_at, test_results, ...rest } = body;
  await ownTestRun(services.repos, orgId, id);
  const counts = test_results
    ? {
        passed_tests: rest.passed_tests ?? test_results.filter((r) => r.status === 'passed').length,
        failed_tests: rest.failed_tests ?? test_results.filter((r) => r.status === 'failed').length,
      }
    : {};
  if (test_results) {
    await runs.replaceResults(
      orgId,
      id,
      test_results.map((r) => ({
        test_case_id: r.test_case.id ?? null,
        test_case_name: r.test_case.test_name,
        status: r.status,
        execution_time: r.execution_time,
        error_message: r.error ?? null,
        steps: [],
        logs: r.logs,
        screenshots: r.screenshots,
      })),
    );
  }
  const row = await runs.update(orgId, id, {
    ...rest,
    ...counts,
    ...(completed_at !== undefined ? { completed_at: completed_at ? new Date(completed_at) : null } : {}),
  });
  if (!row) throw new AppError('TEST_RUN_NOT_FOUND');
  return fullRun(services, orgId, row, origin);
}

/** The automation endpoints of docs/PRODUCT.md#http-api, owner-scoped. The server also writes these records itself during a run. */
const route = routeOf<AutomationRouteServices>();

export const AUTOMATION_ROUTES = routeGroup('/api/automation', [
  route({
    method: 'POST',
    path: '/test-runs',
    summary: 'Record a test run',
    tag: 'Automation',
    body: TestRunCreateSchema,
    status: 201,
    response: TestRunDetailSchema,
    handle: async ({ org, user, body }, services) => {
      checkRunSize(body.test_cases ?? [], services.config, { loc: ['body', 'test_cases'] });
      await checkSessionOwner(services.repos, user.id, body.session_id);
      const row = await services.repos.testRuns.create(org.id, {
        started_by: user.id,
        session_id: body.session_id ?? null,
        url: body.url,
        target_url: body.target_url ?? body.url,
        test_suite_name: body.test_suite_name ?? null,
        test_cases: body.test_cases ?? [],
        total_tests: body.test_cases?.length ?? 0,
        status: body.status ?? 'pending',
        started_at: body.status === 'running' ? new Date() : null,
      });
      return toApiTestRun(row);
    },
  }),
  route({
    method: 'GET',
    path: '/test-runs',
    summary: 'Recorded test runs',
    tag: 'Automation',
    query: TestRunListQuerySchema,
    response: TestRunListSchema,
    handle: async ({ org, query, request }, services) =>
      runPage(
        services,
        org.id,
        await services.repos.testRuns.list(org.id, query),
        originOf(request, services),
      ),
  }),
  route({
    method: 'GET',
    path: '/test-runs/:id',
    summary: 'A recorded test run',
    tag: 'Automation',
    params: IdParamsSchema,
    response: TestRunDetailSchema,
    handle: async ({ org, params, request }, services) =>
      fullRun(
        services,
        org.id,
        await ownTestRun(services.repos, org.id, params.id),
        originOf(request, services),
      ),
  }),
  route({
    method: 'PUT',
    path: '/test-runs/:id',
    summary: 'Change a recorded test run',
    tag: 'Automation',
    params: IdParamsSchema,
    body: TestRunUpdateSchema,
    response: TestRunDetailSchema,
    handle: async ({ org, params, body, request }, services) =>
      updateRun(services, org.id, params.id, body, originOf(request, services)),
  }),
  /**
   * Not in the spec: deletes a run with its results and screenshots, which frees their bytes from the
   * user's MAX_STORED_BYTES_PER_USER. A run still under way must be stopped first.
   */
  route({
    method: 'DELETE',
    path: '/test-runs/:id',
    summary: 'Delete a recorded test run',
    tag: 'Automation',
    params: IdParamsSchema,
    status: 204,
    handle: async ({ org, user, params: { id } }, services) => {
      await ownTestRun(services.repos, org.id, id);
      if ((await services.automation.activeRun(user.id)) === id) {
        throw new AppError('BAD_REQUEST', 'This test run is still in progress. Stop it before deleting it.');
      }
      if (!(await services.repos.testRuns.delete(org.id, id))) throw new AppError('TEST_RUN_NOT_FOUND');
    },
  }),
  route({
    method: 'POST',
    path: '/test-results',
    summary: 'Record a test result',
    tag: 'Automation',
    body: TestResultRecordSchema,
    status: 201,
    handle: async ({ org, body }, services) => {
      const runs = services.repos.testRuns;
      const run = await ownTestRun(services.repos, org.id, body.test_run_id);
      const row = await runs.addResult(org.id, run.id, {
        test_case_id: null,
        test_case_name: body.test_case_name,
        status: body.status,
        execution_time: body.execution_time ?? null,
        error_message: body.error_message ?? null,
        steps: [],
        logs: body.logs ?? [],
        screenshots: body.screenshots ?? [],
      });
      if (body.status === 'passed' || body.status === 'failed') {
        await runs.countResult(org.id, run.id, body.status === 'passed');
      }
      return {
        id: row.id,
        test_run_id: run.id,
        test_case_name: row.test_case_name,
        status: row.status,
        created_at: row.created_at.toISOString(),
      };
    },
  }),
]);

export const automationRoutes = routePlugin(AUTOMATION_ROUTES);
