import { type AuditLogRepository, isUuid, type NewAuditEntry, type UserRow } from '@argus/db';
import { AUDIT_DETAIL_MAX_BYTES, type AuditAction, type AuditDetail } from '@argus/protocol';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** Who acted, for a request with no signed-in user (a sign-in): the account, or the name typed. */
export type AuditActor = Pick<UserRow, 'id' | 'username' | 'email'> | { unknown: string };

/** What one call records; the organization, actor, address and browser come from the request. */
export interface AuditEvent {
  action: AuditAction;
  /** The project it happened in. */
  projectId?: string | null;
  /** What it acted on, by name (a suite's, a secret's, a token's). */
  target?: string | null;
  /** A few small facts, never a secret's value (at most AUDIT_DETAIL_MAX_BYTES as JSON). */
  detail?: AuditDetail;
  /** The organization, when not the request's own (an invitation accepted into another one). */
  orgId?: string | null;
  /** The actor, when the request has no signed-in user yet (sign-in, a failed one). */
  actor?: AuditActor;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit log's one recorder (audit/README.md); routes call `audit.record(request, …)`. */
    auditRecorder: AuditRecorder;
  }
}

// Bounds on what a row keeps of text the caller or the client chose.
const MAX_TARGET = 300;
const MAX_LABEL = 300;
const MAX_USER_AGENT = 400;

const clip = (text: string | null | undefined, max: number) =>
  text === null || text === undefined ? null : text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** `detail` as stored: as given when small, else only a note that it was too large. */
function boundedDetail(detail: AuditDetail | undefined): AuditDetail {
  if (!detail) return {};
  return Buffer.byteLength(JSON.stringify(detail)) <= AUDIT_DETAIL_MAX_BYTES ? detail : { truncated: true };
}

type Person = Pick<UserRow, 'id' | 'username' | 'email'> & { service?: boolean };

/** A person's name as the log keeps it: as they were then, whatever they are called later. */
function labelOf(user: Person): string {
  return user.service ? `${user.username} (service token)` : `${user.username} <${user.email}>`;
}

/** Who acted and in which organization, from the event's actor or the request's signed-in user. */
function whoOf(request: FastifyRequest, event: AuditEvent) {
  const given = event.actor;
  if (given && 'unknown' in given) {
    // A name that matches no account belongs to no organization: only the operator sees it.
    return { org: event.orgId ?? null, actor: null, label: clip(given.unknown, MAX_LABEL) ?? '' };
  }
  const user = (given ?? request.user) as Person | null;
  if (!user) return { org: event.orgId ?? request.org?.id ?? null, actor: null, label: 'anonymous' };
  // A service token acts as no person (the brief of the audit log: actor is null for it).
  return {
    // The request's organization, else the person's own (a sign-in: their personal organization).
    org: event.orgId ?? request.org?.id ?? user.id,
    actor: user.service ? null : user.id,
    label: labelOf(user),
  };
}

/**
 * The audit log's one recorder (docs/ORGANIZATIONS.md#audit-log): every route that changes something
 * worth knowing calls `audit.record(request, { action, … })` once the change is made. A write that
 * fails is logged (with what it would have recorded) and never fails the request: the action it
 * records has already happened, and answering it as failed would say otherwise.
 */
export class AuditRecorder {
  constructor(
    private readonly auditLog: Pick<AuditLogRepository, 'append'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The row `event` makes for `request`, as it is written. */
  entryOf(request: FastifyRequest, event: AuditEvent): NewAuditEntry {
    const who = whoOf(request, event);
    const detail = { ...boundedDetail(event.detail) };
    // Done with an API token: which one (its id; the value is never kept anywhere).
    if (request.credential?.kind === 'api-token') detail.api_token = request.credential.tokenId;
    const agent = request.headers['user-agent'];
    return {
      org_id: who.org,
      actor: who.actor,
      actor_label: who.label,
      action: event.action,
      // The column is a uuid: anything else (never found, so never acted on) is left out.
      project_id: event.projectId && isUuid(event.projectId) ? event.projectId : null,
      target: clip(event.target, MAX_TARGET),
      detail,
      ip: request.ip || null,
      user_agent: clip(typeof agent === 'string' ? agent : null, MAX_USER_AGENT),
    };
  }

  async record(request: FastifyRequest, event: AuditEvent): Promise<void> {
    const entry = this.entryOf(request, event);
    try {
      await this.auditLog.append(entry);
    } catch (error) {
      this.log.error({ err: error, audit: entry }, 'audit log: the row could not be written');
    }
  }
}

/**
 * The recorder as route handlers call it: `await audit.record(request, { action: 'suite_saved', … })`,
 * the app's one recorder found through the request (app.ts decorates the app with it).
 */
export const audit = {
  record(request: FastifyRequest, event: AuditEvent): Promise<void> {
    return request.server.auditRecorder.record(request, event);
  },
  /**
   * `work`'s answer, once `event` (or the event made from the answer) is recorded: for a handler
   * written as one expression, `=> audit.after(request, projects.setVariable(…), (v) => ({…}))`.
   * Nothing is recorded when `work` fails.
   */
  async after<T>(
    request: FastifyRequest,
    work: Promise<T>,
    event: AuditEvent | ((answer: T) => AuditEvent),
  ): Promise<T> {
    const answer = await work;
    await audit.record(request, typeof event === 'function' ? event(answer) : event);
    return answer;
  },
};
