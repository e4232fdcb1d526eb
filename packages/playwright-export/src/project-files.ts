import type { ProjectLogin } from '@argus/protocol';
import { literal, slugify, Writer } from './code-text';
import type { ExportInput } from './export-types';

// The files of an exported project besides its tests: the variables, the config, package.json, README.

/** The Playwright Test version the exported package.json asks for (the one Argus is tested with). */
export const PLAYWRIGHT_VERSION = '1.65.1';
const OTPAUTH_VERSION = '^9.5.2';
const TYPES_NODE_VERSION = '^20.19.0';
/** Where each worker keeps its signed-in state (tests/support/auth.ts), under Playwright's output directory. */
export const WORKER_AUTH_FILE = 'test-results/.auth/worker-<parallel index>.json';
export const STEP_TIMEOUT_MS = 10_000;
/** 10_000, as a person writes it in code. */
const STEP_TIMEOUT = '10_000';

/** The variable names a credentials login signs in with: numbered, they are a pool of accounts. */
export function accountVariables(login: ProjectLogin): string[] {
  if (login.mode !== 'credentials') return [];
  return [login.username_variable, login.password_secret, ...(login.totp_secret ? [login.totp_secret] : [])];
}

export function envFile(input: ExportInput): string {
  const w = new Writer();
  const plain = input.variables.filter((v) => !v.secret && v.value != null);
  const secrets = input.variables.filter((v) => v.secret).map((v) => v.name);
  w.line(
    `// The variables and secrets of project "${input.project}", environment "${input.environment.name}".`,
  );
  w.line('// Each is read from the environment variable of the same name (or a .env file next to');
  w.line('// playwright.config.ts). Plain variables fall back to the value saved in Argus; secrets never');
  w.line('// leave Argus, so set them yourself.');
  w.line();
  w.open('const SAVED: Record<string, string> = {');
  for (const v of plain) w.line(`${v.name}: ${literal(v.value ?? '')},`);
  w.close('};');
  w.line(`const SECRETS = new Set<string>([${secrets.map(literal).join(', ')}]);`);
  const account = accountVariables(input.login);
  if (account.length > 0) {
    w.line("/** The login's variables: numbered (`NAME_1`, `NAME_2`, …) they are a pool of accounts. */");
    w.line(`const ACCOUNT = [${account.map(literal).join(', ')}];`);
  }
  w.line();
  if (account.length > 0) {
    w.line('/**');
    w.line(
      ' * The value of `{{NAME}}`: the environment variable NAME, else the saved value of a plain variable.',
    );
    w.line(" * The login's names read the worker's own account of a pool (accountNumber in auth.ts), so a");
    w.line(` * step's \`{{${account[0]}}}\` is the account its worker signed in with.`);
    w.line(' */');
  } else {
    w.line(
      '/** The value of `{{NAME}}`: the environment variable NAME, else the saved value of a plain variable. */',
    );
  }
  w.open('export function env(name: string): string {');
  if (account.length > 0) {
    w.line('const index = Number(process.env.TEST_PARALLEL_INDEX ?? 0);');
    w.line(
      'const n = ACCOUNT.includes(name) ? accountNumber(index, ACCOUNT, (v) => read(v) !== undefined) : null;',
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template literal of the generated code
    w.line('const value = read(n === null ? name : `${name}_${n}`);');
  } else {
    w.line('const value = read(name);');
  }
  w.open('if (value === undefined) {');
  w.line("const kind = SECRETS.has(name) ? 'the secret' : 'the variable';");
  w.line(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template literal of the generated code
    'throw new Error(`Set ${name} (${kind} {{${name}}} of the project) in the environment or in .env`);',
  );
  w.close('}');
  w.line('return value;');
  w.close('}');
  w.line();
  w.open('function read(name: string): string | undefined {');
  w.line('return process.env[name] ?? SAVED[name];');
  w.close('}');
  const text = w.toString();
  return account.length > 0 ? `import { accountNumber } from './auth';\n\n${text}` : text;
}

export function configFile(input: ExportInput): string {
  const viewport = input.viewport ?? { width: 1280, height: 800 };
  const w = new Writer();
  w.line("import { defineConfig, devices } from '@playwright/test';");
  w.line();
  w.line('// A .env file next to this config, when there is one, sets the variables and secrets.');
  w.open('try {');
  w.line("process.loadEnvFile('.env');");
  w.close('} catch {}');
  w.line();
  w.line('// Argus gives each step 10 s (its STEP_TIMEOUT_MS), and a test 90 s.');
  w.line(`const stepTimeout = Number(process.env.STEP_TIMEOUT_MS) || ${STEP_TIMEOUT};`);
  w.line();
  w.open('export default defineConfig({');
  w.line("testDir: './tests',");
  w.line('fullyParallel: true,');
  w.line('timeout: 90_000,');
  w.line('expect: { timeout: stepTimeout },');
  w.line("reporter: [['list']],");
  w.open('use: {');
  w.line(`baseURL: process.env.PLAYWRIGHT_BASE_URL ?? ${literal(input.environment.base_url)},`);
  w.line('actionTimeout: stepTimeout,');
  w.line('navigationTimeout: stepTimeout,');
  w.line("screenshot: 'only-on-failure',");
  w.line(
    '// A trace of each failed test, as Argus keeps one (npx playwright show-trace test-results/…/trace.zip).',
  );
  w.line("trace: 'retain-on-failure',");
  w.line('// CHROMIUM_PATH: a Chromium of your own (else `npx playwright install chromium`).');
  w.line('launchOptions: { executablePath: process.env.CHROMIUM_PATH || undefined },');
  w.close('},');
  w.open('projects: [');
  w.open('{');
  w.line("name: 'chromium',");
  w.open('use: {');
  w.line("...devices['Desktop Chrome'],");
  w.line(`viewport: { width: ${viewport.width}, height: ${viewport.height} },`);
  w.close('},');
  w.close('},');
  w.close('],');
  w.close('});');
  return w.toString();
}

export function packageJson(input: ExportInput, totp: boolean): string {
  const devDependencies: Record<string, string> = {
    '@playwright/test': PLAYWRIGHT_VERSION,
    '@types/node': TYPES_NODE_VERSION,
  };
  if (totp) devDependencies.otpauth = OTPAUTH_VERSION;
  const manifest = {
    name: `${slugify(input.project)}-playwright`,
    version: '0.0.0',
    private: true,
    description: `Playwright tests exported from Argus (project "${input.project}")`,
    scripts: { test: 'playwright test', report: 'playwright show-report' },
    devDependencies,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export function readme(
  input: ExportInput,
  result: { tests: number; todo: number; lines: number },
  specs: string[],
  names: string[],
) {
  const secrets = input.variables.filter((v) => v.secret).map((v) => v.name);
  const plain = input.variables.filter((v) => !v.secret).map((v) => v.name);
  const lines = [
    `# ${input.project}: Playwright tests exported from Argus`,
    '',
    `Exported ${result.tests} test case${result.tests === 1 ? '' : 's'} (${result.lines} step lines) for environment "${input.environment.name}" (${input.environment.base_url}).`,
    '',
    `**${result.todo} line${result.todo === 1 ? '' : 's'} left as TODO comments** (\`// TODO(argus):\`): lines the step language cannot express (free-form steps) or that this export cannot translate. ${result.todo === 0 ? 'None here: every line translated.' : 'Search for `TODO(argus)` and write them by hand.'}`,
    '',
    '## Run',
    '',
    '```sh',
    'npm install',
    'npx playwright install chromium   # or: export CHROMIUM_PATH=/usr/bin/chromium',
    'npx playwright test',
    '```',
    '',
    '`PLAYWRIGHT_BASE_URL` runs the same tests against another environment of the project.',
    'Offline, an existing `@playwright/test` can stand in for `npm install` (symlink `node_modules/@playwright`, `node_modules/playwright` and `node_modules/playwright-core` from a project that has them, same version) with `CHROMIUM_PATH` pointing at a system Chromium.',
    '',
    '## Files',
    '',
    ...specs.map(
      (s, i) =>
        `- \`${s}\`: the suite "${names[i]}", one \`test()\` per test case, one \`test.step()\` per line`,
    ),
    ...(input.login.mode === 'none'
      ? []
      : [
          "- `tests/support/login.ts`: the project's login, and the signed-in `test` the specs import",
          '- `tests/support/auth.ts`: the sign-in once per Playwright worker (a worker-scoped fixture), and which account of a pool each worker takes',
        ]),
    '- `tests/support/argus.ts`: how Argus finds what a step names (a button or link by its text, a field by its label or placeholder, a list item or row by the text it shows) and the checks Playwright has no single call for',
    "- `tests/support/env.ts`: the project's variables and secrets, read from environment variables",
    '',
    '## Variables and secrets',
    '',
    'Every `{{NAME}}` of a step is read from the environment variable `NAME` (or a `.env` file here; see `.env.example`).',
    plain.length
      ? `Variables (their saved value is the default): ${plain.map((n) => `\`${n}\``).join(', ')}.`
      : 'No plain variables.',
    secrets.length
      ? `Secrets (never exported: set them yourself): ${secrets.map((n) => `\`${n}\``).join(', ')}.`
      : 'No secrets.',
    '',
    ...signingIn(input),
    'See docs/EXPORT.md in Argus for what each step becomes.',
    '',
  ];
  return lines.join('\n');
}

/** The README's section on the login: one sign-in per worker, and the pool of accounts. */
function signingIn(input: ExportInput): string[] {
  if (input.login.mode === 'none') return [];
  const lines = [
    '## Signing in',
    '',
    `Each Playwright worker signs in once, on its own, and keeps its storage state in \`${WORKER_AUTH_FILE}\` (Playwright empties \`test-results/\` when a run starts); every test of that worker starts from it. No two workers share a session, so tests running at the same time never read each other's flash messages, form tokens or carts.`,
  ];
  const [username, password, totp] = accountVariables(input.login);
  if (username && password) {
    const names = [username, password, ...(totp ? [totp] : [])];
    lines.push(
      '',
      `One account per worker: set numbered accounts beside the plain names (${names.map((n) => `\`${n}_1\``).join(', ')}; ${names.map((n) => `\`${n}_2\``).join(', ')}; …, numbered from 1 with no gap) and the worker of parallel index i signs in with account (i mod n) + 1, its steps reading \`{{${username}}}\` and the others as that account's; without numbered ones every worker signs in with ${names.map((n) => `\`${n}\``).join(', ')}. With at least as many accounts as workers (\`--workers\`), each worker's data is its own.`,
    );
  }
  lines.push('');
  return lines;
}
