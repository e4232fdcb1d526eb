import type { AuditFilter, AuditLogRepository, AuditLogRow } from '@argus/db';
import {
  type AuditAction,
  type AuditEntry,
  type AuditFilterSchema,
  type AuditPage,
  type AuditQuerySchema,
  roleAllows,
  roleNeeded,
} from '@argus/protocol';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../errors';
import { rangeEnd, rangeStart } from '../history/history-service';
import { currentOrg } from '../orgs/org-context';

// Reading the audit log back: who may (admins and owners), the filters as the repository takes them,
// the opaque cursor, and a row as the API answers it.

/** The organization whose log the caller reads: 403 FORBIDDEN_ROLE below admin. */
export function auditedOrg(request: FastifyRequest): string {
  const org = currentOrg(request);
  if (!roleAllows(org.role, 'manage')) {
    throw new AppError(
      'FORBIDDEN_ROLE',
      `Reading the audit log needs the ${roleNeeded('manage')} role; yours here is ${org.role}`,
    );
  }
  return org.id;
}

/** The cursor: the last row's id (rows are numbered as they are recorded). */
const CURSOR = /^[1-9]\d{0,14}$/;

function decodeCursor(cursor: string): number {
  if (!CURSOR.test(cursor)) {
    throw new AppError('VALIDATION', [
      {
        loc: ['query', 'cursor'],
        msg: 'Not a cursor this server gave; start from the first page',
        type: 'value_error',
      },
    ]);
  }
  return Number(cursor);
}

/** The filters of a query as the repository takes them. */
export function auditFilter(query: z.output<typeof AuditFilterSchema>): Omit<AuditFilter, 'limit'> {
  return {
    actor: query.actor,
    action: query.action,
    project_id: query.project_id,
    from: query.from ? rangeStart(query.from) : undefined,
    to: query.to ? rangeEnd(query.to) : undefined,
  };
}

export function auditEntry(row: AuditLogRow): AuditEntry {
  return {
    id: String(row.id),
    created_at: row.created_at.toISOString(),
    actor: row.actor,
    actor_label: row.actor_label,
    action: row.action as AuditAction,
    project_id: row.project_id,
    target: row.target,
    detail: row.detail,
    ip: row.ip,
    user_agent: row.user_agent,
  };
}

/** One page of the organization's log, newest first; `next_cursor` while more follow. */
export async function auditPage(
  auditLog: Pick<AuditLogRepository, 'list'>,
  orgId: string,
  query: z.output<typeof AuditQuerySchema>,
): Promise<AuditPage> {
  const before = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await auditLog.list(orgId, { ...auditFilter(query), before, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(auditEntry),
    next_cursor: rows.length > query.limit && last ? String(last.id) : null,
  };
}

/** Every row the filters pick, newest first, as pages of entries (the export's source). */
export async function* auditEntries(
  auditLog: Pick<AuditLogRepository, 'stream'>,
  orgId: string,
  query: z.output<typeof AuditFilterSchema>,
): AsyncGenerator<AuditEntry[]> {
  for await (const rows of auditLog.stream(orgId, auditFilter(query))) yield rows.map(auditEntry);
}
