import { type ProjectLogin, parseStep } from '@argus/protocol';
import { importLine, literal, type Scope, stepTitle, str, todoComment, Writer, wrap } from './code-text';
import type { ExportCase, ExportInput, ExportSuite } from './export-types';
import { translateStep } from './step-code';

// The test files: a spec per suite (a test per case, a test.step per line).

interface Body {
  lines: string[];
  todo: number;
  count: number;
  scope: Scope;
}

/** The body of a test (or of the recorded login): one `test.step` per line. */
export function writeSteps(
  steps: string[],
  builtinRunId: boolean,
  startAt: string | null,
  stepFn: string,
): Body {
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

/** Where the specs import `test` and `expect` from: signed in per worker when the project has a login. */
function testModule(login: ProjectLogin): string {
  return login.mode === 'none' ? './support/argus' : './support/login';
}

/** `test` and `expect` from where the project's sign-in is (tests/support/login.ts), the helpers from argus.ts. */
function importsOf(scope: { helpers: Set<string>; usesEnv: boolean }, from: string): string[] {
  const helpers = [...scope.helpers].sort();
  const out =
    from === './support/argus'
      ? [importLine(['expect', 'test', ...helpers], from)]
      : [
          importLine(['expect', 'test'], from),
          ...(helpers.length ? [importLine(helpers, './support/argus')] : []),
        ];
  if (scope.usesEnv) out.push("import { env } from './support/env';");
  return out;
}

/** The start page when a case does not begin with `Navigate to`: its own URL, else the base URL. */
function startOf(testCase: ExportCase, root: boolean): string {
  return testCase.url?.trim() ? testCase.url : root ? '/' : './';
}

export function specFile(suite: ExportSuite, input: ExportInput, builtinRunId: boolean, root: boolean) {
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
    ...importsOf({ helpers, usesEnv }, testModule(input.login)),
    '',
  ];
  return { content: `${header.join('\n')}\n${body.toString()}`, todo, count };
}
