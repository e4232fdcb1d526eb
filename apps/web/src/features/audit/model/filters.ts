import { AUDIT_ACTIONS, type AuditAction, type AuditQuery } from '@argus/protocol';

// The Audit screen's filters live in the address, as the history's do: a filtered view can be shared
// and survives a reload. Anything unreadable in the address is dropped, never sent to the server.

export interface AuditFilters {
  /** A user id. */
  actor: string;
  action: AuditAction | '';
  project: string;
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive (the server counts a bare date's whole day). */
  to: string;
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = { actor: '', action: '', project: '', from: '', to: '' };

const KEYS = Object.keys(EMPTY_AUDIT_FILTERS) as (keyof AuditFilters)[];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[0-9a-f-]{1,100}$/i;

const day = (value: string | null) =>
  value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : '';
const id = (value: string | null) => (value && ID.test(value) ? value : '');

/** The filters an address holds (`?action=secret_set&from=2026-11-01`). */
export function auditFiltersFromSearch(search: URLSearchParams): AuditFilters {
  const action = search.get('action');
  return {
    actor: id(search.get('actor')),
    action: action && (AUDIT_ACTIONS as readonly string[]).includes(action) ? (action as AuditAction) : '',
    project: id(search.get('project')),
    from: day(search.get('from')),
    to: day(search.get('to')),
  };
}

/** The address for some filters: only those set, in a fixed order. */
export function searchFromAuditFilters(filters: AuditFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of KEYS) if (filters[key]) search.set(key, filters[key]);
  return search;
}

/** What GET /api/audit (and its export) is asked for these filters. */
export function auditQueryFromFilters(filters: AuditFilters): Omit<AuditQuery, 'cursor' | 'limit'> {
  return {
    ...(filters.actor && { actor: filters.actor }),
    ...(filters.action && { action: filters.action }),
    ...(filters.project && { project_id: filters.project }),
    ...(filters.from && { from: filters.from }),
    ...(filters.to && { to: filters.to }),
  };
}

export function activeAuditFilterCount(filters: AuditFilters): number {
  return KEYS.filter((key) => filters[key] !== '').length;
}

/** Each action as the screen names it. */
export const ACTION_TEXT: Record<AuditAction, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  password_changed: 'Password changed',
  organization_changed: 'Organization changed',
  ownership_transferred: 'Ownership transferred',
  member_added: 'Member added',
  member_role_changed: 'Member role changed',
  member_removed: 'Member removed',
  invitation_created: 'Invitation created',
  invitation_revoked: 'Invitation revoked',
  invitation_accepted: 'Invitation accepted',
  sso_changed: 'Single sign-on changed',
  token_created: 'API token created',
  token_revoked: 'API token revoked',
  project_created: 'Project created',
  project_changed: 'Project changed',
  project_deleted: 'Project deleted',
  login_changed: 'Project login changed',
  environment_changed: 'Environment changed',
  variable_set: 'Variable set',
  variable_deleted: 'Variable deleted',
  secret_set: 'Secret set',
  secret_deleted: 'Secret deleted',
  suite_saved: 'Suite saved',
  suite_deleted: 'Suite deleted',
  repair_rejected: 'Repair rejected',
  visual_approved: 'Visual change approved',
  visual_rejected: 'Visual change rejected',
  visual_restored: 'Baseline restored',
  visual_promoted: 'Branch baselines promoted',
  visual_imported: 'Baselines imported',
  schedule_changed: 'Schedule changed',
  webhook_changed: 'Webhook changed',
  export_downloaded: 'Export downloaded',
};

/** Actions that signal trouble or loss, drawn in red. */
export const WARNING_ACTIONS: ReadonlySet<AuditAction> = new Set([
  'sign_in_failed',
  'member_removed',
  'project_deleted',
  'secret_deleted',
  'suite_deleted',
  'token_revoked',
  'invitation_revoked',
]);

/**
 * A row's detail as one short line for people: `version 3 · fields name,login · via an API token`.
 * Ids (`suite_id`, …) are left out: the export keeps them.
 */
export function detailText(detail: Record<string, string | number | boolean | null>): string {
  return Object.entries(detail)
    .filter(([key, value]) => value !== null && value !== '' && !key.endsWith('_id'))
    .map(([key, value]) =>
      key === 'api_token' ? 'via an API token' : `${key.replaceAll('_', ' ')} ${String(value)}`,
    )
    .join(' · ');
}

/** `alice <alice@example.com>` as its name and email, to draw on two lines (a label without one: name only). */
export function splitLabel(label: string): { name: string; email: string | null } {
  const match = label.match(/^(.*) <([^>]*)>$/);
  return match ? { name: match[1], email: match[2] } : { name: label, email: null };
}
