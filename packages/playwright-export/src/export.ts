import { slugify } from './code-text';
import type { ExportFile, ExportInput, ExportResult } from './export-types';
import { loginFile } from './login-file';
import { configFile, envFile, packageJson, readme } from './project-files';
import { AUTH_SOURCE, SUPPORT_SOURCE } from './support-source';
import { specFile } from './test-files';

export { slugify } from './code-text';
export type {
  ExportCase,
  ExportFile,
  ExportInput,
  ExportResult,
  ExportSuite,
  ExportVariable,
} from './export-types';
export { PLAYWRIGHT_VERSION } from './project-files';

/**
 * A Playwright Test project for saved suites: a `.spec.ts` per suite, `playwright.config.ts`,
 * `package.json`, the login signed in once per Playwright worker, and a README. Pure:
 * no file is written. Secrets appear only by name (`env('NAME')`): their values are not an input.
 */
export function exportPlaywright(input: ExportInput): ExportResult {
  const root = (() => {
    try {
      const path = new URL(input.environment.base_url).pathname;
      return path === '/' || path === '';
    } catch {
      return true;
    }
  })();
  const builtinRunId = !input.variables.some((v) => v.name === 'RUN_ID');
  const files: ExportFile[] = [];
  let todo = 0;
  let lines = 0;
  let tests = 0;
  const specs: string[] = [];
  const taken = new Set<string>();
  for (const suite of input.suites) {
    let slug = slugify(suite.name);
    for (let n = 2; taken.has(slug); n++) slug = `${slugify(suite.name)}-${n}`;
    taken.add(slug);
    const spec = specFile(suite, input, builtinRunId, root);
    const path = `tests/${slug}.spec.ts`;
    files.push({ path, content: spec.content });
    specs.push(path);
    todo += spec.todo;
    lines += spec.count;
    tests += suite.test_cases.length;
  }
  // One sign-in per Playwright worker, never one storage state shared by every worker.
  const login = loginFile(input, builtinRunId, root);
  if (login) {
    files.push({ path: 'tests/support/login.ts', content: login.content });
    files.push({ path: 'tests/support/auth.ts', content: AUTH_SOURCE });
    todo += login.todo;
    lines += login.count;
  }
  const totp = input.login.mode === 'credentials' && !!input.login.totp_secret;
  files.push({ path: 'tests/support/argus.ts', content: SUPPORT_SOURCE });
  files.push({ path: 'tests/support/env.ts', content: envFile(input) });
  files.push({ path: 'playwright.config.ts', content: configFile(input) });
  files.push({ path: 'package.json', content: packageJson(input, totp) });
  files.push({
    path: '.env.example',
    content: `${input.variables.map((v) => `${v.name}=${v.secret ? '' : (v.value ?? '').replace(/\n/g, ' ')}`).join('\n')}\n`,
  });
  files.push({
    path: '.gitignore',
    // test-results/ holds each worker's signed-in state too (test-results/.auth/).
    content: 'node_modules/\n/test-results/\n/playwright-report/\n.env\n',
  });
  files.push({
    path: 'README.md',
    content: readme(
      input,
      { tests, todo, lines },
      specs,
      input.suites.map((s) => s.name),
    ),
  });
  return { files, todo, lines, tests };
}
