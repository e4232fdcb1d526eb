import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  formatStep,
  parseStep,
  parseSteps,
  q,
  type Step,
  StepSchema,
  StepSyntaxError,
  type StepVerb,
  type TargetRole,
  TargetRoleSchema,
} from './step-language';

describe('step language', () => {
  it.each([
    ['Navigate to https://example.com/login', { verb: 'navigate', url: 'https://example.com/login' }],
    ['go to "/products.html"', { verb: 'navigate', url: '/products.html' }],
    ['Click "Sign in"', { verb: 'click', target: 'Sign in' }],
    ["click link 'Our history'", { verb: 'click', role: 'link', target: 'Our history' }],
    ['Fill "Email" with "qa@example.com"', { verb: 'fill', field: 'Email', value: 'qa@example.com' }],
    ['Type "shoes" into "Search products"', { verb: 'fill', field: 'Search products', value: 'shoes' }],
    ['Select "Billing" from "Topic"', { verb: 'select', option: 'Billing', field: 'Topic' }],
    ['Uncheck "Remember me"', { verb: 'check', target: 'Remember me', checked: false }],
    ['Press Enter', { verb: 'press', key: 'Enter' }],
    ['Press Enter in "Search products"', { verb: 'press', key: 'Enter', field: 'Search products' }],
    ['Wait 2 seconds', { verb: 'wait', ms: 2000 }],
    ['Wait 250 ms', { verb: 'wait', ms: 250 }],
    ['Wait for "Results"', { verb: 'waitForText', text: 'Results' }],
    ['Set viewport to 390x844', { verb: 'viewport', width: 390, height: 844 }],
    ['Verify text "Welcome back" is visible', { verb: 'verifyText', text: 'Welcome back', visible: true }],
    ['Verify text "Error" is not visible', { verb: 'verifyText', text: 'Error', visible: false }],
    [
      'Verify heading "Products" is visible',
      { verb: 'verifyElement', role: 'heading', name: 'Products', visible: true },
    ],
    ['Verify URL contains "account"', { verb: 'verifyUrl', text: 'account' }],
    [
      'Verify the rows "Open" + "Closed" add up to "All tickets"',
      { verb: 'verifySum', parts: ['Open', 'Closed'], total: 'All tickets' },
    ],
    [
      'Verify the number in "open tickets" counts the rows showing "Open"',
      { verb: 'verifyCountOf', text: 'open tickets', cell: 'Open' },
    ],
    [
      "verify 'Food' + 'Rent' + 'Travel' add up to 'Total'",
      { verb: 'verifySum', parts: ['Food', 'Rent', 'Travel'], total: 'Total' },
    ],
    ['Verify title contains "Acme"', { verb: 'verifyTitle', text: 'Acme' }],
    ['Verify field "Email" shows a validation error', { verb: 'verifyInvalid', field: 'Email' }],
    ['Verify no error message is visible', { verb: 'verifyNoErrors' }],
    ['Verify at least 3 rows are visible', { verb: 'verifyCount', role: 'row', atLeast: 3 }],
    ['Verify page has no console errors', { verb: 'verifyNoConsoleErrors' }],
    ['Verify all links work', { verb: 'verifyLinksWork' }],
    ['Verify all images have alt text', { verb: 'verifyImagesAlt' }],
    ['Verify no horizontal overflow', { verb: 'verifyNoOverflow' }],
    ['Verify no accessibility violations', { verb: 'verifyAccessibility' }],
    // Behaviour tests: regions, double-click, typing into the focused field, checked and marked states.
    ['Click "Remove" in "Widget"', { verb: 'click', target: 'Remove', region: 'Widget' }],
    [
      "click button 'Delete' in 'Buy milk'",
      { verb: 'click', role: 'button', target: 'Delete', region: 'Buy milk' },
    ],
    ['Click tab "Billing"', { verb: 'click', role: 'tab', target: 'Billing' }],
    ['Double-click "Buy milk"', { verb: 'doubleClick', target: 'Buy milk' }],
    [
      'double click "Buy milk" in "Groceries"',
      { verb: 'doubleClick', target: 'Buy milk', region: 'Groceries' },
    ],
    ['Doubleclick on "Buy milk"', { verb: 'doubleClick', target: 'Buy milk' }],
    [
      'Check "Gift wrap" in "Widget"',
      { verb: 'check', target: 'Gift wrap', checked: true, region: 'Widget' },
    ],
    ['Check the checkbox in "Buy milk"', { verb: 'check', checked: true, region: 'Buy milk' }],
    ['Click the button in "Buy milk"', { verb: 'click', role: 'button', region: 'Buy milk' }],
    ["click the link in 'Row 2'", { verb: 'click', role: 'link', region: 'Row 2' }],
    ["uncheck the checkbox in 'Buy milk'", { verb: 'check', checked: false, region: 'Buy milk' }],
    ['Hover "Buy milk" in "Groceries"', { verb: 'hover', target: 'Buy milk', region: 'Groceries' }],
    ['Verify "Remember me" is checked', { verb: 'verifyChecked', target: 'Remember me', checked: true }],
    ['Verify "Remember me" is not checked', { verb: 'verifyChecked', target: 'Remember me', checked: false }],
    [
      'Verify "Gift wrap" is checked in "Widget"',
      { verb: 'verifyChecked', target: 'Gift wrap', region: 'Widget', checked: true },
    ],
    [
      'Verify "Gift wrap" in "Widget" is not checked',
      { verb: 'verifyChecked', target: 'Gift wrap', region: 'Widget', checked: false },
    ],
    [
      'Verify the checkbox in "Buy milk" is checked',
      { verb: 'verifyChecked', region: 'Buy milk', checked: true },
    ],
    [
      'verify that the checkbox in "Buy milk" is not checked',
      { verb: 'verifyChecked', region: 'Buy milk', checked: false },
    ],
    [
      'Verify the checkbox is checked in "Buy milk"',
      { verb: 'verifyChecked', region: 'Buy milk', checked: true },
    ],
    ['Verify exactly 2 listitems are visible', { verb: 'verifyExactCount', role: 'listitem', count: 2 }],
    ['Verify exactly 0 rows are visible', { verb: 'verifyExactCount', role: 'row', count: 0 }],
    ['Verify exactly 1 checkbox is visible', { verb: 'verifyExactCount', role: 'checkbox', count: 1 }],
    ['Verify exactly 3 checkboxes are visible', { verb: 'verifyExactCount', role: 'checkbox', count: 3 }],
    ['Verify there are exactly 3 textboxes', { verb: 'verifyExactCount', role: 'textbox', count: 3 }],
    ['Verify exactly 2 lists are visible', { verb: 'verifyExactCount', role: 'list', count: 2 }],
    [
      'Verify exactly 2 listitems are visible in "Groceries"',
      { verb: 'verifyExactCount', role: 'listitem', count: 2, region: 'Groceries' },
    ],
    ['Verify at least 2 checkboxes are visible', { verb: 'verifyCount', role: 'checkbox', atLeast: 2 }],
    ['Verify at least 2 statuses are visible', { verb: 'verifyCount', role: 'status', atLeast: 2 }],
    [
      'Verify text "$20.00" is visible in "Widget"',
      { verb: 'verifyText', text: '$20.00', visible: true, region: 'Widget' },
    ],
    [
      'Verify text "Delete" is not visible in "Buy milk"',
      { verb: 'verifyText', text: 'Delete', visible: false, region: 'Buy milk' },
    ],
    [
      'Verify button "Remove" is visible in "Widget"',
      { verb: 'verifyElement', role: 'button', name: 'Remove', visible: true, region: 'Widget' },
    ],
    [
      'Verify dialog "Confirm" is visible',
      { verb: 'verifyElement', role: 'dialog', name: 'Confirm', visible: true },
    ],
    ['Type "Buy bread"', { verb: 'type', value: 'Buy bread' }],
    ['Fill the focused field with "Buy oat milk"', { verb: 'fillFocused', value: 'Buy oat milk' }],
    [
      'Verify "Buy milk" is marked "completed"',
      { verb: 'verifyState', target: 'Buy milk', state: 'completed', marked: true },
    ],
    [
      'Verify "Buy milk" is not marked "completed"',
      { verb: 'verifyState', target: 'Buy milk', state: 'completed', marked: false },
    ],
    [
      'Verify link "Active" is marked "selected"',
      { verb: 'verifyState', target: 'Active', role: 'link', state: 'selected', marked: true },
    ],
    [
      'Verify "Active" is marked "selected" in "Filters"',
      { verb: 'verifyState', target: 'Active', state: 'selected', marked: true, region: 'Filters' },
    ],
    // Visual checks against the approved baseline (issue 40).
    ['Verify the page looks as approved', { verb: 'verifyLooksApproved' }],
    ['verify that the page LOOKS AS APPROVED', { verb: 'verifyLooksApproved' }],
    ['Verify "Pricing" looks as approved', { verb: 'verifyLooksApproved', region: 'Pricing' }],
    ['verify \'Plans "Pro"\' looks as approved', { verb: 'verifyLooksApproved', region: 'Plans "Pro"' }],
  ])('parses %j', (line, step) => {
    expect(parseStep(line)).toEqual(step);
  });

  it('tolerates numbering, a final period and surrounding space', () => {
    expect(parseStep('  3. Click "Next".  ')).toEqual({ verb: 'click', target: 'Next' });
  });

  it('round-trips quotes inside arguments', () => {
    const value = 'He said "hi" \\ bye';
    expect(parseStep(`Fill "Message" with ${q(value)}`)).toEqual({ verb: 'fill', field: 'Message', value });
  });

  it('refuses a line it cannot parse, naming the line and the grammar', () => {
    expect(() => parseStep('Make the site better')).toThrow(StepSyntaxError);
    expect(() => parseStep('Make the site better')).toThrow(
      /Cannot understand the step "Make the site better".*STEP-LANGUAGE\.md/,
    );
    expect(() => parseSteps(['Click "A"', '', 'dance'])).toThrow(/"dance"/);
  });
});

/** The Step type as it was written by hand before StepSchema (plus issue 8's additions): the schema must mean exactly this. */
type HandWrittenStep =
  | { verb: 'navigate'; url: string }
  | { verb: 'back' }
  | { verb: 'reload' }
  | { verb: 'click'; target?: string; role?: TargetRole; region?: string }
  | { verb: 'doubleClick'; target: string; region?: string }
  | { verb: 'fill'; field: string; value: string }
  | { verb: 'clear'; field: string }
  | { verb: 'select'; option: string; field: string }
  | { verb: 'check'; target?: string; checked: boolean; region?: string }
  | { verb: 'press'; key: string; field?: string }
  | { verb: 'hover'; target: string; region?: string }
  | { verb: 'type'; value: string }
  | { verb: 'fillFocused'; value: string }
  | { verb: 'scroll'; target: 'bottom' | 'top' | string }
  | { verb: 'wait'; ms: number }
  | { verb: 'waitForText'; text: string }
  | { verb: 'viewport'; width: number; height: number }
  | { verb: 'screenshot' }
  | { verb: 'verifyText'; text: string; visible: boolean; region?: string }
  | { verb: 'verifyElement'; role: TargetRole; name: string; visible: boolean; region?: string }
  | { verb: 'verifySum'; parts: string[]; total: string }
  | { verb: 'verifyCountOf'; text: string; cell: string }
  | { verb: 'verifyUrl'; text: string }
  | { verb: 'verifyTitle'; text: string }
  | { verb: 'verifyValue'; field: string; value: string }
  | { verb: 'verifyInvalid'; field: string }
  | { verb: 'verifyNoErrors' }
  | { verb: 'verifyCount'; role: TargetRole; atLeast: number }
  | { verb: 'verifyExactCount'; role: TargetRole; count: number; region?: string }
  | { verb: 'verifyChecked'; target?: string; region?: string; checked: boolean }
  | {
      verb: 'verifyState';
      target: string;
      role?: TargetRole;
      state: string;
      marked: boolean;
      region?: string;
    }
  | { verb: 'verifyNoConsoleErrors' }
  | { verb: 'verifyNoFailedRequests' }
  | { verb: 'verifyLinksWork' }
  | { verb: 'verifyImagesAlt' }
  | { verb: 'verifyNoOverflow' }
  | { verb: 'verifyAccessibility' }
  | { verb: 'verifyLooksApproved'; region?: string };

/** Texts that quoting must survive. */
const AWKWARD = [
  '',
  ' ',
  'plain',
  'He said "hi"',
  "it's",
  `both " and '`,
  'back\\slash',
  'ends with a backslash \\',
  '\\"',
  '"',
  "'quoted'",
  '"double"',
  'trailing period.',
  '  padded  ',
  'with " with "',
  'x" is visible',
  'new\nline',
  'tab\there',
  'naïve café – 東京 🚀',
  '3. numbered',
];

/** An awkward text by any index. */
const aw = (i: number) => AWKWARD[i % AWKWARD.length];

/** Every role a step may name: the round trips below cover each one the schema accepts. */
const ROLE_LIST: TargetRole[] = [...TargetRoleSchema.options];

/** Every verb, with its arguments drawn from the awkward texts. */
const SAMPLES: Step[] = [
  ...[
    'https://example.com/login',
    '/products.html',
    'https://example.com/a b',
    'https://example.com/end.',
    '"quoted"',
    "'single'",
    'a"b',
    'https://example.com/?q=a\\b',
    '',
    ...AWKWARD,
  ].map((url): Step => ({ verb: 'navigate', url })),
  { verb: 'back' },
  { verb: 'reload' },
  ...AWKWARD.map((target): Step => ({ verb: 'click', target })),
  ...ROLE_LIST.map((role, i): Step => ({ verb: 'click', target: aw(i + 3), role })),
  ...AWKWARD.map((target, i): Step => ({ verb: 'click', target, region: AWKWARD.at(-i - 1) ?? '' })),
  ...AWKWARD.map((region, i): Step => ({ verb: 'click', role: ROLE_LIST[i % ROLE_LIST.length], region })),
  ...ROLE_LIST.map((role, i): Step => ({ verb: 'click', target: aw(i), role, region: aw(i + 2) })),
  ...AWKWARD.flatMap((target, i): Step[] => [
    { verb: 'doubleClick', target },
    { verb: 'doubleClick', target, region: AWKWARD.at(-i - 1) ?? '' },
  ]),
  ...AWKWARD.map((value, i): Step => ({ verb: 'fill', field: AWKWARD.at(-i - 1) ?? '', value })),
  ...AWKWARD.map((field): Step => ({ verb: 'clear', field })),
  ...AWKWARD.map((option, i): Step => ({ verb: 'select', option, field: AWKWARD.at(-i - 1) ?? '' })),
  ...AWKWARD.flatMap((target, i): Step[] => [
    { verb: 'check', target, checked: true },
    { verb: 'check', target, checked: false },
    { verb: 'check', target, checked: i % 2 === 0, region: AWKWARD.at(-i - 1) ?? '' },
    { verb: 'check', checked: true, region: target },
    { verb: 'check', checked: false, region: target },
  ]),
  ...['Enter', 'Tab', 'Control+A', 'a', 'F5', 'in'].flatMap((key): Step[] => [
    { verb: 'press', key },
    { verb: 'press', key, field: 'Search' },
    { verb: 'press', key, field: 'x" in "y' },
  ]),
  ...AWKWARD.flatMap((target, i): Step[] => [
    { verb: 'hover', target },
    { verb: 'hover', target, region: AWKWARD.at(-i - 1) ?? '' },
  ]),
  ...AWKWARD.flatMap((value): Step[] => [
    { verb: 'type', value },
    { verb: 'fillFocused', value },
  ]),
  ...['bottom', 'top', 'Bottom', 'the bottom', 'Pricing', ...AWKWARD].map(
    (target): Step => ({ verb: 'scroll', target }),
  ),
  ...[0, 1, 250, 999, 1000, 1001, 1500, 2000, 30_000].map((ms): Step => ({ verb: 'wait', ms })),
  ...AWKWARD.map((text): Step => ({ verb: 'waitForText', text })),
  ...[
    [390, 844],
    [200, 200],
    [7680, 7680],
    [1920, 1080],
  ].map(([width, height]): Step => ({ verb: 'viewport', width, height })),
  { verb: 'screenshot' },
  ...AWKWARD.flatMap((text, i): Step[] => [
    { verb: 'verifyText', text, visible: true },
    { verb: 'verifyText', text, visible: false },
    { verb: 'verifyText', text, visible: true, region: AWKWARD.at(-i - 1) ?? '' },
    { verb: 'verifyText', text, visible: false, region: aw(i + 5) },
  ]),
  ...ROLE_LIST.flatMap((role, i): Step[] => [
    { verb: 'verifyElement', role, name: aw(i), visible: true },
    { verb: 'verifyElement', role, name: aw(i + 8), visible: false },
    { verb: 'verifyElement', role, name: aw(i + 1), visible: true, region: aw(i + 2) },
    { verb: 'verifyElement', role, name: aw(i + 3), visible: false, region: aw(i + 4) },
  ]),
  ...AWKWARD.map((text): Step => ({ verb: 'verifyUrl', text })),
  ...AWKWARD.map((text): Step => ({ verb: 'verifyTitle', text })),
  ...AWKWARD.map((value, i): Step => ({ verb: 'verifyValue', field: AWKWARD.at(-i - 1) ?? '', value })),
  ...AWKWARD.map((field): Step => ({ verb: 'verifyInvalid', field })),
  { verb: 'verifyNoErrors' },
  ...ROLE_LIST.flatMap((role): Step[] => [
    { verb: 'verifyCount', role, atLeast: 0 },
    { verb: 'verifyCount', role, atLeast: 3 },
    { verb: 'verifyCount', role, atLeast: Number.MAX_SAFE_INTEGER },
    { verb: 'verifyExactCount', role, count: 0 },
    { verb: 'verifyExactCount', role, count: 1 },
    { verb: 'verifyExactCount', role, count: 2 },
    { verb: 'verifyExactCount', role, count: 1, region: 'Buy milk' },
    { verb: 'verifyExactCount', role, count: 12, region: 'x" in "y' },
    { verb: 'verifyExactCount', role, count: Number.MAX_SAFE_INTEGER },
  ]),
  ...AWKWARD.flatMap((target, i): Step[] => [
    { verb: 'verifyChecked', target, checked: true },
    { verb: 'verifyChecked', target, checked: false },
    { verb: 'verifyChecked', target, region: AWKWARD.at(-i - 1) ?? '', checked: i % 2 === 0 },
    { verb: 'verifyChecked', region: target, checked: true },
    { verb: 'verifyChecked', region: target, checked: false },
  ]),
  ...AWKWARD.flatMap((target, i): Step[] => [
    { verb: 'verifyState', target, state: AWKWARD.at(-i - 1) ?? '', marked: true },
    { verb: 'verifyState', target, state: 'completed', marked: false },
    { verb: 'verifyState', target, state: 'x" is marked "y', marked: i % 2 === 0, region: aw(i + 3) },
    {
      verb: 'verifyState',
      target,
      role: ROLE_LIST[i % ROLE_LIST.length],
      state: 'selected',
      marked: i % 3 === 0,
    },
    {
      verb: 'verifyState',
      target,
      role: ROLE_LIST[(i + 5) % ROLE_LIST.length],
      state: aw(i + 7),
      marked: true,
      region: AWKWARD.at(-i - 1) ?? '',
    },
  ]),
  { verb: 'verifyNoConsoleErrors' },
  { verb: 'verifyNoFailedRequests' },
  { verb: 'verifyLinksWork' },
  { verb: 'verifyImagesAlt' },
  { verb: 'verifyNoOverflow' },
  { verb: 'verifySum', parts: ['Open', 'Closed "old"'], total: 'All tickets' },
  { verb: 'verifyCountOf', text: 'open tickets', cell: "Open 'now'" },
  { verb: 'verifyAccessibility' },
  { verb: 'verifyLooksApproved' },
  ...AWKWARD.map((region): Step => ({ verb: 'verifyLooksApproved', region })),
  { verb: 'verifyLooksApproved', region: 'the page' },
  { verb: 'verifyLooksApproved', region: 'x" is checked in "y' },
];

describe('StepSchema and formatStep', () => {
  it('is the Step type the grammar always had', () => {
    expectTypeOf<Step>().toEqualTypeOf<HandWrittenStep>();
    expectTypeOf<HandWrittenStep>().toEqualTypeOf<Step>();
  });

  it('the samples cover every verb', () => {
    const verbs = new Set(SAMPLES.map((s) => s.verb));
    const all = StepSchema.options.map((o) => o.shape.verb.value);
    expect([...verbs].sort()).toEqual([...all].sort());
    expectTypeOf<(typeof all)[number]>().toEqualTypeOf<StepVerb>();
  });

  it.each(SAMPLES.map((s) => [formatStep(s), s] as const))('round-trips %j', (line, sample) => {
    expect(StepSchema.parse(sample)).toStrictEqual(sample);
    const parsed = parseStep(line);
    expect(parsed).toStrictEqual(sample);
    expect(StepSchema.parse(parsed)).toStrictEqual(sample);
    expect(formatStep(parsed)).toBe(line);
  });

  it('round-trips a seeded random sample of texts with quotes, backslashes and periods', () => {
    const alphabet = ['a', 'Z', ' ', '"', "'", '\\', '.', 'é', '\n', '9', 'x', '"', "'"];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const text = () =>
      Array.from(
        { length: Math.floor(random() * 12) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
    for (let i = 0; i < 500; i++) {
      const a = text();
      const b = text();
      for (const sample of [
        { verb: 'navigate', url: a },
        { verb: 'fill', field: a, value: b },
        { verb: 'select', option: a, field: b },
        { verb: 'verifyValue', field: a, value: b },
        { verb: 'click', target: a, role: 'link' },
        { verb: 'press', key: 'Enter', field: a },
        { verb: 'scroll', target: a },
        { verb: 'verifyText', text: a, visible: i % 2 === 0 },
        { verb: 'verifyText', text: a, visible: i % 2 === 1, region: b },
        { verb: 'click', target: a, region: b },
        { verb: 'doubleClick', target: a, region: b },
        { verb: 'check', target: a, checked: true, region: b },
        { verb: 'check', checked: false, region: a },
        { verb: 'verifyChecked', target: a, region: b, checked: true },
        { verb: 'verifyChecked', region: a, checked: false },
        { verb: 'verifyState', target: a, state: b, marked: i % 2 === 0 },
        { verb: 'verifyState', target: a, role: 'link', state: b, marked: true, region: a },
        { verb: 'type', value: a },
        { verb: 'fillFocused', value: b },
      ] satisfies Step[]) {
        expect(parseStep(formatStep(sample)), formatStep(sample)).toStrictEqual(sample);
      }
    }
  });

  it('writes the forms the docs list first', () => {
    expect(formatStep({ verb: 'navigate', url: 'https://shop.example/login' })).toBe(
      'Navigate to https://shop.example/login',
    );
    expect(formatStep({ verb: 'click', target: 'Sign in', role: 'button' })).toBe('Click button "Sign in"');
    expect(formatStep({ verb: 'fill', field: 'Message', value: 'He said "hi"' })).toBe(
      'Fill "Message" with "He said \\"hi\\""',
    );
    expect(formatStep({ verb: 'wait', ms: 2000 })).toBe('Wait 2 seconds');
    expect(formatStep({ verb: 'wait', ms: 1000 })).toBe('Wait 1 second');
    expect(formatStep({ verb: 'wait', ms: 250 })).toBe('Wait 250 ms');
    expect(formatStep({ verb: 'viewport', width: 390, height: 844 })).toBe('Set viewport to 390x844');
    expect(formatStep({ verb: 'verifyCount', role: 'row', atLeast: 3 })).toBe(
      'Verify at least 3 rows are visible',
    );
    expect(formatStep({ verb: 'click', role: 'button', target: 'Delete', region: 'Buy milk' })).toBe(
      'Click button "Delete" in "Buy milk"',
    );
    expect(formatStep({ verb: 'doubleClick', target: 'Buy milk' })).toBe('Double-click "Buy milk"');
    expect(formatStep({ verb: 'check', checked: false, region: 'Buy milk' })).toBe(
      'Uncheck the checkbox in "Buy milk"',
    );
    expect(formatStep({ verb: 'verifyChecked', region: 'Buy milk', checked: true })).toBe(
      'Verify the checkbox in "Buy milk" is checked',
    );
    expect(formatStep({ verb: 'verifyChecked', target: 'Gift wrap', region: 'Widget', checked: false })).toBe(
      'Verify "Gift wrap" is not checked in "Widget"',
    );
    expect(formatStep({ verb: 'verifyExactCount', role: 'listitem', count: 1 })).toBe(
      'Verify exactly 1 listitem is visible',
    );
    expect(formatStep({ verb: 'verifyExactCount', role: 'checkbox', count: 2, region: 'Todos' })).toBe(
      'Verify exactly 2 checkboxes are visible in "Todos"',
    );
    expect(formatStep({ verb: 'verifyText', text: '$20.00', visible: true, region: 'Widget' })).toBe(
      'Verify text "$20.00" is visible in "Widget"',
    );
    expect(formatStep({ verb: 'type', value: 'Buy bread' })).toBe('Type "Buy bread"');
    expect(formatStep({ verb: 'fillFocused', value: 'x' })).toBe('Fill the focused field with "x"');
    expect(
      formatStep({ verb: 'verifyState', target: 'Active', role: 'link', state: 'selected', marked: true }),
    ).toBe('Verify link "Active" is marked "selected"');
    expect(formatStep({ verb: 'verifyState', target: 'Buy milk', state: 'completed', marked: false })).toBe(
      'Verify "Buy milk" is not marked "completed"',
    );
    expect(formatStep({ verb: 'verifyLooksApproved' })).toBe('Verify the page looks as approved');
    expect(formatStep({ verb: 'verifyLooksApproved', region: 'Pricing' })).toBe(
      'Verify "Pricing" looks as approved',
    );
  });

  it('reads a visual check of the page or of a region, and nothing looser', () => {
    expect(parseStep('3. Verify the page looks as approved.')).toEqual({ verb: 'verifyLooksApproved' });
    expect(parseStep('Verify "the page" looks as approved')).toEqual({
      verb: 'verifyLooksApproved',
      region: 'the page',
    });
    for (const line of [
      'Verify the page looks approved',
      'Verify page looks as approved',
      'Verify Pricing looks as approved',
      'Verify "Pricing" looks as approved in "Plans"',
    ]) {
      expect(() => parseStep(line), line).toThrow(StepSyntaxError);
    }
    expect(StepSchema.safeParse({ verb: 'verifyLooksApproved', region: 3 }).success).toBe(false);
    expect(StepSchema.safeParse({ verb: 'verifyLooksApproved', threshold: 0.1 }).success).toBe(false);
  });

  it('refuses steps outside the grammar: unknown verbs and keys, bad keys, waits past 30 s', () => {
    for (const bad of [
      { verb: 'dance' },
      { verb: 'click' },
      { verb: 'click', target: 'x', role: 'tabs' },
      { verb: 'click', target: 'x', region: 3 },
      { verb: 'doubleClick', target: 'x', role: 'button' },
      { verb: 'check', checked: true },
      { verb: 'verifyChecked', checked: false },
      { verb: 'verifyExactCount', role: 'row', count: -1 },
      { verb: 'verifyState', target: 'x', state: 'done' },
      { verb: 'type' },
      { verb: 'click', target: 'x', selector: '#x' },
      { verb: 'press', key: 'Enter now' },
      { verb: 'press', key: '' },
      { verb: 'wait', ms: 30_001 },
      { verb: 'wait', ms: 1.5 },
      { verb: 'wait', ms: -1 },
      { verb: 'viewport', width: 100_000, height: 10 },
      { verb: 'verifyCount', role: 'row', atLeast: 1e21 },
    ]) {
      expect(StepSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses a viewport past the limits, naming them, in the parser and the schema', () => {
    expect(() => parseStep('Set viewport to 99999x99999')).toThrow(
      'Cannot use the step "Set viewport to 99999x99999": A viewport can be 200 to 7680 pixels wide and high; 99999x99999 is outside that',
    );
    expect(() => parseStep('Set viewport to 10x844')).toThrow(/200 to 7680 pixels/);
    expect(parseStep('Set viewport to 7680x200')).toEqual({ verb: 'viewport', width: 7680, height: 200 });
    const refused = StepSchema.safeParse({ verb: 'viewport', width: 7681, height: 800 });
    expect(refused.error?.issues[0]?.message).toBe('A viewport is at most 7680 pixels wide and high');
  });

  it('parses waits to whole milliseconds, at most 30 s', () => {
    expect(parseStep('Wait 0.0015 seconds')).toEqual({ verb: 'wait', ms: 2 });
    expect(parseStep('Wait 0.4 ms')).toEqual({ verb: 'wait', ms: 0 });
    expect(parseStep('Wait 90 seconds')).toEqual({ verb: 'wait', ms: 30_000 });
  });

  it('every line the parser reads is a step the schema accepts', () => {
    for (const line of [
      'Navigate to https://example.com/login',
      'go to "/products.html"',
      'click link "Our history"',
      'Press Control+A in "Search"',
      'Scroll to the Bottom',
      'Wait 2.5 seconds',
      'Set viewport to 0390x0844',
      'Verify that the listitem "x" is not visible',
      'Verify there are at least 3 buttons',
      'Verify there are exactly 0 dialogs',
      'Click option "Large" in "Size"',
      'Verify cell "$20.00" is visible in "Widget"',
      'Uncheck the checkbox in "Buy milk"',
    ]) {
      expect(StepSchema.safeParse(parseStep(line)).success, line).toBe(true);
    }
  });
});
