import { describe, expect, it } from 'vitest';
import { serverIssues } from './issues';
import {
  checkEnvironment,
  checkNewProject,
  checkProjectDetails,
  environmentDraft,
  initialNewProject,
  newProjectErrors,
  nextEnvironment,
} from './project-form';

describe('the new-project form', () => {
  it('starts with one environment called production, marked default', () => {
    const values = initialNewProject('mobile');
    expect(values.kind).toBe('mobile');
    expect(values.environments).toHaveLength(1);
    expect(values.environments[0].name).toBe('production');
    expect(values.defaultKey).toBe(values.environments[0].key);
  });

  it('names added rows staging, development, test, then leaves them unnamed', () => {
    const rows = [environmentDraft('production')];
    for (const expected of ['staging', 'development', 'test', '']) {
      const next = nextEnvironment(rows);
      expect(next.name).toBe(expected);
      rows.push(next);
    }
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });

  it('sends the body the shared schema accepts, the default row marked', () => {
    const values = initialNewProject('web');
    const staging = environmentDraft('staging', ' https://staging.example.com ');
    values.name = '  Shop  ';
    values.description = ' The store ';
    values.environments = [{ ...values.environments[0], baseUrl: 'https://shop.example.com' }, staging];
    values.defaultKey = staging.key;
    const checked = checkNewProject(values);
    expect(checked.errors).toBeNull();
    expect(checked.body).toEqual({
      name: '  Shop  ',
      description: 'The store',
      kind: 'web',
      environments: [
        { name: 'production', base_url: 'https://shop.example.com', is_default: false },
        { name: 'staging', base_url: 'https://staging.example.com', is_default: true },
      ],
    });
  });

  it("puts the schema's messages by their fields and rows", () => {
    const values = initialNewProject('web');
    const second = environmentDraft('bad/name', 'ftp://files.example.com');
    values.environments = [{ ...values.environments[0], baseUrl: 'shop.example.com' }, second];
    const checked = checkNewProject(values);
    expect(checked.body).toBeNull();
    const errors = checked.errors;
    expect(errors?.name).toBe('Name is required');
    expect(errors?.rows[values.environments[0].key]).toEqual({
      baseUrl: 'Please enter a valid URL (including http:// or https://)',
    });
    expect(errors?.rows[second.key]).toEqual({
      name: 'Use letters, digits, spaces, . _ and -',
      baseUrl: 'Blocked by the target policy: only http and https pages can be tested',
    });
  });

  it('refuses two environments of the same name', () => {
    const values = initialNewProject('web');
    const twin = environmentDraft('Production', 'https://b.example.com');
    values.name = 'Shop';
    values.environments = [{ ...values.environments[0], baseUrl: 'https://a.example.com' }, twin];
    const checked = checkNewProject(values);
    expect(checked.errors?.rows[twin.key]?.name).toBe('Each environment needs its own name');
  });

  it('refuses a project without environments', () => {
    const values = { ...initialNewProject('web'), name: 'Shop', environments: [] };
    expect(checkNewProject(values).errors?.environments).toBe('Add at least one environment');
  });

  it("places a 422 answer's issues by the same fields", () => {
    const values = initialNewProject('web');
    const errors = newProjectErrors(
      values,
      serverIssues([
        { loc: ['body', 'environments', 0, 'base_url'], msg: 'Blocked' },
        { loc: ['body', 'name'], msg: 'Taken' },
        { loc: ['body'], msg: 'Whole' },
      ]),
    );
    expect(errors.rows[values.environments[0].key]).toEqual({ baseUrl: 'Blocked' });
    expect(errors.name).toBe('Taken');
    expect(errors.environments).toBe('Whole');
  });
});

describe('an environment form', () => {
  it('checks the name and URL and refuses a name taken by another environment', () => {
    expect(checkEnvironment({ name: 'staging', baseUrl: ' https://s.example.com ' }, ['production'])).toEqual(
      {
        body: { name: 'staging', base_url: 'https://s.example.com' },
        errors: null,
      },
    );
    expect(
      checkEnvironment({ name: 'Production', baseUrl: 'https://p.example.com' }, ['production']).errors,
    ).toEqual({
      name: 'Another environment has this name',
    });
    expect(checkEnvironment({ name: '', baseUrl: '' }, []).errors).toEqual({
      name: 'Name is required',
      baseUrl: 'Please enter a valid URL (including http:// or https://)',
    });
  });
});

describe("the project's details", () => {
  it('needs a name', () => {
    expect(checkProjectDetails({ name: ' ', description: '' }).errors).toEqual({
      name: 'Name is required',
      description: undefined,
    });
    expect(checkProjectDetails({ name: ' Shop ', description: ' x ' }).body).toEqual({
      name: 'Shop',
      description: 'x',
    });
  });
});
