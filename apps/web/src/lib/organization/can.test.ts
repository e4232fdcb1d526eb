import { type Organization, ROLES, ROUTE_ACTIONS, SOCKET_ACTIONS } from '@argus/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../memory-storage';
import { can } from './can';
import { organizationStorageKey } from './current-organization';
import { OrganizationProvider, useCan } from './organization-context';
import { ORGANIZATIONS_QUERY_KEY } from './organizations-api';

describe('can', () => {
  it('lets a viewer read but not run, edit or manage', () => {
    expect(can('viewer', 'GET /api/projects/:id')).toBe(true);
    expect(can('viewer', 'POST /api/projects/:id/suites/:suiteId/runs')).toBe(false);
    expect(can('viewer', 'PUT /api/projects/:id')).toBe(false);
    expect(can('viewer', 'DELETE /api/projects/:id/suites/:suiteId')).toBe(false);
    expect(can('viewer', 'run_all_tests')).toBe(false);
  });

  it('lets a runner run but not edit or delete', () => {
    expect(can('runner', 'POST /api/projects/:id/suites/:suiteId/runs')).toBe(true);
    expect(can('runner', 'generate_test_cases')).toBe(true);
    expect(can('runner', 'PUT /api/projects/:id/variables')).toBe(false);
    expect(can('runner', 'DELETE /api/projects/:id')).toBe(false);
  });

  it('lets an editor edit but not manage members; an admin manage but not rename', () => {
    expect(can('editor', 'DELETE /api/projects/:id/webhooks/:webhookId')).toBe(true);
    expect(can('editor', 'PUT /api/organization/members/:userId')).toBe(false);
    expect(can('admin', 'PUT /api/organization/members/:userId')).toBe(true);
    expect(can('admin', 'PUT /api/organization')).toBe(false);
    expect(can('owner', 'DELETE /api/organization')).toBe(true);
  });

  it('agrees with the permission table for every route, message and role', () => {
    const needs = (action: string) =>
      ['public', 'self', 'read', 'run', 'edit', 'manage', 'own'].indexOf(action);
    for (const role of ROLES) {
      const rank = ROLES.indexOf(role) + 2; // viewer passes read (2), owner passes own (6)
      for (const [route, action] of Object.entries(ROUTE_ACTIONS)) {
        expect(can(role, route), `${role} ${route}`).toBe(needs(action) <= rank);
      }
      for (const [type, action] of Object.entries(SOCKET_ACTIONS)) {
        expect(can(role, type), `${role} ${type}`).toBe(needs(action) <= rank);
      }
    }
  });

  it('without a role yet allows only what needs none', () => {
    expect(can(null, 'GET /api/projects')).toBe(false);
    expect(can(null, 'GET /api/settings')).toBe(true);
  });

  it('throws for a route or message the table does not name (a typo in a screen)', () => {
    expect(() => can('owner', 'PUT /api/projects/:projectId')).toThrow(/no entry/);
    expect(() => can('owner', 'run_everything')).toThrow(/no entry/);
  });
});

const ROUTES = [
  'GET /api/projects/:id',
  'POST /api/projects/:id/suites/:suiteId/runs',
  'PUT /api/projects/:id',
  'DELETE /api/organization/members/:userId',
];

/** Renders what useCan answers for each of ROUTES, as 1s and 0s. */
function Probe() {
  const answers = [useCan(ROUTES[0]), useCan(ROUTES[1]), useCan(ROUTES[2]), useCan(ROUTES[3])];
  return createElement('p', null, answers.map((yes) => (yes ? '1' : '0')).join(''));
}

describe('useCan', () => {
  const team = (role: Organization['role']): Organization => ({
    id: 'org-team',
    name: 'Team',
    personal: false,
    role,
    sso_domain: null,
    sso_role: 'viewer',
    sso_required: false,
  });
  const personal: Organization = { ...team('owner'), id: 'user-1', name: 'Ann', personal: true };
  let storage: MemoryStorage;

  beforeEach(() => {
    storage = new MemoryStorage();
    vi.stubGlobal('localStorage', storage);
  });
  afterEach(() => vi.unstubAllGlobals());

  /** What a component sees through useCan for each of ROUTES, under the provider of user-1. */
  function seen(organizations: Organization[] | undefined): boolean[] {
    const client = new QueryClient();
    if (organizations) client.setQueryData(ORGANIZATIONS_QUERY_KEY, organizations);
    const html = renderToString(
      createElement(
        QueryClientProvider,
        { client },
        createElement(
          MemoryRouter,
          null,
          createElement(OrganizationProvider, { userId: 'user-1' }, createElement(Probe)),
        ),
      ),
    );
    const bits = /<p>([01]*)<\/p>/.exec(html)?.[1] ?? '';
    return [...bits].map((bit) => bit === '1');
  }

  it('follows the role of the organization chosen in the sidebar', () => {
    storage.setItem(organizationStorageKey('user-1'), 'org-team');
    expect(seen([personal, team('viewer')])).toEqual([true, false, false, false]);
    expect(seen([personal, team('runner')])).toEqual([true, true, false, false]);
    expect(seen([personal, team('editor')])).toEqual([true, true, true, false]);
    expect(seen([personal, team('admin')])).toEqual([true, true, true, true]);
  });

  it('allows everything in the personal organization at once, before the list arrives', () => {
    expect(seen(undefined)).toEqual([true, true, true, true]);
  });

  it('allows nothing that needs a role while another organization’s role is unknown', () => {
    storage.setItem(organizationStorageKey('user-1'), 'org-team');
    expect(seen(undefined)).toEqual([false, false, false, false]);
  });
});
