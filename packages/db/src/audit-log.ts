import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { type AuditLogRow, auditLog } from './schema';
import { isUuid } from './users';

// The audit log (docs/ORGANIZATIONS.md#audit-log): append, read back one organization's rows newest
// first, and retention's deletes. There is no update and no delete of a chosen row here, on purpose;
// the database refuses an UPDATE, and a DELETE outside retention's transaction (0017_audit_log.sql).

export type NewAuditEntry = Pick<AuditLogRow, 'org_id' | 'actor' | 'actor_label' | 'action'> &
  Partial<Pick<AuditLogRow, 'project_id' | 'target' | 'detail' | 'ip' | 'user_agent'>> & {
    /** When it happened; the database's clock unless given (tests write old rows). */
    created_at?: Date;
  };

export interface AuditFilter {
  /** The user who acted. */
  actor?: string;
  action?: string;
  project_id?: string;
  /** Inclusive instant. */
  from?: Date;
  /** Exclusive instant. */
  to?: Date;
  /** Rows recorded before (older than) the row with this id: the keyset. */
  before?: number;
  /** Rows to answer: the caller asks one more than a page to know whether another follows. */
  limit: number;
}

/** The organization's rows `filter` picks, as a WHERE; null when an id that is no uuid picks none. */
function picked(orgId: string, filter: Omit<AuditFilter, 'limit'>): SQL | null {
  for (const id of [orgId, filter.actor, filter.project_id]) if (id !== undefined && !isUuid(id)) return null;
  return (
    and(
      eq(auditLog.org_id, orgId),
      filter.actor === undefined ? undefined : eq(auditLog.actor, filter.actor),
      filter.action === undefined ? undefined : eq(auditLog.action, filter.action),
      filter.project_id === undefined ? undefined : eq(auditLog.project_id, filter.project_id),
      filter.from === undefined ? undefined : gte(auditLog.created_at, filter.from),
      filter.to === undefined ? undefined : lt(auditLog.created_at, filter.to),
      filter.before === undefined ? undefined : lt(auditLog.id, filter.before),
    ) ?? sql`true`
  );
}

export function auditLogRepository(orm: Drizzle) {
  const page = async (orgId: string, filter: AuditFilter): Promise<AuditLogRow[]> => {
    const where = picked(orgId, filter);
    if (!where) return [];
    return orm.select().from(auditLog).where(where).orderBy(desc(auditLog.id)).limit(filter.limit);
  };
  return {
    /** Records one row. */
    async append(entry: NewAuditEntry): Promise<AuditLogRow> {
      const [row] = await orm.insert(auditLog).values(entry).returning();
      return row;
    },
    /** One page of the organization's rows, newest first, after `filter.before` (keyset, never OFFSET). */
    list: page,
    /**
     * Every row the filter picks, newest first, a page of `batch` at a time (keyset pages, so an
     * export of any length holds one page in memory and no statement runs long).
     */
    async *stream(
      orgId: string,
      filter: Omit<AuditFilter, 'limit' | 'before'>,
      batch = 500,
    ): AsyncGenerator<AuditLogRow[]> {
      let before: number | undefined;
      for (;;) {
        const rows = await page(orgId, { ...filter, before, limit: batch });
        if (rows.length > 0) yield rows;
        if (rows.length < batch) return;
        before = rows[rows.length - 1].id;
      }
    },
    /**
     * Retention (AUDIT_RETENTION_DAYS): up to `batch` of the rows recorded before `cutoff`, oldest
     * first, in one statement (in a transaction the delete trigger lets through), skipping rows another sweep has locked; how many it deleted (fewer than
     * `batch`: none are left).
     */
    async deleteOlderThan(cutoff: Date, batch: number): Promise<number> {
      return orm.transaction(async (tx) => {
        // The delete trigger lets retention's transaction through, and nothing else (0017_audit_log.sql).
        await tx.execute(sql`SELECT set_config('argus.audit_retention', 'on', true)`);
        const ids = tx
          .select({ id: auditLog.id })
          .from(auditLog)
          .where(lt(auditLog.created_at, cutoff))
          .orderBy(auditLog.created_at)
          .limit(batch)
          .for('update', { skipLocked: true });
        const deleted = await tx
          .delete(auditLog)
          .where(sql`${auditLog.id} = ANY(ARRAY${ids})`)
          .returning({ id: auditLog.id });
        return deleted.length;
      });
    },
  };
}

export type AuditLogRepository = ReturnType<typeof auditLogRepository>;
