import { pluralRole, type StepVerb, type TargetRole } from './step-schema';
import {
  IN,
  inRegion,
  Q,
  q,
  ROLE_PLURAL,
  ROLES,
  r,
  region,
  unquote,
  type VerbGrammar,
  visibility,
} from './step-syntax';

/** The Verify verbs. */
type VerifyVerb = Extract<StepVerb, `verify${string}`>;

/** The Verify verbs of `STEP_GRAMMAR` (step-language.ts), in the order lines are tried against them. */
export const VERIFY_GRAMMAR: { readonly [V in VerifyVerb]: VerbGrammar<V> } = {
  verifyText: {
    forms: [
      [
        r(`verify (?:that )?(?:the )?text\\s+${Q}\\s+is (not )?visible${IN}`),
        (m) => ({ verb: 'verifyText', text: unquote(m, 1), visible: !m[3], ...region(m, 4) }),
      ],
      [
        r(`verify (?:that )?(?:the )?page (?:contains|shows)\\s+${Q}`),
        (m) => ({ verb: 'verifyText', text: unquote(m, 1), visible: true }),
      ],
    ],
    format: (step) => `Verify text ${q(step.text)} ${visibility(step.visible)}${inRegion(step.region)}`,
  },
  verifyElement: {
    forms: [
      [
        r(`verify (?:that )?(?:the )?(${ROLES})\\s+${Q}\\s+is (not )?visible${IN}`),
        (m) => ({
          verb: 'verifyElement',
          role: m[1].toLowerCase() as TargetRole,
          name: unquote(m, 2),
          visible: !m[4],
          ...region(m, 5),
        }),
      ],
    ],
    format: (step) =>
      `Verify ${step.role} ${q(step.name)} ${visibility(step.visible)}${inRegion(step.region)}`,
  },
  verifyChecked: {
    forms: [
      [
        r(`verify (?:that )?${Q}${IN}\\s+is (not )?checked${IN}`),
        (m) => {
          const where = region(m, 3).region === undefined ? region(m, 6) : region(m, 3);
          return { verb: 'verifyChecked', target: unquote(m, 1), ...where, checked: !m[5] };
        },
      ],
      [
        r(`verify (?:that )?the checkbox\\s+in\\s+${Q}\\s+is (not )?checked`),
        (m) => ({ verb: 'verifyChecked', region: unquote(m, 1), checked: !m[3] }),
      ],
      [
        r(`verify (?:that )?the checkbox\\s+is (not )?checked\\s+in\\s+${Q}`),
        (m) => ({ verb: 'verifyChecked', region: unquote(m, 2), checked: !m[1] }),
      ],
    ],
    format: (step) => {
      const is = step.checked ? 'is checked' : 'is not checked';
      return step.target === undefined
        ? `Verify the checkbox in ${q(step.region ?? '')} ${is}`
        : `Verify ${q(step.target)} ${is}${inRegion(step.region)}`;
    },
  },
  verifyState: {
    forms: [
      [
        r(`verify (?:that )?(?:(?:the )?(${ROLES})\\s+)?${Q}${IN}\\s+is (not )?marked\\s+${Q}${IN}`),
        (m) => {
          const where = region(m, 4).region === undefined ? region(m, 9) : region(m, 4);
          return {
            verb: 'verifyState',
            target: unquote(m, 2),
            ...(m[1] ? { role: m[1].toLowerCase() as TargetRole } : {}),
            state: unquote(m, 7),
            marked: !m[6],
            ...where,
          };
        },
      ],
    ],
    format: (step) =>
      `Verify ${step.role ? `${step.role} ` : ''}${q(step.target)} ${step.marked ? 'is' : 'is not'} marked ${q(step.state)}${inRegion(step.region)}`,
  },
  verifySum: {
    forms: [
      [
        r(`verify (?:that )?(?:the rows )?(${Q}(?:\\s*\\+\\s*${Q})+)\\s+add up to\\s+${Q}`),
        (m) => ({
          verb: 'verifySum',
          parts: [...m[1].matchAll(new RegExp(Q, 'g'))].map((p) => unquote(p, 1)),
          total: unquote(m, m.length - 2),
        }),
      ],
    ],
    format: (step) => `Verify the rows ${step.parts.map(q).join(' + ')} add up to ${q(step.total)}`,
  },
  verifyCountOf: {
    forms: [
      [
        r(`verify (?:that )?the number in\\s+${Q}\\s+counts the rows showing\\s+${Q}`),
        (m) => ({ verb: 'verifyCountOf', text: unquote(m, 1), cell: unquote(m, 3) }),
      ],
    ],
    format: (step) => `Verify the number in ${q(step.text)} counts the rows showing ${q(step.cell)}`,
  },
  verifyUrl: {
    forms: [
      [
        r(`verify (?:that )?(?:the )?url contains\\s+${Q}`),
        (m) => ({ verb: 'verifyUrl', text: unquote(m, 1) }),
      ],
    ],
    format: (step) => `Verify URL contains ${q(step.text)}`,
  },
  verifyTitle: {
    forms: [
      [
        r(`verify (?:that )?(?:the )?(?:page )?title contains\\s+${Q}`),
        (m) => ({ verb: 'verifyTitle', text: unquote(m, 1) }),
      ],
    ],
    format: (step) => `Verify title contains ${q(step.text)}`,
  },
  verifyValue: {
    forms: [
      [
        r(`verify (?:that )?(?:the )?field\\s+${Q}\\s+has value\\s+${Q}`),
        (m) => ({ verb: 'verifyValue', field: unquote(m, 1), value: unquote(m, 3) }),
      ],
    ],
    format: (step) => `Verify field ${q(step.field)} has value ${q(step.value)}`,
  },
  verifyInvalid: {
    forms: [
      [
        r(`verify (?:that )?(?:the )?field\\s+${Q}\\s+shows a validation error`),
        (m) => ({ verb: 'verifyInvalid', field: unquote(m, 1) }),
      ],
    ],
    format: (step) => `Verify field ${q(step.field)} shows a validation error`,
  },
  verifyNoErrors: {
    forms: [[r('verify (?:that )?no error message is visible'), () => ({ verb: 'verifyNoErrors' })]],
    format: () => 'Verify no error message is visible',
  },
  verifyExactCount: {
    forms: [
      [
        r(
          `verify (?:that )?(?:there (?:are|is) )?exactly (\\d+)\\s+${ROLE_PLURAL}(?: (?:are|is) visible)?${IN}`,
        ),
        (m) => ({
          verb: 'verifyExactCount',
          role: m[2].toLowerCase() as TargetRole,
          count: Number(m[1]),
          ...region(m, 3),
        }),
      ],
    ],
    format: (step) =>
      step.count === 1
        ? `Verify exactly 1 ${step.role} is visible${inRegion(step.region)}`
        : `Verify exactly ${step.count} ${pluralRole(step.role)} are visible${inRegion(step.region)}`,
  },
  verifyCount: {
    forms: [
      [
        r(`verify (?:that )?(?:there are )?at least (\\d+)\\s+${ROLE_PLURAL}(?: (?:are|is) visible)?`),
        (m) => ({
          verb: 'verifyCount',
          atLeast: Number(m[1]),
          role: m[2].toLowerCase() as TargetRole,
        }),
      ],
    ],
    format: (step) => `Verify at least ${step.atLeast} ${pluralRole(step.role)} are visible`,
  },
  verifyNoConsoleErrors: {
    forms: [
      [r('verify (?:that )?(?:the )?page has no console errors'), () => ({ verb: 'verifyNoConsoleErrors' })],
    ],
    format: () => 'Verify page has no console errors',
  },
  verifyNoFailedRequests: {
    forms: [
      [
        r('verify (?:that )?(?:the )?page has no failed requests'),
        () => ({ verb: 'verifyNoFailedRequests' }),
      ],
    ],
    format: () => 'Verify page has no failed requests',
  },
  verifyLinksWork: {
    forms: [[r('verify (?:that )?all links (?:on the page )?work'), () => ({ verb: 'verifyLinksWork' })]],
    format: () => 'Verify all links work',
  },
  verifyImagesAlt: {
    forms: [[r('verify (?:that )?all images have alt text'), () => ({ verb: 'verifyImagesAlt' })]],
    format: () => 'Verify all images have alt text',
  },
  verifyNoOverflow: {
    forms: [
      [r('verify (?:that )?(?:the page has )?no horizontal overflow'), () => ({ verb: 'verifyNoOverflow' })],
    ],
    format: () => 'Verify no horizontal overflow',
  },
  verifyAccessibility: {
    forms: [
      [
        r('verify (?:that )?(?:the page has )?no (?:serious )?accessibility violations'),
        () => ({ verb: 'verifyAccessibility' }),
      ],
    ],
    format: () => 'Verify no accessibility violations',
  },
  verifyLooksApproved: {
    forms: [
      [r('verify (?:that )?the page looks as approved'), () => ({ verb: 'verifyLooksApproved' })],
      [
        r(`verify (?:that )?${Q}\\s+looks as approved`),
        (m) => ({ verb: 'verifyLooksApproved', region: unquote(m, 1) }),
      ],
    ],
    format: (step) =>
      step.region === undefined
        ? 'Verify the page looks as approved'
        : `Verify ${q(step.region)} looks as approved`,
  },
};
