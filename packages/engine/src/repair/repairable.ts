import { parseStep, type Step, type TargetRole } from '@argus/protocol';
import { lookupOf } from '../failure/step-target';
import type { RepairRequest } from './repair-types';

/**
 * Which failures get a repair try (docs/REPAIRS.md), decided from the run's label alone, no browser:
 * - `not_found` of a step that acts on an element (click, double-click, fill, clear, select, check,
 *   hover, press in a field, scroll to a target) or checks one (an element, a checked or marked state,
 *   a field's value or validation): the element is not on the page, perhaps renamed or moved;
 * - a check of a TEXT (a text, a wait for one, the title, the URL) that failed: a changed text the step
 *   names, but only when the text has no digit (a count, a price, a total) and is not a value the case
 *   typed itself (an item it added): those failing are what the app broke, never a rename.
 * Everything else (the app answered 5xx or threw, the target is there and the expected state does not
 * hold, timing, the environment) is a bug: no repair.
 */

/** What the failed step looks for, as a repair looks for its replacement. */
export type TargetWant =
  | 'clickable'
  | 'field'
  | 'select'
  | 'check'
  | 'element'
  | 'text'
  | 'title'
  | 'url'
  /** The region the step names (`… in "<region>"`) is gone: its name is what is replaced. */
  | 'region'
  /** The state a `Verify … is marked "<state>"` names is not on its element: the state word is replaced. */
  | 'state';

export interface RepairTarget {
  want: TargetWant;
  /** The name (or text) the step gives. */
  name: string;
  role?: TargetRole;
  region?: string;
}

export type Repairability =
  | { repairable: true; stepIndex: number; step: Step; target: RepairTarget }
  | { repairable: false; stepIndex: number | null; summary: string; signals: string[] };

/** How many lines the runner put before the case's own: a `Navigate to` when the case starts elsewhere. */
export function runnerOffset(steps: string[]): number {
  return parses(steps[0])?.verb === 'navigate' ? 0 : 1;
}

export function parses(line: string | undefined): Step | null {
  if (line === undefined) return null;
  try {
    return parseStep(line);
  } catch {
    return null;
  }
}

/** A `Verify … is marked` whose element is there without the state (check-verbs.ts's words). */
const STATE_MISSING = /to be marked ".*", but it is not \(/;

/** The step's region is not on the page (locate.ts's words). */
const REGION_GONE = /No visible region \(/;

const TEXT_CHECKS = new Set(['verifyText', 'waitForText', 'verifyTitle', 'verifyUrl']);

export function judgeRepairable(request: RepairRequest): Repairability {
  const { failure, testCase } = request;
  const runnerIndex = failure.step_index;
  const stepIndex = runnerIndex === null ? null : runnerIndex - runnerOffset(testCase.steps);
  const bug = (summary: string, signals: string[] = []) =>
    ({
      repairable: false,
      stepIndex: stepIndex !== null && stepIndex >= 0 ? stepIndex : null,
      summary,
      signals,
    }) as const;
  if (failure.kind !== 'not_found' && failure.kind !== 'assertion') {
    return bug(`${labelOf(failure.kind)}: ${failure.evidence}`, [`failure: ${failure.kind}`]);
  }
  if (stepIndex === null || stepIndex < 0 || stepIndex >= testCase.steps.length) {
    return bug(`The case failed outside its own steps: ${failure.evidence}`, [`failure: ${failure.kind}`]);
  }
  const step = parses(testCase.steps[stepIndex]);
  const region = step && 'region' in step ? step.region : undefined;
  const regionGone = region !== undefined && REGION_GONE.test(request.error);
  const target = regionGone
    ? { want: 'region' as const, name: region }
    : step?.verb === 'verifyState' && step.marked && STATE_MISSING.test(request.error)
      ? { want: 'state' as const, name: step.state }
      : step
        ? targetOf(step)
        : null;
  if (!step || !target) {
    return bug(`Step ${stepIndex + 1} names no element to look for again: ${failure.evidence}`);
  }
  // A text (or a region named by one) holding a number, or the case's own typed value (an item it
  // added), that is not there: the app broke, whatever else changed.
  if (['region', 'text', 'title', 'url', 'state'].includes(target.want)) {
    const what =
      target.want === 'text' || target.want === 'title' || target.want === 'url' ? 'text' : target.want;
    if (/\d/.test(target.name)) {
      return bug(
        `The ${what} "${target.name}" the step names holds a number and is not on the page: the app broke`,
        [`${what} holds a number`],
      );
    }
    if (typedBefore(testCase.steps, stepIndex).some((value) => sameText(value, target.name))) {
      return bug(
        `The ${what} "${target.name}" is a value the case typed itself and it is not on the page: the app broke`,
        [`${what} typed by the case`],
      );
    }
    return { repairable: true, stepIndex, step, target };
  }
  // A check of an element reads "Expected a button named …": not there, as not_found is.
  const missingElement =
    failure.kind === 'not_found' ||
    (step.verb === 'verifyElement' && /^Expected a \w+ named/.test(request.error));
  if (!missingElement) {
    return bug(`The target is there and the expected state does not hold: ${failure.evidence}`, [
      `failure: ${failure.kind}`,
    ]);
  }
  return { repairable: true, stepIndex, step, target };
}

/** The target the failed step names and what kind of element replaces it; null for none. */
export function targetOf(step: Step): RepairTarget | null {
  switch (step.verb) {
    case 'verifyElement':
      return step.visible ? { want: 'element', name: step.name, role: step.role, region: step.region } : null;
    case 'verifyText':
      return step.visible ? { want: 'text', name: step.text, region: step.region } : null;
    case 'waitForText':
      return { want: 'text', name: step.text };
    case 'verifyTitle':
      return { want: 'title', name: step.text };
    case 'verifyUrl':
      return { want: 'url', name: step.text };
    case 'select':
      return { want: 'select', name: step.field };
    case 'verifyState':
      return { want: 'element', name: step.target, role: step.role, region: step.region };
    default:
      break;
  }
  if (TEXT_CHECKS.has(step.verb)) return null;
  const lookup = lookupOf(step);
  if (!lookup?.target) return null;
  const want: TargetWant =
    lookup.kind === 'field' ? 'field' : lookup.kind === 'check' ? 'check' : 'clickable';
  return { want, name: lookup.target, role: lookup.role as TargetRole | undefined, region: lookup.region };
}

/**
 * The line's step names `old` as what it acts on or checks (letter case aside), whatever its verb:
 * a later `Verify button "Add" is not visible` names the same control as `Click "Add"` did.
 */
export function namesTarget(line: string, old: string): boolean {
  const step = parses(line) as unknown as Record<string, unknown> | null;
  if (!step) return false;
  const wanted = old.trim().toLowerCase();
  return NAMED_KEYS.some(
    (key) => typeof step[key] === 'string' && (step[key] as string).trim().toLowerCase() === wanted,
  );
}

/** The fields of a step that name its target. */
export const NAMED_KEYS = ['target', 'field', 'name', 'text'] as const;

/** Values the case typed before the step (Fill, Type, Fill the focused field). */
export function typedBefore(steps: string[], before: number): string[] {
  return steps
    .slice(0, before)
    .map(parses)
    .flatMap((s) =>
      s && (s.verb === 'fill' || s.verb === 'type' || s.verb === 'fillFocused') ? [s.value] : [],
    );
}

function sameText(typed: string, checked: string): boolean {
  const a = typed.trim().toLowerCase();
  const b = checked.trim().toLowerCase();
  return a.length > 0 && (a.includes(b) || b.includes(a));
}

function labelOf(kind: string): string {
  switch (kind) {
    case 'app_error':
      return 'The app broke';
    case 'timing':
      return 'A timing failure, not a change of the app';
    case 'environment':
      return 'The site could not be reached';
    default:
      return 'Not a change of the app';
  }
}
