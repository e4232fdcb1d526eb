import type { ProjectLogin } from '@argus/protocol';
import { importLine, literal, type Scope, str, Writer } from './code-text';
import type { ExportInput } from './export-types';
import { writeSteps } from './test-files';

// tests/support/login.ts: the project's login, which tests/support/auth.ts (the template) runs once per
// Playwright worker; the specs of a project with a login import its `test`.

const CREDENTIALS_DOC = [
  '/**',
  " * `test` signed in: each Playwright worker signs in once (tests/support/auth.ts), as Argus's lanes do,",
  ' * with the account of its parallel index when numbered accounts are set (tests/support/env.ts), and',
  ' * every test it runs starts from its own session.',
  ' */',
];

const STEPS_DOC = [
  '/**',
  " * `test` signed in: each Playwright worker runs the project's recorded login once",
  ' * (tests/support/auth.ts), and every test it runs starts from its own session.',
  ' */',
];

function credentialsLogin(login: Extract<ProjectLogin, { mode: 'credentials' }>, builtinRunId: boolean) {
  const scope: Scope = {
    builtinRunId,
    usesRunId: false,
    usesHealth: false,
    helpers: new Set(),
    usesEnv: true,
  };
  const w = new Writer();
  w.line("// The project's login, done once per Playwright worker.");
  if (login.totp_secret) w.line("import { TOTP, URI } from 'otpauth';");
  w.line("import { signIn } from './argus';");
  w.line("import { signedInTest } from './auth';");
  w.line("import { env } from './env';");
  w.line();
  w.line("export { expect } from './argus';");
  w.line();
  w.lines(CREDENTIALS_DOC);
  w.open('export const test = signedInTest(async (page) => {');
  w.open('await signIn(page, {');
  w.line(`url: ${str(login.login_url, scope)},`);
  w.line(`username: env(${literal(login.username_variable)}),`);
  w.line(`password: env(${literal(login.password_secret)}),`);
  if (login.totp_secret) w.line(`code: () => totp(env(${literal(login.totp_secret)})),`);
  w.close('});');
  w.close('});');
  if (login.totp_secret) {
    w.line();
    w.line('/** The current code of a TOTP secret: base32, or an otpauth:// URI. */');
    w.open('function totp(secret: string): string {');
    w.line("if (secret.startsWith('otpauth://')) return URI.parse(secret).generate();");
    w.line("return new TOTP({ secret: secret.replace(/\\s+/g, '').toUpperCase() }).generate();");
    w.close('}');
  }
  return { content: w.toString(), todo: 0, count: 0 };
}

function recordedLogin(steps: string[], builtinRunId: boolean, root: boolean) {
  // Each line a step of the first test the worker runs (the one that asked for its sign-in).
  const body = writeSteps(steps, builtinRunId, root ? '/' : './', 'base');
  const usesExpect = body.lines.some((l) => l.includes('expect('));
  const w = new Writer();
  w.line("// The project's recorded login, done once per Playwright worker.");
  w.line("import { test as base } from '@playwright/test';");
  const helpers = [
    ...body.scope.helpers,
    ...(body.scope.usesRunId ? ['makeRunId'] : []),
    ...(usesExpect ? ['expect'] : []),
  ].sort();
  if (helpers.length) w.line(importLine(helpers, './argus'));
  w.line("import { signedInTest } from './auth';");
  if (body.scope.usesEnv) w.line("import { env } from './env';");
  w.line();
  w.line("export { expect } from './argus';");
  w.line();
  w.lines(STEPS_DOC);
  w.open('export const test = signedInTest(async (page) => {');
  if (body.scope.usesRunId) w.line('const runId = makeRunId();');
  w.lines(body.lines);
  w.close('});');
  return { content: w.toString(), todo: body.todo, count: body.count };
}

/** tests/support/login.ts, or null for a project without a login. */
export function loginFile(input: ExportInput, builtinRunId: boolean, root: boolean) {
  const login = input.login;
  if (login.mode === 'credentials') return credentialsLogin(login, builtinRunId);
  if (login.mode === 'steps') return recordedLogin(login.steps, builtinRunId, root);
  return null;
}
