import type { Project } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  isResolving,
  NO_PROJECT,
  NO_PROJECT_STATE,
  type ProjectChoiceAction,
  type ProjectChoiceState,
  projectChoiceReducer,
  readSelection,
  rebaseUrl,
  resolveTarget,
  selectionSettings,
  targetIds,
  targetNote,
  urlProblem,
} from './project-target';

function project(overrides: Partial<Project> = {}): Project {
  return {
    id: 'p1',
    name: 'Desk',
    description: '',
    kind: 'web',
    login: {
      mode: 'credentials',
      login_url: '/login',
      username_variable: 'EMAIL',
      password_secret: 'PASSWORD',
      totp_secret: null,
    },
    environments: [
      {
        id: 'e1',
        project_id: 'p1',
        name: 'staging',
        base_url: 'http://staging.desk.test/',
        is_default: true,
        created_at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'e2',
        project_id: 'p1',
        name: 'production',
        base_url: 'https://desk.test/app',
        is_default: false,
        created_at: '2026-01-01T00:00:00.000Z',
      },
    ],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function run(actions: ProjectChoiceAction[], from: ProjectChoiceState = NO_PROJECT_STATE) {
  return actions.reduce(projectChoiceReducer, from);
}

const desk = project();
const chosen = run([
  { type: 'choose', selection: { projectId: 'p1', environmentId: null }, project: null },
  { type: 'choose', selection: { projectId: 'p1', environmentId: 'e1' }, project: desk },
]);

describe('the project environment of the automation screen', () => {
  it('resolves once the project has loaded and an environment is chosen', () => {
    const choosing = run([
      { type: 'choose', selection: { projectId: 'p1', environmentId: null }, project: null },
    ]);
    expect(resolveTarget(choosing)).toBeNull();
    expect(isResolving(choosing)).toBe(true);
    expect(resolveTarget(chosen)).toEqual({
      projectId: 'p1',
      projectName: 'Desk',
      environmentId: 'e1',
      environmentName: 'staging',
      baseUrl: 'http://staging.desk.test/',
      signsIn: true,
      mobile: false,
    });
    expect(isResolving(chosen)).toBe(false);
    expect(isResolving(NO_PROJECT_STATE)).toBe(false);
    expect(targetIds(resolveTarget(chosen))).toEqual({ project_id: 'p1', environment_id: 'e1' });
    expect(targetIds(null)).toEqual({});
  });

  it('keeps the loaded project when only the environment changes, and forgets it for another project', () => {
    const production = run(
      [{ type: 'choose', selection: { projectId: 'p1', environmentId: 'e2' }, project: null }],
      chosen,
    );
    expect(resolveTarget(production)?.environmentName).toBe('production');
    const other = run(
      [{ type: 'choose', selection: { projectId: 'p2', environmentId: null }, project: null }],
      chosen,
    );
    expect(other.project).toBeNull();
    expect(isResolving(other)).toBe(true);
  });

  it('goes back to no project on None, and when the project no longer exists', () => {
    expect(run([{ type: 'choose', selection: NO_PROJECT, project: null }], chosen)).toEqual(NO_PROJECT_STATE);
    expect(run([{ type: 'loaded', projectId: 'p1', project: null }], chosen)).toEqual(NO_PROJECT_STATE);
    // An answer about a project no longer chosen changes nothing.
    expect(run([{ type: 'loaded', projectId: 'p9', project: null }], chosen)).toBe(chosen);
  });

  it('follows the project as loaded now: renamed, login removed, mobile', () => {
    const renamed = run(
      [
        {
          type: 'loaded',
          projectId: 'p1',
          project: project({ name: 'Help desk', login: { mode: 'none' }, kind: 'mobile' }),
        },
      ],
      chosen,
    );
    const target = resolveTarget(renamed);
    expect(target).toMatchObject({ projectName: 'Help desk', signsIn: false, mobile: true });
    expect(target && targetNote(target)).toBe(
      "On Help desk/staging (the project has no login), in a phone's viewport",
    );
    const signedIn = resolveTarget(chosen);
    expect(signedIn && targetNote(signedIn)).toBe("On Desk/staging, signed in with the project's login");
  });

  it('restores the ids kept with the session, then waits for the project', () => {
    const restored = run([{ type: 'restore', selection: { projectId: 'p1', environmentId: 'e2' } }]);
    expect(restored).toEqual({ selection: { projectId: 'p1', environmentId: 'e2' }, project: null });
    expect(isResolving(restored)).toBe(true);
    const loaded = run([{ type: 'loaded', projectId: 'p1', project: desk }], restored);
    expect(resolveTarget(loaded)?.environmentName).toBe('production');
    // The same selection again keeps what was loaded.
    expect(run([{ type: 'restore', selection: { projectId: 'p1', environmentId: 'e2' } }], loaded)).toBe(
      loaded,
    );
  });

  it('keeps the ids in the session settings, and reads them back (anything malformed is no project)', () => {
    expect(selectionSettings({ projectId: 'p1', environmentId: 'e1' })).toEqual({
      project: { projectId: 'p1', environmentId: 'e1' },
    });
    expect(selectionSettings(NO_PROJECT)).toEqual({ project: null });
    expect(readSelection({ projectId: 'p1', environmentId: 'e1' })).toEqual({
      projectId: 'p1',
      environmentId: 'e1',
    });
    expect(readSelection({ projectId: 'p1' })).toEqual({ projectId: 'p1', environmentId: null });
    for (const bad of [null, undefined, 'p1', {}, { projectId: 3 }, { projectId: '' }]) {
      expect(readSelection(bad)).toEqual(NO_PROJECT);
    }
  });
});

describe('rebaseUrl: the URL when an environment is chosen', () => {
  it("fills in the environment's base URL", () => {
    expect(rebaseUrl('', null, 'http://staging.desk.test/')).toBe('http://staging.desk.test/');
    expect(rebaseUrl('https://elsewhere.test/a', null, 'http://staging.desk.test/')).toBe(
      'http://staging.desk.test/',
    );
  });

  it("keeps the path typed on the previous environment's address", () => {
    expect(
      rebaseUrl(
        'http://staging.desk.test/tickets?status=open',
        'http://staging.desk.test/',
        'https://desk.test/app',
      ),
    ).toBe('https://desk.test/app/tickets?status=open');
    expect(
      rebaseUrl('https://desk.test/app/reports', 'https://desk.test/app', 'http://staging.desk.test/'),
    ).toBe('http://staging.desk.test/reports');
    expect(rebaseUrl('http://staging.desk.test/', 'http://staging.desk.test/', 'https://desk.test/app')).toBe(
      'https://desk.test/app',
    );
  });

  it('does not take another host that starts with the same text for the same address', () => {
    expect(rebaseUrl('https://desk.test.evil/x', 'https://desk.test', 'http://staging.desk.test/')).toBe(
      'http://staging.desk.test/',
    );
  });
});

describe('urlProblem: the URL must be on the chosen environment', () => {
  const target = resolveTarget(chosen);
  it('accepts any path there, and anything without a project', () => {
    expect(urlProblem('http://staging.desk.test/tickets', target)).toBeNull();
    expect(urlProblem('https://elsewhere.test/', null)).toBeNull();
  });

  it('names the environment and its address otherwise', () => {
    expect(urlProblem('https://elsewhere.test/', target)).toBe(
      'Use an address on staging (http://staging.desk.test/), or choose no project',
    );
    expect(urlProblem('https://staging.desk.test/', target)).not.toBeNull();
  });
});
