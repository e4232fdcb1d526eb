import type { TestResultRow, TestRunRow } from '@argus/db';
import {
  IdParamsSchema,
  TestResultRecordSchema,
  TestRunCreateSchema,
  type TestRunDetail,
  TestRunListQuerySchema,
  type TestRunStatus,
  TestRunUpdateSchema,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { checkSessionOwner, ownTestRun } from '../auth/ownership';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { checkRunSize } from '../limits/quotas';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

export function toApiTestRun(
  row: TestRunRow,
  results: TestResultRow[] = [],
  /** Signed links to the run's screenshots (`services.urls.screenshot`). */
  screenshotPaths: string[] = [],
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
  config: Pick<Services['config'], 'maxCasesPerRun' | 'maxStepsPerCase'>;
};

/** The automation endpoints of docs/PRODUCT.md#http-api, owner-scoped. The server also writes these records itself during a run. */
export async function automationRoutes(app: FastifyInstance, services: AutomationRouteServices) {
  const runs = services.repos.testRuns;
  app.addHook('preHandler', app.requireUser);

  const full = async (userId: string, row: TestRunRow) => {
    const [results, shots] = await Promise.all([
      runs.results(userId, row.id),
      runs.screenshots(userId, [row.id]),
    ]);
    return toApiTestRun(
      row,
      results,
      shots.map((s) => services.urls.screenshot(s.id, userId)),
    );
  };

  app.post('/test-runs', async (request, reply) => {
    const body = parseWith(TestRunCreateSchema, request.body, 'body');
    checkRunSize(body.test_cases ?? [], services.config, { loc: ['body', 'test_cases'] });
    const user = currentUser(request);
    await checkSessionOwner(services.repos, user.id, body.session_id);
    const row = await runs.create(user.id, {
      session_id: body.session_id ?? null,
      url: body.url,
      target_url: body.target_url ?? body.url,
      test_suite_name: body.test_suite_name ?? null,
      test_cases: body.test_cases ?? [],
      total_tests: body.test_cases?.length ?? 0,
      status: body.status ?? 'pending',
      started_at: body.status === 'running' ? new Date() : null,
    });
    return reply.code(201).send(toApiTestRun(row));
  });

  app.get('/test-runs', async (request) => {
    const query = parseWith(TestRunListQuerySchema, request.query, 'query');
    const userId = currentUser(request).id;
    const rows = await runs.list(userId, query);
    // Two queries for the whole page, not two per run.
    const ids = rows.map((row) => row.id);
    const [results, shots] = await Promise.all([runs.results(userId, ids), runs.screenshots(userId, ids)]);
    return rows.map((row) =>
      toApiTestRun(
        row,
        results.filter((r) => r.test_run_id === row.id),
        shots.filter((s) => s.test_run_id === row.id).map((s) => services.urls.screenshot(s.id, userId)),
      ),
    );
  });

  app.get('/test-runs/:id', async (request) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const user = currentUser(request);
    return full(user.id, await ownTestRun(services.repos, user.id, id));
  });

  app.put('/test-runs/:id', async (request) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(TestRunUpdateSchema, request.body, 'body');
    const user = currentUser(request);
    const { completed_at, test_results, ...rest } = body;
    await ownTestRun(services.repos, user.id, id);
    const counts = test_results
      ? {
          passed_tests: rest.passed_tests ?? test_results.filter((r) => r.status === 'passed').length,
          failed_tests: rest.failed_tests ?? test_results.filter((r) => r.status === 'failed').length,
        }
      : {};
    if (test_results) {
      await runs.replaceResults(
        user.id,
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
    const row = await runs.update(user.id, id, {
      ...rest,
      ...counts,
      ...(completed_at !== undefined ? { completed_at: completed_at ? new Date(completed_at) : null } : {}),
    });
    if (!row) throw new AppError('TEST_RUN_NOT_FOUND');
    return full(user.id, row);
  });

  /**
   * Not in the spec: deletes a run with its results and screenshots, which frees their bytes from the
   * user's MAX_STORED_BYTES_PER_USER. A run still under way must be stopped first.
   */
  app.delete('/test-runs/:id', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const user = currentUser(request);
    await ownTestRun(services.repos, user.id, id);
    if ((await services.automation.activeRun(user.id)) === id) {
      throw new AppError('BAD_REQUEST', 'This test run is still in progress. Stop it before deleting it.');
    }
    if (!(await runs.delete(user.id, id))) throw new AppError('TEST_RUN_NOT_FOUND');
    return reply.code(204).send();
  });

  app.post('/test-results', async (request, reply) => {
    const body = parseWith(TestResultRecordSchema, request.body, 'body');
    const user = currentUser(request);
    const run = await ownTestRun(services.repos, user.id, body.test_run_id);
    const row = await runs.addResult(user.id, run.id, {
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
      await runs.countResult(user.id, run.id, body.status === 'passed');
    }
    return reply.code(201).send({
      id: row.id,
      test_run_id: run.id,
      test_case_name: row.test_case_name,
      status: row.status,
      created_at: row.created_at.toISOString(),
    });
  });
}
