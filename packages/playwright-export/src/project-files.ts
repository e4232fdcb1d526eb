import { literal, slugify, Writer } from './code-text';
import type { ExportInput } from './export-types';

// The files of an exported project besides its tests: the variables, the config, package.json, README.

/** The Playwright Test version the exported package.json asks for (the one Argus is tested with). */
export const PLAYWRIGHT_VERSION = '1.65.1';
const OTPAUTH_VERSION = '^9.5.2';
const TYPES_NODE_VERSION = '^20.19.0';
/** Where the setup project keeps the signed-in state. */
export const AUTH_FILE = 'playwright/.auth/user.json';
export const STEP_TIMEOUT_MS = 10_000;
/** 10_000, as a person writes it in code. */
const STEP_TIMEOUT = '10_000';

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
  w.line();
  w.line(
    '/** The value of `{{NAME}}`: the environment variable NAME, else the saved value of a plain variable. */',
  );
  w.open('export function env(name: string): string {');
  w.line('const value = process.env[name] ?? SAVED[name];');
  w.open('if (value === undefined) {');
  w.line("const kind = SECRETS.has(name) ? 'the secret' : 'the variable';");
  w.line(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template literal of the generated code
    'throw new Error(`Set ${name} (${kind} {{${name}}} of the project) in the environment or in .env`);',
  );
  w.close('}');
  w.line('return value;');
  w.close('}');
  return w.toString();
}

export function configFile(input: ExportInput, hasLogin: boolean): string {
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
  w.line("trace: 'on-first-retry',");
  w.line('// CHROMIUM_PATH: a Chromium of your own (else `npx playwright install chromium`).');
  w.line('launchOptions: { executablePath: process.env.CHROMIUM_PATH || undefined },');
  w.close('},');
  w.open('projects: [');
  if (hasLogin) w.line("{ name: 'setup', testMatch: /auth\\.setup\\.ts/ },");
  w.open('{');
  w.line("name: 'chromium',");
  w.open('use: {');
  w.line("...devices['Desktop Chrome'],");
  w.line(`viewport: { width: ${viewport.width}, height: ${viewport.height} },`);
  if (hasLogin) w.line(`storageState: ${literal(AUTH_FILE)},`);
  w.close('},');
  if (hasLogin) w.line("dependencies: ['setup'],");
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
          "- `tests/auth.setup.ts`: the project's login, run once by the `setup` project; it saves the signed-in state to `" +
            AUTH_FILE +
            '`, which every test starts from (the `chromium` project depends on `setup`)',
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
    'See docs/EXPORT.md in Argus for what each step becomes.',
    '',
  ];
  return lines.join('\n');
}
