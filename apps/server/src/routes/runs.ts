import type { TestRunRow } from '@argus/db';
import { IdParamsSchema, isRunOver, type RunEvent, type RunReport, RunReportSchema } from '@argus/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../app-services';
import { withQueuePlace } from '../automation/queue-place';
import { publicOrigin } from '../diagnostics/artifact-links';
import { caseTraces } from '../diagnostics/failure-traces';
import { AppError } from '../errors';
import { junitXml, runReport } from '../runs/run-report';
import { SECURITY_HEADERS } from '../security-headers';
import { mountRoutes, routeGroup, routeOf } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type RunRouteServices = Pick<Services, 'repos' | 'automation' | 'urls'> & {
  /** PUBLIC_URL: where a report's trace links point; else the request's origin. */
  publicUrl: string | null;
};

/** How often an event stream reads the run again: a case's result reaches CI within this. */
const EVENT_POLL_MS = 500;
/** A comment line this often keeps proxies from closing a stream that has nothing to say for a while. */
const KEEP_ALIVE_MS = 15_000;
/** Event streams open at once per user: enough for every pipeline, not a way to hold the server's sockets. */
export const MAX_EVENT_STREAMS_PER_USER = 20;

async function report(
  services: RunRouteServices,
  request: FastifyRequest,
  userId: string,
  id: string,
): Promise<RunReport> {
  const run = await services.repos.testRuns.get(userId, id);
  if (!run) throw new AppError('TEST_RUN_NOT_FOUND');
  // A run waiting its turn reads `queued`, with its place in line.
  return withQueuePlace(services.automation, await reportOf(services, request, userId, run));
}
/** The run's report, each case with its last kept trace's link (absolute: CI jobs follow it). */
async function reportOf(
  { repos, urls, publicUrl }: RunRouteServices,
  request: FastifyRequest,
  userId: string,
  run: TestRunRow,
): Promise<RunReport> {
  const [results, artifacts, repairs, visual] = await Promise.all([
    repos.testRuns.results(userId, run.id),
    repos.caseArtifacts.forRun(userId, run.id),
    repos.caseRepairs.forRun(userId, run.id),
    run.visual_to_review > 0 ? repos.visual.forRun(userId, run.id) : [],
  ]);
  const traces = caseTraces(urls, artifacts, results, publicOrigin(request, publicUrl));
  const pending = visual.map((row) => row.check).filter((check) => check.review === 'pending');
  return runReport(run, results, traces, { rows: repairs, publicUrl }, pending);
}

/** What the routes hold besides the services: the event streams open per user. */
type RunRouteDeps = RunRouteServices & { streams: Map<string, number> };

/**
 * The run API a CI job drives (docs/CI.md#the-run-api): a run's status and results, its progress as
 * server-sent events, its cancellation, and its report as JSON or JUnit XML. Runs are started by
 * `POST /api/projects/{id}/suites/{suite}/runs`. Every route is owner-scoped: another user's run
 * answers 404 like a missing one. The stream reads the database, so it follows a run whichever
 * process records it.
 */
const route = routeOf<RunRouteDeps>();

export const RUN_ROUTES = routeGroup('/api/runs', [
  route({
    method: 'GET',
    path: '/:id',
    summary: "A run's status and results",
    tag: 'Runs',
    params: IdParamsSchema,
    response: RunReportSchema,
    handle: async ({ request, org, params }, services) => report(services, request, org.id, params.id),
  }),
  route({
    method: 'GET',
    path: '/:id/report.json',
    summary: "The run's report as JSON",
    tag: 'Runs',
    params: IdParamsSchema,
    response: RunReportSchema,
    handle: async ({ request, org, reply, params: { id } }, services) => {
      const body = await report(services, request, org.id, id);
      return reply.header('content-disposition', `attachment; filename="argus-run-${id}.json"`).send(body);
    },
  }),
  route({
    method: 'GET',
    path: '/:id/report.xml',
    summary: "The run's report as JUnit XML",
    tag: 'Runs',
    params: IdParamsSchema,
    media: { type: 'application/xml', description: 'JUnit XML: one testsuite, one testcase per case' },
    handle: async ({ request, org, reply, params: { id } }, services) => {
      const origin = publicOrigin(request, services.publicUrl);
      const body = junitXml(await report(services, request, org.id, id), origin);
      return reply
        .type('application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="argus-run-${id}.xml"`)
        .send(body);
    },
  }),
  // Stops the run if it is the one under way for its owner; a run already over is answered as it is.
  route({
    method: 'POST',
    path: '/:id/cancel',
    summary: 'Stop a run (202); a run already over is answered as it is (200, its report)',
    tag: 'Runs',
    scope: 'run',
    params: IdParamsSchema,
    status: 202,
    response: z.object({ test_run_id: z.string(), status: z.literal('stopping') }),
    handle: async ({ request, reply, org, params: { id } }, services) => {
      const { repos, automation } = services;
      const run = await repos.testRuns.get(org.id, id);
      if (!run) throw new AppError('TEST_RUN_NOT_FOUND');
      if (isRunOver(run.status)) return reply.code(200).send(await reportOf(services, request, org.id, run));
      // A run waiting its turn leaves the line (it never starts); one going is asked to stop, and its
      // end is recorded as it stops (its events say so).
      // Any member who may run may cancel: the work is found under whoever started it (a schedule's
      // under its organization, which it runs as).
      const cancelled = await automation.cancel(run.started_by ?? run.user_id, id);
      if (cancelled === 'left') return reply.code(200).send(await report(services, request, org.id, id));
      if (cancelled === null) {
        throw new AppError(
          'BAD_REQUEST',
          'This run is not running on this server and cannot be stopped here',
        );
      }
      request.log.info({ runId: id }, 'stopping a run');
      return { test_run_id: id, status: 'stopping' as const };
    },
  }),
  route({
    method: 'GET',
    path: '/:id/events',
    summary:
      "A run's progress as server-sent events: `run`, then `case_finished` per case, then `run_finished`",
    tag: 'Runs',
    params: IdParamsSchema,
    media: {
      type: 'text/event-stream',
      description: 'One RunEvent (JSON) per event; the stream ends with the run',
    },
    handle: async ({ request, reply, org, user, params: { id } }, services) => {
      const { streams } = services;
      const first = await report(services, request, org.id, id);
      const open = streams.get(user.id) ?? 0;
      if (open >= MAX_EVENT_STREAMS_PER_USER) {
        throw new AppError('RATE_LIMITED', `At most ${MAX_EVENT_STREAMS_PER_USER} run event streams at once`);
      }
      streams.set(user.id, open + 1);
      stream(
        request,
        reply,
        first,
        async () => report(services, request, org.id, id),
        () => {
          const left = (streams.get(user.id) ?? 1) - 1;
          if (left > 0) streams.set(user.id, left);
          else streams.delete(user.id);
        },
      );
      return reply;
    },
  }),
]);

export async function runRoutes(app: FastifyInstance, services: RunRouteServices) {
  mountRoutes(app, RUN_ROUTES, { ...services, streams: new Map() });
}

/** Writes the run's events until it is over or the client goes; `read` answers the run as it stands. */
function stream(
  request: FastifyRequest,
  reply: FastifyReply,
  first: RunReport,
  read: () => Promise<RunReport>,
  closed: () => void,
): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies (nginx) would otherwise hold events back until a buffer fills.
    'x-accel-buffering': 'no',
    ...SECURITY_HEADERS,
  });
  let over = false;
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = Date.now();
  const send = (event: RunEvent) => {
    raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    lastWrite = Date.now();
  };
  const end = () => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    closed();
    if (!raw.writableEnded) raw.end();
  };
  // The response's close is the client going away (or the stream ending); the request's, on older Node
  // versions, could come as soon as its (empty) body was read.
  raw.on('close', end);
  raw.on('error', end);

  let seen = first.results.length;
  let standing = first;
  send({ type: 'run', run: first });
  const finish = (run: RunReport) => {
    send({ type: 'run_finished', run });
    end();
  };
  if (isRunOver(first.status)) {
    finish(first);
    return;
  }
  const poll = async () => {
    if (over) return;
    try {
      const run = await read();
      // A queued run's place, and its start, are told as they change.
      if (run.status !== standing.status || run.queue_position !== standing.queue_position) {
        standing = run;
        if (!isRunOver(run.status)) send({ type: 'run', run });
      }
      for (const result of run.results.slice(seen)) send({ type: 'case_finished', result });
      seen = run.results.length;
      if (isRunOver(run.status)) return finish(run);
      if (Date.now() - lastWrite >= KEEP_ALIVE_MS) {
        raw.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
    } catch (error) {
      // The run was deleted, or the database failed: say so in the stream's own terms and end it.
      request.log.warn({ err: error }, 'run event stream ended');
      return end();
    }
    if (!over) timer = setTimeout(poll, EVENT_POLL_MS);
  };
  timer = setTimeout(poll, EVENT_POLL_MS);
}
