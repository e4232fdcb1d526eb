// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests read generated code, template literals included
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ExportInput, exportPlaywright, slugify } from './export';
import { SUPPORT_SOURCE } from './support-source';

const BASE: ExportInput = {
  project: 'Shop',
  environment: { name: 'staging', base_url: 'https://staging.shop.test/' },
  login: { mode: 'none' },
  variables: [],
  suites: [],
};

/** The spec file of a one-case suite with these steps. */
function specOf(steps: string[], input: Partial<ExportInput> = {}) {
  const result = exportPlaywright({
    ...BASE,
    ...input,
    suites: [{ name: 'Suite', test_cases: [{ test_name: 'Case', steps }] }],
  });
  const spec = result.files.find((f) => f.path.endsWith('.spec.ts'));
  if (!spec) throw new Error('no spec');
  return { ...result, spec: spec.content };
}

/** Each step form, and what its test.step holds (fragments, in order). */
const FORMS: [string, string[]][] = [
  [
    'Navigate to /tickets',
    ["const response = await page.goto('/tickets');", 'expect(response?.status() ?? 200).toBeLessThan(400);'],
  ],
  ['Go back', ['await page.goBack();']],
  ['Reload the page', ['await page.reload();']],
  ['Click "Sign in"', ["const element = await target(page, 'Sign in');", 'await element.click();']],
  [
    'Click button "Delete"',
    ["const button = await target(page, 'Delete', { role: 'button' });", 'await button.click();'],
  ],
  [
    'Click button "Delete" in "Buy milk"',
    [
      "const area = await region(page, 'Buy milk');",
      "const button = await target(page, 'Delete', { role: 'button', within: area });",
      'await button.click();',
    ],
  ],
  [
    'Click the button in "Buy milk"',
    [
      "const area = await region(page, 'Buy milk', { blocks: true });",
      "const button = await controlIn(area, 'button');",
      'await button.click();',
    ],
  ],
  [
    'Double-click "Buy milk"',
    ["const element = await target(page, 'Buy milk', { kind: 'text' });", 'await element.dblclick();'],
  ],
  [
    'Hover "Account"',
    ["const element = await target(page, 'Account', { kind: 'any' });", 'await element.hover();'],
  ],
  [
    'Fill "Email" with "qa@example.com"',
    ["const input = await field(page, 'Email');", "await input.fill('qa@example.com');"],
  ],
  ['Clear "Search"', ["const input = await field(page, 'Search');", 'await input.clear();']],
  [
    'Select "Blue" from "Colour"',
    ["const input = await field(page, 'Colour');", "await input.selectOption({ label: 'Blue' });"],
  ],
  ['Check "Remember me"', ["await setChecked(await target(page, 'Remember me', { kind: 'check' }), true);"]],
  [
    'Uncheck "Gift wrap" in "Widget"',
    [
      "const area = await region(page, 'Widget');",
      "await setChecked(await target(page, 'Gift wrap', { kind: 'check', within: area }), false);",
    ],
  ],
  [
    'Check the checkbox in "Buy milk"',
    [
      "const area = await region(page, 'Buy milk');",
      "await setChecked(await controlIn(area, 'checkbox'), true);",
    ],
  ],
  ['Press Enter', ["await page.keyboard.press('Enter');"]],
  ['Press Enter in "Search"', ["const input = await field(page, 'Search');", "await input.press('Enter');"]],
  ['Type "Walk the dog"', ['await focusedField(page);', "await page.keyboard.type('Walk the dog');"]],
  [
    'Fill the focused field with "Buy oat milk"',
    ['const input = await focusedField(page);', "await input.fill('Buy oat milk');"],
  ],
  ['Scroll to bottom', ['await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));']],
  ['Scroll to top', ['await page.evaluate(() => window.scrollTo(0, 0));']],
  [
    'Scroll to "Pricing"',
    [
      "const element = await target(page, 'Pricing', { kind: 'any' });",
      'await element.scrollIntoViewIfNeeded();',
    ],
  ],
  ['Wait 2 seconds', ['await page.waitForTimeout(2000);']],
  ['Wait 250 ms', ['await page.waitForTimeout(250);']],
  ['Wait 30 seconds', ['await page.waitForTimeout(10000);']],
  ['Wait for "Order confirmed"', ["await expect(page.getByText('Order confirmed').first()).toBeVisible();"]],
  ['Set viewport to 390x844', ['await page.setViewportSize({ width: 390, height: 844 });']],
  [
    'Take screenshot',
    ["await test.info().attach('screenshot', { body: await page.screenshot(), contentType: 'image/png' });"],
  ],
  ['Verify text "Welcome back" is visible', ["await expectText(page, 'Welcome back', true);"]],
  ['Verify page contains "Welcome"', ["await expectText(page, 'Welcome', true);"]],
  ['Verify text "Error" is not visible', ["await expectText(page, 'Error', false);"]],
  [
    'Verify text "$20.00" is visible in "Widget"',
    ["const area = await region(page, 'Widget');", "await expectText(area, '$20.00', true);"],
  ],
  [
    'Verify heading "Pricing" is visible',
    [
      "await expect(page.getByRole('heading', { name: 'Pricing' }).filter({ visible: true }).first()).toBeVisible();",
    ],
  ],
  [
    'Verify button "Remove" is not visible in "Widget"',
    [
      "const area = await region(page, 'Widget');",
      "await expect(area.getByRole('button', { name: 'Remove' }).filter({ visible: true })).toHaveCount(0);",
    ],
  ],
  [
    'Verify exactly 2 listitems are visible',
    ["await expect(page.getByRole('listitem').filter({ visible: true })).toHaveCount(2);"],
  ],
  [
    'Verify exactly 0 rows are visible in "Cart"',
    [
      "const area = await region(page, 'Cart');",
      "await expect(area.getByRole('row').filter({ visible: true })).toHaveCount(0);",
    ],
  ],
  [
    'Verify at least 3 rows are visible',
    [
      "await expect.poll(() => page.getByRole('row').filter({ visible: true }).count()).toBeGreaterThanOrEqual(3);",
    ],
  ],
  [
    'Verify "Remember me" is checked',
    [
      "const checkbox = await target(page, 'Remember me', { kind: 'check' });",
      'await expect(checkbox).toBeChecked();',
    ],
  ],
  [
    'Verify the checkbox in "Buy milk" is not checked',
    [
      "const area = await region(page, 'Buy milk');",
      "const checkbox = await controlIn(area, 'checkbox');",
      'await expect(checkbox).not.toBeChecked();',
    ],
  ],
  [
    'Verify "Buy milk" is marked "completed"',
    [
      "const element = await target(page, 'Buy milk', { kind: 'text' });",
      "await expect.poll(() => isMarked(element, 'completed')).toBe(true);",
    ],
  ],
  [
    'Verify link "Active" is not marked "selected" in "Filters"',
    [
      "const area = await region(page, 'Filters');",
      "const element = await target(page, 'Active', { kind: 'text', role: 'link', within: area });",
      "await expect.poll(() => isMarked(element, 'selected')).toBe(false);",
    ],
  ],
  [
    'Verify the rows "Open" + "Closed" add up to "All tickets"',
    ["await expect.poll(() => rowsAddUp(page, ['Open', 'Closed'], 'All tickets')).toBe(true);"],
  ],
  [
    'Verify the number in "open tickets" counts the rows showing "Open"',
    ["await expect.poll(() => countMatches(page, 'open tickets', 'Open')).toBe(true);"],
  ],
  ['Verify URL contains "/account?tab=1"', ['await expect(page).toHaveURL(/\\/account\\?tab=1/);']],
  ['Verify title contains "Acme (beta)"', ['await expect(page).toHaveTitle(/Acme \\(beta\\)/);']],
  [
    'Verify field "Quantity" has value "2"',
    ["const input = await field(page, 'Quantity');", "await expect(input).toHaveValue('2');"],
  ],
  [
    'Verify field "Email" shows a validation error',
    [
      "const input = await field(page, 'Email');",
      'await expect.poll(() => showsValidationError(input)).toBe(true);',
    ],
  ],
  [
    'Verify no error message is visible',
    ['await page.waitForTimeout(200);', 'expect(await visibleErrors(page)).toEqual([]);'],
  ],
  [
    'Verify page has no console errors',
    ["await page.waitForLoadState('load');", 'expect(pageHealth.consoleErrors).toEqual([]);'],
  ],
  [
    'Verify page has no failed requests',
    ["await page.waitForLoadState('load');", 'expect(pageHealth.failedRequests).toEqual([]);'],
  ],
  ['Verify all links work', ['expect(await brokenLinks(page)).toEqual([]);']],
  ['Verify all images have alt text', ['expect(await imagesWithoutAlt(page)).toEqual([]);']],
  ['Verify no horizontal overflow', ['expect(await horizontalOverflow(page)).toBe(false);']],
  [
    'Verify the page looks as approved',
    [
      "await expect(page).toHaveScreenshot('page.png', { animations: 'disabled', caret: 'hide', fullPage: true });",
    ],
  ],
  [
    'Verify "Pricing plans" looks as approved',
    [
      "const area = await region(page, 'Pricing plans');",
      "await expect(area).toHaveScreenshot('pricing-plans.png', { animations: 'disabled', caret: 'hide' });",
    ],
  ],
];

describe('exportPlaywright: each step form', () => {
  it.each(FORMS)('%s', (line, fragments) => {
    const { spec, todo } = specOf(['Navigate to /', line]);
    expect(todo).toBe(0);
    const step = spec.slice(spec.indexOf(`await test.step('${line}'`));
    expect(step.startsWith('await test.step(')).toBe(true);
    let at = 0;
    for (const fragment of fragments) {
      const found = step.indexOf(fragment, at);
      expect(found, `${fragment}\nin\n${step.slice(0, 600)}`).toBeGreaterThanOrEqual(0);
      at = found + fragment.length;
    }
  });

  it('covers every verb of the step language but the accessibility check', () => {
    const verbs = new Set(
      FORMS.map(([line]) => line).flatMap((line) => {
        const { spec } = specOf([line]);
        return spec.includes('TODO(argus)') ? [] : [line];
      }),
    );
    expect(verbs.size).toBe(FORMS.length);
  });

  it('names each visual check of a test as Argus does, a repeat numbered, from 1 again in the next test', () => {
    const { spec } = specOf([
      'Verify the page looks as approved',
      'Click "Next"',
      'Verify the page looks as approved',
      'Verify "Plans" looks as approved',
    ]);
    const names = (text: string) => [...text.matchAll(/toHaveScreenshot\('([^']+)'/g)].map((m) => m[1]);
    expect(names(spec)).toEqual(['page.png', 'page-2.png', 'plans.png']);
    const two = exportPlaywright({
      ...BASE,
      suites: [
        {
          name: 'Suite',
          test_cases: [
            { test_name: 'One', steps: ['Verify the page looks as approved'] },
            { test_name: 'Two', steps: ['Verify the page looks as approved'] },
          ],
        },
      ],
    }).files.find((f) => f.path.endsWith('.spec.ts'));
    expect(names(two?.content ?? '')).toEqual(['page.png', 'page.png']);
  });

  it('imports exactly the helpers the steps use, and the page-health fixture only when checked', () => {
    const { spec } = specOf(['Navigate to /', 'Click "Go"', 'Verify text "Done" is visible']);
    expect(spec).toContain("import { expect, test, expectText, target } from './support/argus';");
    expect(spec).toContain("test('Case', async ({ page }) => {");
    const health = specOf(['Verify page has no console errors']).spec;
    expect(health).toContain("test('Case', async ({ page, pageHealth }) => {");
  });

  it('starts a case without Navigate to on the base URL (or its own URL)', () => {
    expect(specOf(['Click "Go"']).spec).toMatch(
      /test\('Case', async \(\{ page \}\) => \{\n {4}await page\.goto\('\/'\);/,
    );
    const under = specOf(['Click "Go"'], {
      environment: { name: 'e', base_url: 'https://x.test/app/' },
    }).spec;
    expect(under).toContain("await page.goto('./');");
    expect(specOf(['Navigate to /a', 'Click "Go"']).spec).not.toContain("page.goto('/');");
  });

  it('escapes quotes, backslashes and template characters in arguments', () => {
    const { spec } = specOf([
      String.raw`Fill "Note" with "It's a \"test\" \\ done"`,
      'Fill "A" with "`x` ${y} {{RUN_ID}}"',
    ]);
    expect(spec).toContain(String.raw`await input.fill('It\'s a "test" \\ done');`);
    expect(spec).toContain('await input.fill(`\\`x\\` \\${y} ${runId}`);');
  });
});

describe('exportPlaywright: TODO lines', () => {
  it('keeps a line the step language cannot express as a TODO comment, counts it and says so in the README', () => {
    const result = specOf([
      'Navigate to /',
      'Add the cheapest shirt to the cart',
      'Verify no accessibility violations',
      'Verify text "Cart" is visible',
    ]);
    expect(result.todo).toBe(2);
    expect(result.lines).toBe(4);
    expect(result.spec).toContain('// TODO(argus): Add the cheapest shirt to the cart');
    expect(result.spec).toContain('// TODO(argus): Verify no accessibility violations');
    expect(result.spec).not.toContain("test.step('Add the cheapest shirt");
    const readme = result.files.find((f) => f.path === 'README.md')?.content ?? '';
    expect(readme).toContain('**2 lines left as TODO comments**');
    expect(readme).toContain('Exported 1 test case (4 step lines)');
  });

  it('says so when nothing is left', () => {
    const readme = specOf(['Navigate to /']).files.find((f) => f.path === 'README.md')?.content ?? '';
    expect(readme).toContain('**0 lines left as TODO comments**');
  });
});

describe('exportPlaywright: variables and secrets', () => {
  const SECRET_VALUE = 'hunter2-Very-Secret!';
  const input: Partial<ExportInput> = {
    login: {
      mode: 'credentials',
      login_url: '/login',
      username_variable: 'EMAIL',
      password_secret: 'PASSWORD',
      totp_secret: 'TOTP',
    },
    variables: [
      { name: 'EMAIL', secret: false, value: 'qa@shop.test' },
      // A secret's value is never an input; one passed by mistake must not be written anywhere.
      { name: 'PASSWORD', secret: true, value: SECRET_VALUE },
      { name: 'TOTP', secret: true, value: SECRET_VALUE },
    ],
  };

  it('reads every {{NAME}} from the environment, plain variables defaulting to their saved value', () => {
    const { spec, files } = specOf(
      ['Fill "Email" with "{{EMAIL}}"', 'Fill "Password" with "{{PASSWORD}}"', 'Navigate to /u/{{EMAIL}}/x'],
      input,
    );
    expect(spec).toContain("await input.fill(env('EMAIL'));");
    expect(spec).toContain("await input.fill(env('PASSWORD'));");
    expect(spec).toContain("page.goto(`/u/${env('EMAIL')}/x`)");
    expect(spec).toContain("import { env } from './support/env';");
    expect(spec).toContain('test.step(\'Fill "Password" with "{{PASSWORD}}"\'');
    const env = files.find((f) => f.path === 'tests/support/env.ts')?.content ?? '';
    expect(env).toContain("EMAIL: 'qa@shop.test',");
    expect(env).toContain("const SECRETS = new Set<string>(['PASSWORD', 'TOTP']);");
    expect(files.find((f) => f.path === '.env.example')?.content).toBe(
      'EMAIL=qa@shop.test\nPASSWORD=\nTOTP=\n',
    );
  });

  it('writes no secret value into any file', () => {
    const result = specOf(['Fill "Password" with "{{PASSWORD}}"'], input);
    for (const file of result.files) expect(file.content, file.path).not.toContain(SECRET_VALUE);
  });

  it('makes {{RUN_ID}} once per test, unless the project has a variable of that name', () => {
    const { spec } = specOf([
      'Fill "Subject" with "Printer jam {{RUN_ID}}"',
      'Verify text "Printer jam {{RUN_ID}}" is visible',
    ]);
    expect(spec.match(/const runId = makeRunId\(\);/g)).toHaveLength(1);
    expect(spec).toContain('await input.fill(`Printer jam ${runId}`);');
    const own = specOf(['Fill "Subject" with "{{RUN_ID}}"'], {
      variables: [{ name: 'RUN_ID', secret: false, value: 'x' }],
    }).spec;
    expect(own).toContain("await input.fill(env('RUN_ID'));");
    expect(own).not.toContain('makeRunId');
  });
});

describe('exportPlaywright: the project', () => {
  it('writes a spec per suite, unique file names and test titles', () => {
    const result = exportPlaywright({
      ...BASE,
      suites: [
        {
          name: 'Checkout — fast path',
          test_cases: [
            { test_name: 'Pay', steps: ['Navigate to /'] },
            { test_name: 'Pay', steps: [] },
          ],
        },
        { name: 'Checkout: fast path', test_cases: [{ test_name: 'Pay', steps: ['Navigate to /'] }] },
      ],
    });
    expect(result.files.map((f) => f.path).sort()).toEqual([
      '.env.example',
      '.gitignore',
      'README.md',
      'package.json',
      'playwright.config.ts',
      'tests/checkout-fast-path-2.spec.ts',
      'tests/checkout-fast-path.spec.ts',
      'tests/support/argus.ts',
      'tests/support/env.ts',
    ]);
    const first = result.files.find((f) => f.path === 'tests/checkout-fast-path.spec.ts')?.content ?? '';
    expect(first).toContain("test('Pay', async");
    expect(first).toContain("test('Pay (2)', async");
    expect(result.tests).toBe(3);
  });

  it("keeps a trace of each failed test in the config, as Argus does (trace: 'retain-on-failure')", () => {
    const config = exportPlaywright(BASE).files.find((f) => f.path === 'playwright.config.ts')?.content ?? '';
    expect(config).toContain("trace: 'retain-on-failure',");
    expect(config).not.toContain('on-first-retry');
  });

  it('slugifies names for files', () => {
    expect(slugify('  Café: Orders & Refunds!  ')).toBe('cafe-orders-refunds');
    expect(slugify('***')).toBe('suite');
  });

  it('carries the support file as it is in src/template (run embed-support.mjs after editing it)', () => {
    const template = readFileSync(new URL('./template/argus.ts', import.meta.url), 'utf8');
    expect(SUPPORT_SOURCE).toBe(template);
  });
});
