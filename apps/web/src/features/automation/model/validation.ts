import type { TestMode } from '@argus/protocol';

/** The texts of docs/PRODUCT.md#generation and docs/PRODUCT.md#running-tests. */
export const VALIDATION = {
  urlRequired: 'Please enter a URL',
  commandRequired: 'Please enter a command for command-based testing',
  loginToGenerate: 'Please login to create test runs',
  invalidUrl: 'Please enter a valid URL (including http:// or https://)',
  notConnected: 'WebSocket not connected. Please refresh the page.',
  noTestCases: 'No test cases to run',
  noSession: 'No active session. Please generate test cases first.',
  loginToRun: 'Please login to run tests',
} as const;

/** An absolute http:// or https:// address. */
export function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export interface GenerateInput {
  url: string;
  command: string;
  mode: TestMode;
  isLoggedIn: boolean;
  isConnected: boolean;
}

/** docs/PRODUCT.md#generation, in its order: URL, command (command mode), login, absolute URL, connection. */
export function validateGenerate(input: GenerateInput): string | null {
  if (!input.url.trim()) return VALIDATION.urlRequired;
  if (input.mode === 'command' && !input.command.trim()) return VALIDATION.commandRequired;
  if (!input.isLoggedIn) return VALIDATION.loginToGenerate;
  if (!isAbsoluteHttpUrl(input.url)) return VALIDATION.invalidUrl;
  if (!input.isConnected) return VALIDATION.notConnected;
  return null;
}

/** docs/PRODUCT.md#generation: the Generate button is disabled when a check would fail before even trying. */
export function canGenerate(input: GenerateInput & { isBusy: boolean }): boolean {
  return (
    input.url.trim().length > 0 &&
    (input.mode !== 'command' || input.command.trim().length > 0) &&
    !input.isBusy &&
    input.isConnected &&
    input.isLoggedIn
  );
}

export interface RunInput {
  testCaseCount: number;
  isConnected: boolean;
  sessionId: string | null;
  isLoggedIn: boolean;
}

/** docs/PRODUCT.md#running-tests, in its order: test cases, connection, active session, login. */
export function validateRun(input: RunInput): string | null {
  if (input.testCaseCount === 0) return VALIDATION.noTestCases;
  if (!input.isConnected) return VALIDATION.notConnected;
  if (!input.sessionId) return VALIDATION.noSession;
  if (!input.isLoggedIn) return VALIDATION.loginToRun;
  return null;
}
