import { type ProjectLogin, parseStep, type Step, type TargetRole, variablesIn } from '@argus/protocol';
import { SUPPORT_SOURCE } from './support-source';

/** A variable or secret of the project, as the export sees it: a secret never has a value here. */
export interface ExportVariable {
  name: string;
  secret: boolean;
  /** A plain variable's saved value (the default of its environment variable); ignored for a secret. */
  value?: string | null;
}

export interface ExportCase {
  test_name: string;
  steps: string[];
  /** The page the case starts on when it does not begin with `Navigate to`; empty: the base URL. */
  url?: string;
  description?: string;
}

export interface ExportSuite {
  name: string;
  test_cases: ExportCase[];
}

export interface ExportInput {
  project: string;
  environment: { name: string; base_url: string };
  login: ProjectLogin;
  variables: ExportVariable[];
  suites: ExportSuite[];
  /** The viewport of every test (a mobile project's phone). @default 1280 × 800 */
  viewport?: { width: number; height: number };
}

export interface ExportFile {
  path: string;
  content: string;
}

export interface ExportResult {
  files: ExportFile[];
  /** Lines left as `// TODO(argus):` comments: the step language cannot express them, or the export cannot. */
  todo: number;
  /** Step lines exported (the login's included). */
  lines: number;
  /** Test cases exported. */
  tests: number;
}

/** The Playwright Test version the exported package.json asks for (the one Argus is tested with). */
export const PLAYWRIGHT_VERSION = '1.65.1';
const OTPAUTH_VERSION = '^9.5.2';
const TYPES_NODE_VERSION = '^20.19.0';
/** Where the setup project keeps the signed-in state. */
const AUTH_FILE = 'playwright/.auth/user.json';
const STEP_TIMEOUT_MS = 10_000;
/** 10_000, as a person writes it in code. */
const STEP_TIMEOUT = '10_000';

/** A name fit for a file: lowercase words joined by `-`. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'suite';
}

/** A JavaScript string literal in single quotes. */
export function literal(text: string): string {
  const escaped = text.replace(/[\\'\n\r\t\u2028\u2029]/g, (c) =>
    c === '\\'
      ? '\\\\'
      : c === "'"
        ? "\\'"
        : c === '\n'
          ? '\\n'
          : c === '\r'
            ? '\\r'
            : c === '\t'
              ? '\\t'
              : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `'${escaped}'`;
}

const VARIABLE = /\{\{\s*([A-Z][A-Z0-9_]{0,63})\s*\}\}/g;

/** A `/…/` literal matching `text` as it is. */
function regexLiteral(text: string): string {
  const source = text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\n/g, '\\n');
  return `/${source}/`;
}

/** What one test's code knows while it is written. */
interface Scope {
  /** Whether `{{RUN_ID}}` is the built-in (no project variable of that name). */
  builtinRunId: boolean;
  usesRunId: boolean;
  usesHealth: boolean;
  helpers: Set<string>;
  usesEnv: boolean;
}

/** A string argument as code: a literal, or a template literal reading each `{{NAME}}` from the environment. */
function str(text: string, scope: Scope): string {
  if (variablesIn(text).length === 0) return literal(text);
  const value = (name: string) => {
    if (name === 'RUN_ID' && scope.builtinRunId) {
      scope.usesRunId = true;
      return 'runId';
    }
    scope.usesEnv = true;
    return `env(${literal(name)})`;
  };
  const whole = text.match(/^\{\{\s*([A-Z][A-Z0-9_]{0,63})\s*\}\}$/);
  if (whole) return value(whole[1]);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(VARIABLE)) {
    out += templatePart(text.slice(last, m.index));
    out += `\${${value(m[1])}}`;
    last = (m.index ?? 0) + m[0].length;
  }
  out += templatePart(text.slice(last));
  return `\`${out}\``;
}

const templatePart = (text: string) => text.replace(/[\\`]|\$\{/g, (c) => `\\${c}`);

/** A name for the const holding a located element, by its role. */
function nameFor(role: TargetRole | undefined, fallback: string): string {
  if (!role) return fallback;
  return role === 'listitem' ? 'item' : role;
}

interface Translation {
  /** Lines of code; empty for a TODO. */
  code: string[];
  todo?: string;
}

/** The code of one parsed step (without its `test.step` wrapper). */
export function translateStep(step: Step, scope: Scope): Translation {
  const h = (...names: string[]) => {
    for (const n of names) scope.helpers.add(n);
  };
  const s = (text: string) => str(text, scope);
  const code: string[] = [];
  /** The region's const (`item`), declared first, or `page`. */
  const rootOf = (region: string | undefined, blocks = false) => {
    if (region === undefined) return 'page';
    h('region');
    code.push(`const area = await region(page, ${s(region)}${blocks ? ', { blocks: true }' : ''});`);
    return 'area';
  };
  /** `target(page, …)` with its options written only when they differ from a click's. */
  const targetCall = (name: string, kind: string, role?: TargetRole, root = 'page') => {
    h('target');
    const options = [
      kind === 'click' ? '' : `kind: '${kind}'`,
      role ? `role: '${role}'` : '',
      root === 'page' ? '' : `within: ${root}`,
    ].filter(Boolean);
    return `await target(page, ${s(name)}${options.length ? `, { ${options.join(', ')} }` : ''})`;
  };
  const fieldCall = (name: string) => {
    h('field');
    return `await field(page, ${s(name)})`;
  };
  switch (step.verb) {
    case 'navigate':
      code.push(`const response = await page.goto(${s(step.url)});`);
      code.push('expect(response?.status() ?? 200).toBeLessThan(400);');
      break;
    case 'back':
      code.push('await page.goBack();');
      break;
    case 'reload':
      code.push('await page.reload();');
      break;
    case 'click': {
      if (step.target === undefined) {
        const root = rootOf(step.region, true);
        h('controlIn');
        const role = step.role ?? 'button';
        code.push(`const ${nameFor(role, 'button')} = await controlIn(${root}, '${role}');`);
        code.push(`await ${nameFor(role, 'button')}.click();`);
        break;
      }
      const root = rootOf(step.region);
      const name = nameFor(step.role, 'element');
      code.push(`const ${name} = ${targetCall(step.target, 'click', step.role, root)};`);
      code.push(`await ${name}.click();`);
      break;
    }
    case 'doubleClick': {
      const root = rootOf(step.region);
      code.push(`const element = ${targetCall(step.target, 'text', undefined, root)};`);
      code.push('await element.dblclick();');
      break;
    }
    case 'hover': {
      const root = rootOf(step.region);
      code.push(`const element = ${targetCall(step.target, 'any', undefined, root)};`);
      code.push('await element.hover();');
      break;
    }
    case 'fill':
      code.push(`const input = ${fieldCall(step.field)};`);
      code.push(`await input.fill(${s(step.value)});`);
      break;
    case 'clear':
      code.push(`const input = ${fieldCall(step.field)};`);
      code.push('await input.clear();');
      break;
    case 'select':
      code.push(`const input = ${fieldCall(step.field)};`);
      code.push(`await input.selectOption({ label: ${s(step.option)} });`);
      break;
    case 'check': {
      h('setChecked');
      if (step.target === undefined) {
        const root = rootOf(step.region);
        h('controlIn');
        code.push(`await setChecked(await controlIn(${root}, 'checkbox'), ${step.checked});`);
        break;
      }
      const root = rootOf(step.region);
      code.push(`await setChecked(${targetCall(step.target, 'check', undefined, root)}, ${step.checked});`);
      break;
    }
    case 'press':
      if (step.field !== undefined) {
        code.push(`const input = ${fieldCall(step.field)};`);
        code.push(`await input.press(${literal(step.key)});`);
      } else code.push(`await page.keyboard.press(${literal(step.key)});`);
      break;
    case 'type':
      h('focusedField');
      code.push('await focusedField(page);');
      code.push(`await page.keyboard.type(${s(step.value)});`);
      break;
    case 'fillFocused':
      h('focusedField');
      code.push('const input = await focusedField(page);');
      code.push(`await input.fill(${s(step.value)});`);
      break;
    case 'scroll':
      if (step.target === 'bottom')
        code.push('await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));');
      else if (step.target === 'top') code.push('await page.evaluate(() => window.scrollTo(0, 0));');
      else {
        code.push(`const element = ${targetCall(step.target, 'any')};`);
        code.push('await element.scrollIntoViewIfNeeded();');
      }
      break;
    case 'wait':
      code.push(`await page.waitForTimeout(${Math.min(step.ms, STEP_TIMEOUT_MS)});`);
      break;
    case 'waitForText':
      code.push(`await expect(page.getByText(${s(step.text)}).first()).toBeVisible();`);
      break;
    case 'viewport':
      code.push(`await page.setViewportSize({ width: ${step.width}, height: ${step.height} });`);
      break;
    case 'screenshot':
      code.push(
        "await test.info().attach('screenshot', { body: await page.screenshot(), contentType: 'image/png' });",
      );
      break;
    case 'verifyText':
    case 'verifyElement': {
      const root = rootOf(step.region);
      const locator =
        step.verb === 'verifyText'
          ? `${root}.getByText(${s(step.text)})`
          : `${root}.getByRole('${step.role}', { name: ${s(step.name)} })`;
      code.push(
        step.visible
          ? `await expect(${locator}.filter({ visible: true }).first()).toBeVisible();`
          : `await expect(${locator}.filter({ visible: true })).toHaveCount(0);`,
      );
      break;
    }
    case 'verifyExactCount': {
      const root = rootOf(step.region);
      code.push(
        `await expect(${root}.getByRole('${step.role}').filter({ visible: true })).toHaveCount(${step.count});`,
      );
      break;
    }
    case 'verifyCount':
      code.push(
        `await expect.poll(() => page.getByRole('${step.role}').filter({ visible: true }).count()).toBeGreaterThanOrEqual(${step.atLeast});`,
      );
      break;
    case 'verifyChecked': {
      const root = rootOf(step.region);
      if (step.target === undefined) {
        h('controlIn');
        code.push(`const checkbox = await controlIn(${root}, 'checkbox');`);
      } else code.push(`const checkbox = ${targetCall(step.target, 'check', undefined, root)};`);
      code.push(`await expect(checkbox).${step.checked ? '' : 'not.'}toBeChecked();`);
      break;
    }
    case 'verifyState': {
      h('isMarked');
      const root = rootOf(step.region);
      code.push(`const element = ${targetCall(step.target, 'text', step.role, root)};`);
      code.push(`await expect.poll(() => isMarked(element, ${s(step.state)})).toBe(${step.marked});`);
      break;
    }
    case 'verifyUrl':
      code.push(
        variablesIn(step.text).length === 0
          ? `await expect(page).toHaveURL(${regexLiteral(step.text)});`
          : `await expect(page).toHaveURL((url) => url.href.includes(${s(step.text)}));`,
      );
      break;
    case 'verifyTitle':
      code.push(
        variablesIn(step.text).length === 0
          ? `await expect(page).toHaveTitle(${regexLiteral(step.text)});`
          : `await expect.poll(() => page.title()).toContain(${s(step.text)});`,
      );
      break;
    case 'verifyValue':
      code.push(`const input = ${fieldCall(step.field)};`);
      code.push(`await expect(input).toHaveValue(${s(step.value)});`);
      break;
    case 'verifyInvalid':
      h('showsValidationError');
      code.push(`const input = ${fieldCall(step.field)};`);
      code.push('await expect.poll(() => showsValidationError(input)).toBe(true);');
      break;
    case 'verifyNoErrors':
      h('visibleErrors');
      code.push('await page.waitForTimeout(200); // lets a submit handler show its messages');
      code.push('expect(await visibleErrors(page)).toEqual([]);');
      break;
    case 'verifyNoConsoleErrors':
      scope.usesHealth = true;
      code.push("await page.waitForLoadState('load');");
      code.push('expect(pageHealth.consoleErrors).toEqual([]);');
      break;
    case 'verifyNoFailedRequests':
      scope.usesHealth = true;
      code.push("await page.waitForLoadState('load');");
      code.push('expect(pageHealth.failedRequests).toEqual([]);');
      break;
    case 'verifyLinksWork':
      h('brokenLinks');
      code.push('expect(await brokenLinks(page)).toEqual([]);');
      break;
    case 'verifyImagesAlt':
      h('imagesWithoutAlt');
      code.push('expect(await imagesWithoutAlt(page)).toEqual([]);');
      break;
    case 'verifyNoOverflow':
      h('horizontalOverflow');
      code.push('expect(await horizontalOverflow(page)).toBe(false);');
      break;
    case 'verifySum':
      h('rowsAddUp');
      code.push(
        `await expect.poll(() => rowsAddUp(page, [${step.parts.map(s).join(', ')}], ${s(step.total)})).toBe(true);`,
      );
      break;
    case 'verifyCountOf':
      h('countMatches');
      code.push(`await expect.poll(() => countMatches(page, ${s(step.text)}, ${s(step.cell)})).toBe(true);`);
      break;
    case 'verifyAccessibility':
      return {
        code: [],
        todo: 'axe-core is not part of the export: add @axe-core/playwright and check for serious or critical violations',
      };
    default: {
      const never: never = step;
      return { code: [], todo: `no translation for the step ${(never as Step).verb}` };
    }
  }
  return { code };
}

/** Lines of code with indentation, for readable output. */
class Writer {
  private readonly out: string[] = [];
  private depth = 0;
  line(text = ''): this {
    this.out.push(text === '' ? '' : '  '.repeat(this.depth) + text);
    return this;
  }
  lines(texts: string[]): this {
    for (const t of texts) this.line(t);
    return this;
  }
  open(text: string): this {
    this.line(text);
    this.depth++;
    return this;
  }
  close(text: string): this {
    this.depth--;
    return this.line(text);
  }
  toString(): string {
    return `${this.out.join('\n')}\n`;
  }
}

/** A step's title, as the report shows it: the line itself, `{{NAME}}` and all. */
const stepTitle = (line: string) => literal(line.trim());

/** A TODO comment for a line, one comment line per line of text. */
function todoComment(line: string, why: string): string[] {
  return [`// TODO(argus): ${line.trim().replace(/\s*\n\s*/g, ' ')}`, `//   ${why}`];
}

interface Body {
  lines: string[];
  todo: number;
  count: number;
  scope: Scope;
}

/** The body of a test (or the login setup): one `test.step` per line. */
function writeSteps(steps: string[], builtinRunId: boolean, startAt: string | null, stepFn: string): Body {
  const scope: Scope = {
    builtinRunId,
    usesRunId: false,
    usesHealth: false,
    helpers: new Set(),
    usesEnv: false,
  };
  const w = new Writer();
  let todo = 0;
  let count = 0;
  const lines = steps.filter((l) => l.trim() !== '');
  const parsed = lines.map((line) => {
    try {
      return parseStep(line);
    } catch {
      return null;
    }
  });
  if (startAt !== null && parsed[0]?.verb !== 'navigate') {
    w.line(`await page.goto(${str(startAt, scope)});`);
  }
  lines.forEach((line, i) => {
    count++;
    const step = parsed[i];
    if (!step) {
      todo++;
      w.lines(todoComment(line, 'not in the step language (a free-form step): write it by hand'));
      return;
    }
    const { code, todo: why } = translateStep(step, scope);
    if (why) {
      todo++;
      w.lines(todoComment(line, why));
      return;
    }
    w.open(`await ${stepFn}.step(${stepTitle(line)}, async () => {`);
    w.lines(code);
    w.close('});');
  });
  return { lines: w.toString().trimEnd().split('\n'), todo, count, scope };
}

/** Unique titles within one describe block (Playwright refuses two tests of the same title). */
function uniqueTitles(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((raw) => {
    const name = raw.trim() || 'Untitled test';
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name} (${n})`;
  });
}

/** An import statement, one name a line when it would be longer than 100 characters. */
function importLine(names: string[], from: string): string {
  const one = `import { ${names.join(', ')} } from '${from}';`;
  if (one.length <= 100) return one;
  return `import {\n${names.map((n) => `  ${n},\n`).join('')}} from '${from}';`;
}

function importsOf(scope: { helpers: Set<string>; usesEnv: boolean }, base: string[]): string[] {
  const out = [importLine([...base, ...[...scope.helpers].sort()], './support/argus')];
  if (scope.usesEnv) out.push("import { env } from './support/env';");
  return out;
}

/** The start page when a case does not begin with `Navigate to`: its own URL, else the base URL. */
function startOf(testCase: ExportCase, root: boolean): string {
  return testCase.url?.trim() ? testCase.url : root ? '/' : './';
}

function specFile(suite: ExportSuite, input: ExportInput, builtinRunId: boolean, root: boolean) {
  const helpers = new Set<string>();
  let usesEnv = false;
  let todo = 0;
  let count = 0;
  const body = new Writer();
  const titles = uniqueTitles(suite.test_cases.map((c) => c.test_name));
  body.open(`test.describe(${literal(suite.name)}, () => {`);
  suite.test_cases.forEach((testCase, i) => {
    const steps = writeSteps(testCase.steps, builtinRunId, startOf(testCase, root), 'test');
    todo += steps.todo;
    count += steps.count;
    for (const n of steps.scope.helpers) helpers.add(n);
    usesEnv ||= steps.scope.usesEnv;
    if (i > 0) body.line();
    const fixtures = steps.scope.usesHealth ? '{ page, pageHealth }' : '{ page }';
    const description = testCase.description?.trim();
    if (description) for (const l of wrap(description, 96)) body.line(`// ${l}`);
    body.open(`test(${literal(titles[i])}, async (${fixtures}) => {`);
    if (steps.scope.usesRunId) body.line('const runId = makeRunId(); // {{RUN_ID}}: new for every test');
    body.lines(steps.lines);
    body.close('});');
    if (steps.scope.usesRunId) helpers.add('makeRunId');
  });
  body.close('});');
  const header = [
    `// ${suite.name}: exported from Argus (project "${input.project}", environment "${input.environment.name}").`,
    '// Each test is a saved test case; each test.step is one line of its steps.',
    ...importsOf({ helpers, usesEnv }, ['expect', 'test']),
    '',
  ];
  return { content: `${header.join('\n')}\n${body.toString()}`, todo, count };
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + word.length + 1 > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) out.push(line);
  }
  return out;
}

function authSetupFile(input: ExportInput, builtinRunId: boolean, root: boolean) {
  const login = input.login;
  const w = new Writer();
  if (login.mode === 'credentials') {
    const scope: Scope = {
      builtinRunId,
      usesRunId: false,
      usesHealth: false,
      helpers: new Set(),
      usesEnv: true,
    };
    w.line("import { test as setup } from '@playwright/test';");
    if (login.totp_secret) w.line("import { TOTP, URI } from 'otpauth';");
    w.line("import { signIn } from './support/argus';");
    w.line("import { env } from './support/env';");
    w.line();
    w.line('/** Signs in once, as Argus does before a run, and keeps the state every test starts from. */');
    w.open("setup('sign in', async ({ page }) => {");
    w.open('await signIn(page, {');
    w.line(`url: ${str(login.login_url, scope)},`);
    w.line(`username: env(${literal(login.username_variable)}),`);
    w.line(`password: env(${literal(login.password_secret)}),`);
    if (login.totp_secret) w.line(`code: () => totp(env(${literal(login.totp_secret)})),`);
    w.close('});');
    w.line(`await page.context().storageState({ path: ${literal(AUTH_FILE)} });`);
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
  if (login.mode !== 'steps') return null;
  const steps = writeSteps(login.steps, builtinRunId, root ? '/' : './', 'setup');
  const usesExpect = steps.lines.some((l) => l.includes('expect('));
  const imports = [`import { ${usesExpect ? 'expect, ' : ''}test as setup } from '@playwright/test';`];
  const helpers = [...steps.scope.helpers, ...(steps.scope.usesRunId ? ['makeRunId'] : [])].sort();
  if (helpers.length) imports.push(importLine(helpers, './support/argus'));
  if (steps.scope.usesEnv) imports.push("import { env } from './support/env';");
  w.lines(imports);
  w.line();
  w.line("/** The project's recorded login, run once; every test starts from the state it leaves. */");
  w.open("setup('sign in', async ({ page }) => {");
  if (steps.scope.usesRunId) w.line('const runId = makeRunId();');
  w.lines(steps.lines);
  w.line(`await page.context().storageState({ path: ${literal(AUTH_FILE)} });`);
  w.close('});');
  const content = w.toString();
  return { content, todo: steps.todo, count: steps.count };
}

function envFile(input: ExportInput): string {
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

function configFile(input: ExportInput, hasLogin: boolean): string {
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

function packageJson(input: ExportInput, totp: boolean): string {
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

function readme(
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

/**
 * A Playwright Test project for saved suites: a `.spec.ts` per suite, `playwright.config.ts`,
 * `package.json`, the login as a setup project that saves its storage state, and a README. Pure:
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
  const auth = authSetupFile(input, builtinRunId, root);
  if (auth) {
    files.push({ path: 'tests/auth.setup.ts', content: auth.content });
    todo += auth.todo;
    lines += auth.count;
  }
  const totp = input.login.mode === 'credentials' && !!input.login.totp_secret;
  files.push({ path: 'tests/support/argus.ts', content: SUPPORT_SOURCE });
  files.push({ path: 'tests/support/env.ts', content: envFile(input) });
  files.push({ path: 'playwright.config.ts', content: configFile(input, auth !== null) });
  files.push({ path: 'package.json', content: packageJson(input, totp) });
  files.push({
    path: '.env.example',
    content: `${input.variables.map((v) => `${v.name}=${v.secret ? '' : (v.value ?? '').replace(/\n/g, ' ')}`).join('\n')}\n`,
  });
  files.push({
    path: '.gitignore',
    content: 'node_modules/\n/test-results/\n/playwright-report/\n/playwright/.auth/\n.env\n',
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
