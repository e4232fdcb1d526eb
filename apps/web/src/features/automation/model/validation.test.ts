import { describe, expect, it } from 'vitest';
import { canGenerate, isAbsoluteHttpUrl, VALIDATION, validateGenerate, validateRun } from './validation';

const ok = {
  url: 'https://shop.example.com',
  command: '',
  mode: 'full' as const,
  isLoggedIn: true,
  isConnected: true,
};

describe('validateGenerate (docs/PRODUCT.md#generation, in order)', () => {
  it('passes a complete request', () => {
    expect(validateGenerate(ok)).toBeNull();
    expect(validateGenerate({ ...ok, mode: 'command', command: 'test the login form' })).toBeNull();
  });

  it('reports the first failing rule: URL, command, login, absolute URL, connection', () => {
    const nothing = {
      url: ' ',
      command: '',
      mode: 'command' as const,
      isLoggedIn: false,
      isConnected: false,
    };
    expect(validateGenerate(nothing)).toBe('Please enter a URL');
    expect(validateGenerate({ ...nothing, url: 'shop' })).toBe(
      'Please enter a command for command-based testing',
    );
    expect(validateGenerate({ ...nothing, url: 'shop', command: 'x' })).toBe(
      'Please login to create test runs',
    );
    expect(validateGenerate({ ...nothing, url: 'shop', command: 'x', isLoggedIn: true })).toBe(
      'Please enter a valid URL (including http:// or https://)',
    );
    expect(validateGenerate({ ...nothing, url: 'http://shop', command: 'x', isLoggedIn: true })).toBe(
      'WebSocket not connected. Please refresh the page.',
    );
  });

  it('needs no command in full mode', () => {
    expect(validateGenerate({ ...ok, command: '' })).toBeNull();
  });

  it('accepts only absolute http(s) URLs', () => {
    expect(isAbsoluteHttpUrl('http://127.0.0.1:4400/')).toBe(true);
    expect(isAbsoluteHttpUrl(' https://example.com/a?b ')).toBe(true);
    expect(isAbsoluteHttpUrl('example.com')).toBe(false);
    expect(isAbsoluteHttpUrl('ftp://example.com')).toBe(false);
    expect(isAbsoluteHttpUrl('javascript:alert(1)')).toBe(false);
  });
});

describe('canGenerate (docs/PRODUCT.md#generation: when the button is enabled)', () => {
  const ready = { ...ok, isBusy: false };
  it('is disabled for an empty URL, an empty command in command mode, busy, disconnected or logged out', () => {
    expect(canGenerate(ready)).toBe(true);
    expect(canGenerate({ ...ready, url: '' })).toBe(false);
    expect(canGenerate({ ...ready, mode: 'command', command: '  ' })).toBe(false);
    expect(canGenerate({ ...ready, mode: 'command', command: 'login' })).toBe(true);
    expect(canGenerate({ ...ready, isBusy: true })).toBe(false);
    expect(canGenerate({ ...ready, isConnected: false })).toBe(false);
    expect(canGenerate({ ...ready, isLoggedIn: false })).toBe(false);
  });

  it('stays enabled for a URL that is not absolute, so the click explains why', () => {
    expect(canGenerate({ ...ready, url: 'example.com' })).toBe(true);
  });
});

describe('validateRun (docs/PRODUCT.md#running-tests, in order)', () => {
  const ready = { testCaseCount: 3, isConnected: true, sessionId: 's1', isLoggedIn: true };
  it('checks test cases, connection, session, login', () => {
    expect(validateRun(ready)).toBeNull();
    const none = { testCaseCount: 0, isConnected: false, sessionId: null, isLoggedIn: false };
    expect(validateRun(none)).toBe(VALIDATION.noTestCases);
    expect(validateRun({ ...none, testCaseCount: 1 })).toBe(
      'WebSocket not connected. Please refresh the page.',
    );
    expect(validateRun({ ...none, testCaseCount: 1, isConnected: true })).toBe(
      'No active session. Please generate test cases first.',
    );
    expect(validateRun({ ...ready, isLoggedIn: false })).toBe('Please login to run tests');
  });
});
