import type { Environment, Variable } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { checkVariable, existingVariable, variableNames, variableScopes } from './variables';

const env = (id: string, name: string): Environment => ({
  id,
  project_id: 'p',
  name,
  base_url: `https://${name}.example.com`,
  is_default: id === 'e1',
  created_at: '2026-01-01T00:00:00Z',
});

const variable = (name: string, environment_id: string | null, secret = false): Variable => ({
  id: `${name}-${environment_id}`,
  project_id: 'p',
  environment_id,
  name,
  secret,
  value: secret ? null : 'x',
  updated_at: '2026-01-01T00:00:00Z',
});

describe('variable scopes', () => {
  it("lists project-wide values, then each environment's own, names sorted", () => {
    const scopes = variableScopes(
      [variable('B', null), variable('A', null), variable('PASSWORD', 'e2', true), variable('Z', 'gone')],
      [env('e1', 'production'), env('e2', 'staging')],
    );
    expect(scopes.map((s) => [s.environmentId, s.title, s.variables.map((v) => v.name)])).toEqual([
      [null, 'Project-wide', ['A', 'B', 'Z']],
      ['e1', 'production', []],
      ['e2', 'staging', ['PASSWORD']],
    ]);
  });

  it('names each name once, split into variables and secrets', () => {
    expect(
      variableNames([
        variable('USER', null),
        variable('USER', 'e1'),
        variable('PASSWORD', null, true),
        variable('PASSWORD', 'e2', true),
      ]),
    ).toEqual({ all: ['PASSWORD', 'USER'], plain: ['USER'], secrets: ['PASSWORD'] });
  });

  it('finds the variable a save would replace, by name and scope', () => {
    const list = [variable('USER', null), variable('USER', 'e1')];
    expect(existingVariable(list, ' USER ', '')?.environment_id).toBeNull();
    expect(existingVariable(list, 'USER', 'e1')?.environment_id).toBe('e1');
    expect(existingVariable(list, 'USER', 'e2')).toBeUndefined();
  });
});

describe('the variable form', () => {
  it('builds the PUT body; project-wide is environment_id null', () => {
    expect(checkVariable({ name: ' USERNAME ', value: 'demo', secret: false, environmentId: '' })).toEqual({
      body: { name: 'USERNAME', value: 'demo', secret: false, environment_id: null },
      errors: null,
    });
    expect(
      checkVariable({ name: 'PASSWORD', value: 's3cret', secret: true, environmentId: 'e1' }).body,
    ).toEqual({
      name: 'PASSWORD',
      value: 's3cret',
      secret: true,
      environment_id: 'e1',
    });
  });

  it('refuses a name that steps could not write as {{NAME}}, and an empty secret', () => {
    expect(checkVariable({ name: 'user name', value: '', secret: true, environmentId: '' }).errors).toEqual({
      name: 'Use capital letters, digits and _ (starting with a letter), at most 64',
      value: 'Enter the secret',
    });
  });
});
