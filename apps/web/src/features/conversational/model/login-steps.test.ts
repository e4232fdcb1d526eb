import { parseStep } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkLoginSteps,
  conversationSteps,
  loginDraft,
  protectPasswords,
  relativeToProject,
} from './login-steps';

const said = (...actions: string[]) => ({
  role: 'assistant',
  actions: actions.map((action) => ({ action })),
});
const asked = (text: string) => ({ role: 'user', actions: [{ action: text }] });

const SIGN_IN = {
  url: 'http://127.0.0.1:4400/login.html',
  messages: [
    asked('fill the email with demo@acme.test'),
    said('Fill "Email" with "demo@acme.test"'),
    said('Fill "Password" with "Password1"'),
    said('Click button "Sign in"', 'looked around'),
  ],
};

describe('conversationSteps', () => {
  it("is what 'Save as test' saves: the assistant's step lines, opening with the start page", () => {
    expect(conversationSteps(SIGN_IN)).toEqual([
      'Navigate to http://127.0.0.1:4400/login.html',
      'Fill "Email" with "demo@acme.test"',
      'Fill "Password" with "Password1"',
      'Click button "Sign in"',
    ]);
  });

  it('keeps an opening navigation as it is, and has nothing without actions', () => {
    expect(
      conversationSteps({ url: 'https://a.test/', messages: [said('Navigate to https://b.test/login')] }),
    ).toEqual(['Navigate to https://b.test/login']);
    expect(conversationSteps({ url: 'https://a.test/', messages: [said('looked around')] })).toEqual([]);
    expect(conversationSteps({ url: null })).toEqual([]);
  });
});

describe('protectPasswords on a conversation', () => {
  it('types {{PASSWORD}} into a password field instead of what was typed', () => {
    const { lines, replaced } = protectPasswords(conversationSteps(SIGN_IN));
    expect(lines[2]).toBe('Fill "Password" with "{{PASSWORD}}"');
    expect(lines[1]).toBe('Fill "Email" with "demo@acme.test"');
    expect(replaced).toBe(1);
    expect(lines.join('\n')).not.toContain('Password1');
    for (const line of lines) expect(() => parseStep(line)).not.toThrow();
  });
});

describe('relativeToProject', () => {
  it("makes pages on one of the project's environments relative to it", () => {
    expect(
      relativeToProject(
        ['Navigate to http://127.0.0.1:4400/login.html', 'Navigate to https://elsewhere.test/x'],
        ['https://staging.acme.test', 'http://127.0.0.1:4400/'],
      ),
    ).toEqual(['Navigate to /login.html', 'Navigate to https://elsewhere.test/x']);
    expect(relativeToProject(['Navigate to https://acme.test/app/login'], ['https://acme.test/app'])).toEqual(
      ['Navigate to ./login'],
    );
  });
});

describe('loginDraft', () => {
  it('says the password is not kept when the server stored the conversation with {{PASSWORD}} already', () => {
    const stored = {
      url: 'http://127.0.0.1:4400/login.html',
      messages: [said('Fill "Password" with "{{PASSWORD}}"', 'Click button "Sign in"')],
    };
    expect(loginDraft(stored).passwordReplaced).toBe(true);
  });

  it('is the steps, one a line, without the password and relative to the project', () => {
    const draft = loginDraft(SIGN_IN, ['http://127.0.0.1:4400']);
    expect(draft).toEqual({
      text: [
        'Navigate to /login.html',
        'Fill "Email" with "demo@acme.test"',
        'Fill "Password" with "{{PASSWORD}}"',
        'Click button "Sign in"',
      ].join('\n'),
      passwordReplaced: true,
      empty: false,
    });
    expect(loginDraft({ url: null, messages: [] })).toEqual({
      text: '',
      passwordReplaced: false,
      empty: true,
    });
  });
});

describe('checkLoginSteps', () => {
  it('gives the steps as the project stores them: trimmed, without blank lines', () => {
    expect(checkLoginSteps('  Navigate to /login  \n\nClick "Sign in"\n')).toEqual({
      steps: ['Navigate to /login', 'Click "Sign in"'],
      error: null,
      badLines: [],
    });
  });

  it('names the lines that are not in the step language, as the textarea numbers them', () => {
    const check = checkLoginSteps('Navigate to /login\n\nsign me in please\nClick "Sign in"\nand wait');
    expect(check.steps).toBeNull();
    expect(check.badLines).toEqual([3, 5]);
    expect(check.error).toContain('line 3 ("sign me in please")');
    expect(check.error).toContain('line 5 ("and wait")');
  });

  it('refuses nothing at all, and more than 50 steps', () => {
    expect(checkLoginSteps(' \n ').error).toBe('Write at least one step');
    expect(checkLoginSteps(Array(51).fill('Wait 1 second').join('\n')).error).toBe(
      'A login can have at most 50 steps (this has 51)',
    );
  });
});
