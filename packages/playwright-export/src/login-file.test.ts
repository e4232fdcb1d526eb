// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests read generated code, template literals included
import { readFileSync } from 'node:fs';
import type { ProjectLogin } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { type ExportInput, exportPlaywright } from './export';
import { AUTH_SOURCE } from './support-source';
import { accountNumber } from './template/auth';

const CREDENTIALS: ProjectLogin = {
  mode: 'credentials',
  login_url: '/login',
  username_variable: 'EMAIL',
  password_secret: 'PASSWORD',
  totp_secret: 'TOTP',
};

/** The files of a one-case export with this login, by path. */
function filesOf(login: ProjectLogin, input: Partial<ExportInput> = {}) {
  const result = exportPlaywright({
    project: 'Shop',
    environment: { name: 'staging', base_url: 'https://staging.shop.test/' },
    login,
    variables: [
      { name: 'EMAIL', secret: false, value: 'qa@shop.test' },
      { name: 'PASSWORD', secret: true },
    ],
    suites: [{ name: 'Suite', test_cases: [{ test_name: 'Case', steps: ['Click "Orders"'] }] }],
    ...input,
  });
  const file = (path: string) => result.files.find((f) => f.path === path)?.content;
  return { ...result, file };
}

describe('exportPlaywright: the login, once per Playwright worker', () => {
  it('signs in with credentials (TOTP from otpauth) in a signed-in test the specs import', () => {
    const { file } = filesOf(CREDENTIALS);
    const login = file('tests/support/login.ts') ?? '';
    expect(login).toContain('export const test = signedInTest(async (page) => {');
    expect(login).toContain("url: '/login',");
    expect(login).toContain("username: env('EMAIL'),");
    expect(login).toContain("password: env('PASSWORD'),");
    expect(login).toContain("code: () => totp(env('TOTP')),");
    expect(login).toContain("import { TOTP, URI } from 'otpauth';");
    expect(login).toContain("export { expect } from './argus';");
    const spec = file('tests/suite.spec.ts') ?? '';
    expect(spec).toContain("import { expect, test } from './support/login';");
    expect(spec).toContain("import { target } from './support/argus';");
    expect(JSON.parse(file('package.json') ?? '{}').devDependencies).toEqual({
      '@playwright/test': '1.65.1',
      '@types/node': '^20.19.0',
      otpauth: '^9.5.2',
    });
  });

  it('has no setup project and no storage state shared by the workers', () => {
    const { files, file } = filesOf(CREDENTIALS);
    expect(files.map((f) => f.path)).not.toContain('tests/auth.setup.ts');
    const config = file('playwright.config.ts') ?? '';
    expect(config).not.toContain('setup');
    expect(config).not.toContain('storageState');
    expect(config).not.toContain('dependencies');
    expect(files.filter((f) => f.content.includes('playwright/.auth/user.json'))).toEqual([]);
    expect(file('.gitignore')).toContain('/test-results/\n');
  });

  it('carries the worker-scoped sign-in of template/auth.ts, its state in a file per parallel index', () => {
    const { file } = filesOf(CREDENTIALS);
    const auth = file('tests/support/auth.ts') ?? '';
    expect(auth).toBe(readFileSync(new URL('./template/auth.ts', import.meta.url), 'utf8'));
    expect(auth).toBe(AUTH_SOURCE);
    expect(auth).toContain('storageState: ({ workerStorageState }, use) => use(workerStorageState),');
    expect(auth).toContain("{ scope: 'worker' },");
    expect(auth).toContain('`worker-${workerInfo.parallelIndex}.json`');
  });

  it("reads the login's names from the worker's account of a pool in env.ts, and no other name", () => {
    const env = filesOf(CREDENTIALS).file('tests/support/env.ts') ?? '';
    expect(env).toContain("import { accountNumber } from './auth';");
    expect(env).toContain("const ACCOUNT = ['EMAIL', 'PASSWORD', 'TOTP'];");
    expect(env).toContain('accountNumber(index, ACCOUNT, (v) => read(v) !== undefined)');
    expect(env).toContain('const index = Number(process.env.TEST_PARALLEL_INDEX ?? 0);');
    const none = filesOf({ mode: 'none' }).file('tests/support/env.ts') ?? '';
    expect(none).not.toContain('accountNumber');
    expect(none).toContain('const value = read(name);');
  });

  it('says in the README that each worker signs in, with an account of its own from a pool', () => {
    const readme = filesOf({ ...CREDENTIALS, totp_secret: null }).file('README.md') ?? '';
    expect(readme).toContain('Each Playwright worker signs in once, on its own');
    expect(readme).toContain('`EMAIL_1`, `PASSWORD_1`; `EMAIL_2`, `PASSWORD_2`');
    expect(readme).toContain('signs in with account (i mod n) + 1');
    expect(readme).toContain(
      "With at least as many accounts as workers (`--workers`), each worker's data is its own.",
    );
    expect(readme).toContain('`tests/support/auth.ts`');
    expect(filesOf({ mode: 'none' }).file('README.md')).not.toContain('Signing in');
  });

  it('asks for otpauth only when a TOTP secret is used', () => {
    const { file } = filesOf({ ...CREDENTIALS, totp_secret: null });
    expect(file('tests/support/login.ts')).not.toContain('otpauth');
    expect(file('tests/support/env.ts')).toContain("const ACCOUNT = ['EMAIL', 'PASSWORD'];");
    expect(JSON.parse(file('package.json') ?? '{}').devDependencies.otpauth).toBeUndefined();
  });

  it('translates recorded login steps like any steps, their TODOs counted, with no pool of accounts', () => {
    const result = filesOf({
      mode: 'steps',
      steps: ['Navigate to /login', 'Fill "Email" with "{{EMAIL}}"', 'Solve the captcha', 'Press Enter'],
    });
    const login = result.file('tests/support/login.ts') ?? '';
    expect(login).toContain('export const test = signedInTest(async (page) => {');
    expect(login).toContain('await base.step(\'Fill "Email" with "{{EMAIL}}"\', async () => {');
    expect(login).toContain("await input.fill(env('EMAIL'));");
    expect(login).toContain('// TODO(argus): Solve the captcha');
    expect(result.todo).toBe(1);
    expect(result.lines).toBe(5);
    expect(result.file('tests/support/env.ts')).not.toContain('accountNumber');
    expect(result.file('README.md')).not.toContain('EMAIL_1');
  });

  it('has no login files without a login', () => {
    const { files, file } = filesOf({ mode: 'none' });
    expect(files.map((f) => f.path)).not.toContain('tests/support/login.ts');
    expect(files.map((f) => f.path)).not.toContain('tests/support/auth.ts');
    expect(file('tests/suite.spec.ts')).toContain("import { expect, test, target } from './support/argus';");
  });
});

describe('accountNumber: the account of a pool each worker signs in with', () => {
  const setOf = (names: string[]) => (name: string) => names.includes(name);
  const names = ['EMAIL', 'PASSWORD'];

  it('gives worker i account (i mod n) + 1 of n numbered accounts', () => {
    const two = setOf(['EMAIL_1', 'PASSWORD_1', 'EMAIL_2', 'PASSWORD_2']);
    expect([0, 1, 2, 3].map((i) => accountNumber(i, names, two))).toEqual([1, 2, 1, 2]);
  });

  it('has no pool without numbered accounts: the plain names are the one account', () => {
    expect(accountNumber(0, names, setOf(['EMAIL', 'PASSWORD']))).toBeNull();
  });

  it('counts an account only when all its names are set, consecutively from 1', () => {
    // EMAIL_2 without PASSWORD_2, and account 4 after a gap: one account.
    const set = setOf(['EMAIL_1', 'PASSWORD_1', 'EMAIL_2', 'EMAIL_4', 'PASSWORD_4']);
    expect([0, 1].map((i) => accountNumber(i, names, set))).toEqual([1, 1]);
    // A login asking for a code needs the numbered code too.
    expect(accountNumber(0, [...names, 'TOTP'], setOf(['EMAIL_1', 'PASSWORD_1']))).toBeNull();
  });
});
