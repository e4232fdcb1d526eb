import { CaseDiagnosticsSchema } from '@argus/protocol';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Services } from '../app-services';
import { caseDiagnostics, caseFile, ownCase } from '../diagnostics/case-file-reads';
import { caseHar } from '../diagnostics/har';
import { AppError } from '../errors';
import type { CaseFileKind, SignedQuery } from '../storage/signed-urls';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type CaseFileRouteServices = Pick<Services, 'repos' | 'blobs' | 'urls'> & {
  config: Pick<Services['config'], 'version'>;
};

/** `:id` the run, `:case` its stored result's id (StoredTestResult.id). */
const CaseParamsSchema = z.object({ id: z.string().max(100), case: z.string().max(100) });

/** `?attempt=N`, part of what a link signs: absent, the last attempt that kept the file. */
function attemptOf(query: unknown): number | null {
  const attempt = (query as { attempt?: unknown }).attempt;
  if (attempt === undefined) return null;
  if (typeof attempt !== 'string' || !/^[1-9]\d{0,3}$/.test(attempt)) throw new AppError('LINK_INVALID');
  return Number(attempt);
}

const FILE_NAMES: Record<CaseFileKind, string> = { trace: 'trace.zip', video: 'video.webm' };

/**
 * A case's trace or video by its signed link (like a screenshot: the trace viewer's service worker
 * and a <video> send no login): 401 without a signature, 403 for a wrong or expired one, 404 when the
 * run or the case is not the signer's or kept no such file.
 */
async function sendCaseFile(
  kind: CaseFileKind,
  {
    request,
    reply,
    params,
  }: { request: { query: unknown }; reply: FastifyReply; params: z.output<typeof CaseParamsSchema> },
  services: CaseFileRouteServices,
): Promise<FastifyReply> {
  const attempt = attemptOf(request.query);
  const target = { runId: params.id, caseId: params.case, attempt };
  const { ownerId, expires } = services.urls.verifyCaseFile(kind, target, request.query as SignedQuery);
  const result = await ownCase(services.repos, ownerId, params.id, params.case);
  const row = await caseFile(services.repos, result, kind, attempt);
  // Cached no longer than the link lives (each link is a new URL, so immutable is safe).
  const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
  return reply
    .type(row.mime)
    .header('cache-control', `private, max-age=${maxAge}, immutable`)
    .header('content-length', row.bytes)
    .header('content-disposition', `inline; filename="${FILE_NAMES[kind]}"`)
    .send(services.blobs.read(row.sha256));
}

const route = routeOf<CaseFileRouteServices>();

/**
 * What a run's case left to show why it failed (docs/DIAGNOSTICS.md): its Playwright trace and its
 * video by signed, expiring link; its console and network, and their HAR, by login, owner-scoped (another
 * organization's run answers 404).
 */
export const CASE_FILE_ROUTES = routeGroup('/api/runs', [
  route({
    method: 'GET',
    path: '/:id/cases/:case/trace.zip',
    summary: "A case's Playwright trace",
    tag: 'Runs',
    auth: 'none',
    params: CaseParamsSchema,
    media: {
      type: 'application/zip',
      description:
        "The trace (the link is signed and expires; `attempt` picks a retry's, default the last kept)",
    },
    handle: async (input, services) => sendCaseFile('trace', input, services),
  }),
  route({
    method: 'GET',
    path: '/:id/cases/:case/video.webm',
    summary: "A failed case's video",
    tag: 'Runs',
    auth: 'none',
    params: CaseParamsSchema,
    media: { type: 'video/webm', description: 'The video (the link is signed and expires)' },
    handle: async (input, services) => sendCaseFile('video', input, services),
  }),
  route({
    method: 'GET',
    path: '/:id/cases/:case/diagnostics',
    summary: "A case's console messages, page errors and requests",
    tag: 'Runs',
    params: CaseParamsSchema,
    response: CaseDiagnosticsSchema,
    handle: async ({ org, params }, services) => {
      const result = await ownCase(services.repos, org.id, params.id, params.case);
      return caseDiagnostics(services.repos, services.blobs, result);
    },
  }),
  route({
    method: 'GET',
    path: '/:id/cases/:case/network.har',
    summary: "A case's requests as a HAR 1.2 file (no bodies)",
    tag: 'Runs',
    params: CaseParamsSchema,
    media: { type: 'application/json', description: 'The HTTP Archive (HAR 1.2)' },
    handle: async ({ org, params, reply }, services) => {
      const result = await ownCase(services.repos, org.id, params.id, params.case);
      const diagnostics = await caseDiagnostics(services.repos, services.blobs, result);
      // The case began its execution time before its row was written (the last attempt's, roughly).
      const startedAt = new Date(result.created_at.getTime() - (result.execution_time ?? 0) * 1000);
      const har = caseHar(diagnostics, { title: result.test_case_name, startedAt }, services.config.version);
      return reply
        .type('application/json')
        .header('content-disposition', 'attachment; filename="network.har"')
        .send(JSON.stringify(har));
    },
  }),
]);

export const caseFileRoutes = routePlugin(CASE_FILE_ROUTES);
