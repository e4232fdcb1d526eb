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
    ['Verify title contains "Acme"', { verb: 'verifyTitle', text: 'Acme' }],
    ['Verify field "Email" shows a validation error', { verb: 'verifyInvalid', field: 'Email' }],
    ['Verify no error message is visible', { verb: 'verifyNoErrors' }],
    ['Verify at least 3 rows are visible', { verb: 'verifyCount', role: 'row', atLeast: 3 }],
    ['Verify page has no console errors', { verb: 'verifyNoConsoleErrors' }],
    ['Verify all links work', { verb: 'verifyLinksWork' }],
    ['Verify all images have alt text', { verb: 'verifyImagesAlt' }],
    ['Verify no horizontal overflow', { verb: 'verifyNoOverflow' }],
    ['Verify no accessibility violations', { verb: 'verifyAccessibility' }],
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

/** The Step type as it was written by hand before StepSchema: the schema must mean exactly this. */
type HandWrittenStep =
  | { verb: 'navigate'; url: string }
  | { verb: 'back' }
  | { verb: 'reload' }
  | { verb: 'click'; target: string; role?: TargetRole }
  | { verb: 'fill'; field: string; value: string }
  | { verb: 'clear'; field: string }
  | { verb: 'select'; option: string; field: string }
  | { verb: 'check'; target: string; checked: boolean }
  | { verb: 'press'; key: string; field?: string }
  | { verb: 'hover'; target: string }
  | { verb: 'scroll'; target: 'bottom' | 'top' | string }
  | { verb: 'wait'; ms: number }
  | { verb: 'waitForText'; text: string }
  | { verb: 'viewport'; width: number; height: number }
  | { verb: 'screenshot' }
  | { verb: 'verifyText'; text: string; visible: boolean }
  | { verb: 'verifyElement'; role: TargetRole; name: string; visible: boolean }
  | { verb: 'verifyUrl'; text: string }
  | { verb: 'verifyTitle'; text: string }
  | { verb: 'verifyValue'; field: string; value: string }
  | { verb: 'verifyInvalid'; field: string }
  | { verb: 'verifyNoErrors' }
  | { verb: 'verifyCount'; role: TargetRole; atLeast: number }
  | { verb: 'verifyNoConsoleErrors' }
  | { verb: 'verifyNoFailedRequests' }
  | { verb: 'verifyLinksWork' }
  | { verb: 'verifyImagesAlt' }
  | { verb: 'verifyNoOverflow' }
  | { verb: 'verifyAccessibility' };

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

const ROLE_LIST: TargetRole[] = [
  'button',
  'link',
  'heading',
  'textbox',
  'checkbox',
  'img',
  'row',
  'listitem',
];

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
  ...ROLE_LIST.map((role, i): Step => ({ verb: 'click', target: AWKWARD[i + 3], role })),
  ...AWKWARD.map((value, i): Step => ({ verb: 'fill', field: AWKWARD.at(-i - 1) ?? '', value })),
  ...AWKWARD.map((field): Step => ({ verb: 'clear', field })),
  ...AWKWARD.map((option, i): Step => ({ verb: 'select', option, field: AWKWARD.at(-i - 1) ?? '' })),
  ...AWKWARD.flatMap((target): Step[] => [
    { verb: 'check', target, checked: true },
    { verb: 'check', target, checked: false },
  ]),
  ...['Enter', 'Tab', 'Control+A', 'a', 'F5', 'in'].flatMap((key): Step[] => [
    { verb: 'press', key },
    { verb: 'press', key, field: 'Search' },
    { verb: 'press', key, field: 'x" in "y' },
  ]),
  ...AWKWARD.map((target): Step => ({ verb: 'hover', target })),
  ...['bottom', 'top', 'Bottom', 'the bottom', 'Pricing', ...AWKWARD].map(
    (target): Step => ({ verb: 'scroll', target }),
  ),
  ...[0, 1, 250, 999, 1000, 1001, 1500, 2000, 30_000].map((ms): Step => ({ verb: 'wait', ms })),
  ...AWKWARD.map((text): Step => ({ verb: 'waitForText', text })),
  ...[
    [390, 844],
    [0, 0],
    [5, 7],
    [99_999, 10],
  ].map(([width, height]): Step => ({ verb: 'viewport', width, height })),
  { verb: 'screenshot' },
  ...AWKWARD.flatMap((text): Step[] => [
    { verb: 'verifyText', text, visible: true },
    { verb: 'verifyText', text, visible: false },
  ]),
  ...ROLE_LIST.flatMap((role, i): Step[] => [
    { verb: 'verifyElement', role, name: AWKWARD[i], visible: true },
    { verb: 'verifyElement', role, name: AWKWARD[i + 8], visible: false },
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
  ]),
  { verb: 'verifyNoConsoleErrors' },
  { verb: 'verifyNoFailedRequests' },
  { verb: 'verifyLinksWork' },
  { verb: 'verifyImagesAlt' },
  { verb: 'verifyNoOverflow' },
  { verb: 'verifyAccessibility' },
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
  });

  it('refuses steps outside the grammar: unknown verbs and keys, bad keys, waits past 30 s', () => {
    for (const bad of [
      { verb: 'dance' },
      { verb: 'click' },
      { verb: 'click', target: 'x', role: 'tab' },
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
      'Set viewport to 0010x0844',
      'Verify that the listitem "x" is not visible',
      'Verify there are at least 3 buttons',
    ]) {
      expect(StepSchema.safeParse(parseStep(line)).success, line).toBe(true);
    }
  });
});
