import { describe, expect, it } from 'vitest';
import {
  fillStep,
  fillText,
  MissingVariableError,
  newRunId,
  redactor,
  type StepVariables,
} from './variables';

const staging: StepVariables = {
  source: 'environment "staging" of project "Shop"',
  values: new Map([
    ['EMAIL', { value: 'qa@shop.test', secret: false }],
    ['PASSWORD', { value: 'hunter2-hunter2', secret: true }],
  ]),
};

describe('step variables', () => {
  it('fills each {{NAME}} and says when a secret went in', () => {
    const { step, secret } = fillStep({ verb: 'fill', field: 'Password', value: '{{PASSWORD}}' }, staging);
    expect(step).toEqual({ verb: 'fill', field: 'Password', value: 'hunter2-hunter2' });
    expect(secret).toBe(true);
    expect(fillStep({ verb: 'fill', field: 'Email', value: '{{EMAIL}}' }, staging).secret).toBe(false);
  });

  it('names the variable and where it looked when a value is missing', () => {
    expect(() => fillText('{{TOKEN}}', staging)).toThrow(MissingVariableError);
    expect(() => fillText('{{TOKEN}}', staging)).toThrow(
      /No value for \{\{TOKEN\}\} in environment "staging" of project "Shop"/,
    );
    expect(() => fillText('{{TOKEN}}', undefined)).toThrow(/not on a project environment/);
  });

  it('fills {{RUN_ID}} with the session’s id, with or without a project, unless the project defines it', () => {
    expect(fillText('Buy milk {{RUN_ID}}', undefined, 'k3x9q2')).toBe('Buy milk k3x9q2');
    expect(fillText('Buy milk {{RUN_ID}}', staging, 'k3x9q2')).toBe('Buy milk k3x9q2');
    const own: StepVariables = {
      ...staging,
      values: new Map([['RUN_ID', { value: 'fixed', secret: false }]]),
    };
    expect(fillText('{{RUN_ID}}', own, 'k3x9q2')).toBe('fixed');
    // Without a session's id it is a variable like any other.
    expect(() => fillText('{{RUN_ID}}', undefined)).toThrow(MissingVariableError);
  });

  it('makes run ids of six letters and digits, with at least one of each, different each time', () => {
    const ids = Array.from({ length: 200 }, () => newRunId());
    for (const id of ids) expect(id).toMatch(/^(?=.*[a-z])(?=.*\d)[a-z0-9]{6}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('hides a secret as typed and as a form sent by GET would show it', () => {
    const redact = redactor(staging);
    expect(redact('typed hunter2-hunter2 into Password')).toBe('typed {{PASSWORD}} into Password');
    expect(redact('/login?pw=hunter2-hunter2')).toBe('/login?pw={{PASSWORD}}');
    expect(redactor(undefined)('hunter2-hunter2')).toBe('hunter2-hunter2');
  });
});
