import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { AuditExportQuerySchema, AuditPageSchema, AuditQuerySchema } from '@argus/protocol';
import type { Services } from '../app-services';
import { auditEntries, auditedOrg, auditPage } from '../audit/audit-query';
import { csvLines, jsonLines } from '../audit/export-writers';
import { audit } from '../audit/recorder';
import { heavy } from '../limits/heavy-requests';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type AuditRouteServices = { repos: Pick<Services['repos'], 'auditLog'> } & Pick<Services, 'limits'>;

/**
 * The audit log (docs/ORGANIZATIONS.md#audit-log): the current organization's record of who did what,
 * for its admins and owners (403 FORBIDDEN_ROLE below). Read only: no route changes or removes a row.
 */
const route = routeOf<AuditRouteServices>();

export const AUDIT_ROUTES = routeGroup('/api/audit', [
  route({
    method: 'GET',
    path: '/',
    summary:
      "The organization's audit log, newest first (keyset pages), by person, action, project and dates",
    tag: 'Audit',
    query: AuditQuerySchema,
    response: AuditPageSchema,
    handle: async ({ request, query }, { repos }) => auditPage(repos.auditLog, auditedOrg(request), query),
  }),
  // Heavy: HEAVY_REQUESTS_PER_USER at once per user (limits/heavy-requests.ts); its slot is held until
  // the whole file is sent.
  heavy(
    route({
      method: 'GET',
      path: '/export',
      summary:
        "The organization's audit log as CSV or JSON (?format=), every row the same filters pick, newest first",
      tag: 'Audit',
      query: AuditExportQuerySchema,
      media: {
        type: 'text/csv',
        description:
          "The rows as CSV (or with ?format=json a JSON array); cells a spreadsheet would run start with '",
      },
      handle: async ({ request, reply, query }, { repos }) => {
        const orgId = auditedOrg(request);
        const { format } = query;
        // The export is itself recorded before it is sent: who took a copy of the log, and of what.
        await audit.record(request, {
          action: 'export_downloaded',
          target: 'audit log',
          detail: { kind: 'audit', format, ...definedFilters(query) },
        });
        const pages = auditEntries(repos.auditLog, orgId, query);
        const body = Readable.from(format === 'csv' ? csvLines(pages) : jsonLines(pages));
        const day = new Date().toISOString().slice(0, 10);
        reply
          .header(
            'content-type',
            format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
          )
          .header('content-disposition', `attachment; filename="audit-${day}.${format}"`)
          .header('cache-control', 'no-store')
          .send(body);
        await finished(reply.raw).catch(() => undefined);
        return reply;
      },
    }),
  ),
]);

/** The filters an export was asked with, for its own audit row. */
function definedFilters(query: Record<string, unknown>): Record<string, string> {
  const keys = ['actor', 'action', 'project_id', 'from', 'to'] as const;
  return Object.fromEntries(
    keys.filter((key) => typeof query[key] === 'string').map((key) => [key, query[key] as string]),
  );
}

export const auditRoutes = routePlugin(AUDIT_ROUTES);
