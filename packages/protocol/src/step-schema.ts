import { z } from 'zod';

/**
 * A step of the step language as data (`StepSchema`, by its verb): what `parseStep` reads a line into
 * (step-language.ts) and a planner's structured output can target; the roles a step may name, and the
 * limits a step is held to.
 */
export const TargetRoleSchema = z.enum([
  'button',
  'link',
  'heading',
  'textbox',
  'checkbox',
  'img',
  'row',
  'listitem',
  'radio',
  'combobox',
  'option',
  'list',
  'tab',
  'menuitem',
  'dialog',
  'alert',
  'status',
  'cell',
]);
export type TargetRole = z.infer<typeof TargetRoleSchema>;
/** The plural a role is written with: `checkboxes`, `rows`. */
export const pluralRole = (role: TargetRole) => (role.endsWith('x') ? `${role}es` : `${role}s`);

/**
 * What `Set viewport to <w>x<h>` (and every viewport the engine opens) may be, in CSS pixels each way:
 * one browser serves every user, and a 99999x99999 page would take its memory from all of them.
 * The design comparison's viewports (`ViewportSchema`) share these limits.
 */
export const VIEWPORT_LIMITS = { min: 200, max: 7680 } as const;

/** The refusal of a viewport outside {@link VIEWPORT_LIMITS}, naming the limit. */
export function viewportProblem(width: number, height: number): string | null {
  const { min, max } = VIEWPORT_LIMITS;
  const fits = (n: number) => Number.isInteger(n) && n >= min && n <= max;
  return fits(width) && fits(height)
    ? null
    : `A viewport can be ${min} to ${max} pixels wide and high; ${width}x${height} is outside that`;
}

const viewportSide = z
  .number()
  .int()
  .min(VIEWPORT_LIMITS.min, `A viewport is at least ${VIEWPORT_LIMITS.min} pixels wide and high`)
  .max(VIEWPORT_LIMITS.max, `A viewport is at most ${VIEWPORT_LIMITS.max} pixels wide and high`);

/** Whole milliseconds, at most 30 s (`Wait 2 seconds`, `Wait 250 ms`). */
export const WAIT_MAX_MS = 30_000;

const step = <V extends string, S extends z.ZodRawShape>(verb: V, shape: S) =>
  z.strictObject({ verb: z.literal(verb), ...shape });

/** One step of the step language as data, by its `verb`. */
export const StepSchema = z.discriminatedUnion('verb', [
  step('navigate', { url: z.string() }),
  step('back', {}),
  step('reload', {}),
  /**
   * Without a target, the (first) control of `role` in the region: for an icon-only button with no
   * name of its own (a bin in a row). One of `target` and `role` + `region` is required.
   */
  step('click', {
    target: z.string().optional(),
    role: TargetRoleSchema.optional(),
    region: z.string().optional(),
  }).refine(
    (s) => s.target !== undefined || (s.role !== undefined && s.region !== undefined),
    'A click step names its target, or a role and a region',
  ),
  step('doubleClick', { target: z.string(), region: z.string().optional() }),
  step('fill', { field: z.string(), value: z.string() }),
  step('clear', { field: z.string() }),
  step('select', { option: z.string(), field: z.string() }),
  /** Without a target, the (first) checkbox in the region: one of `target` and `region` is required. */
  step('check', {
    target: z.string().optional(),
    checked: z.boolean(),
    region: z.string().optional(),
  }).refine(
    (s) => s.target !== undefined || s.region !== undefined,
    'A check step names its target, its region, or both',
  ),
  step('press', { key: z.string().regex(/^[A-Za-z0-9+]+$/), field: z.string().optional() }),
  step('hover', { target: z.string(), region: z.string().optional() }),
  /** Types into the element that has focus. */
  step('type', { value: z.string() }),
  /** Replaces the value of the field that has focus. */
  step('fillFocused', { value: z.string() }),
  /** 'bottom' and 'top' scroll the page; any other text is a target to scroll to. */
  step('scroll', { target: z.string() }),
  step('wait', { ms: z.number().int().min(0).max(WAIT_MAX_MS) }),
  step('waitForText', { text: z.string() }),
  step('viewport', { width: viewportSide, height: viewportSide }),
  step('screenshot', {}),
  step('verifyText', { text: z.string(), visible: z.boolean(), region: z.string().optional() }),
  step('verifyElement', {
    role: TargetRoleSchema,
    name: z.string(),
    visible: z.boolean(),
    region: z.string().optional(),
  }),
  /**
   * The numbers of the `parts` rows (a table's rows, each found by its first cell) add up to the
   * number of the `total` row: a summary that holds whatever the data.
   */
  step('verifySum', { parts: z.array(z.string()).min(2).max(20), total: z.string() }),
  /**
   * The number shown with `text` ("2 open tickets": `open tickets`, singular or plural) equals how many
   * rows have a cell that reads `cell` ("Open"): a counter that holds whatever the data.
   */
  step('verifyCountOf', { text: z.string(), cell: z.string() }),
  step('verifyUrl', { text: z.string() }),
  step('verifyTitle', { text: z.string() }),
  step('verifyValue', { field: z.string(), value: z.string() }),
  step('verifyInvalid', { field: z.string() }),
  step('verifyNoErrors', {}),
  step('verifyCount', { role: TargetRoleSchema, atLeast: z.number().int().min(0) }),
  step('verifyExactCount', {
    role: TargetRoleSchema,
    count: z.number().int().min(0),
    region: z.string().optional(),
  }),
  /** Without a target, the (first) checkbox in the region: one of `target` and `region` is required. */
  step('verifyChecked', {
    target: z.string().optional(),
    region: z.string().optional(),
    checked: z.boolean(),
  }).refine(
    (s) => s.target !== undefined || s.region !== undefined,
    'A verifyChecked step names its target, its region, or both',
  ),
  /** A class, `aria-*` or `data-state` mark on the target or its item (docs/STEP-LANGUAGE.md). */
  step('verifyState', {
    target: z.string(),
    role: TargetRoleSchema.optional(),
    state: z.string(),
    marked: z.boolean(),
    region: z.string().optional(),
  }),
  step('verifyNoConsoleErrors', {}),
  step('verifyNoFailedRequests', {}),
  step('verifyLinksWork', {}),
  step('verifyImagesAlt', {}),
  step('verifyNoOverflow', {}),
  step('verifyAccessibility', {}),
  /**
   * The page (or the region named, `Verify "<region>" looks as approved`) looks as its approved
   * baseline: a settled capture compared with it, what moves by itself masked (docs/STEP-LANGUAGE.md).
   */
  step('verifyLooksApproved', { region: z.string().optional() }),
]);
export type Step = z.infer<typeof StepSchema>;
export type StepVerb = Step['verb'];

/** The step of one verb. */
export type StepOf<V extends StepVerb> = Extract<Step, { verb: V }>;
