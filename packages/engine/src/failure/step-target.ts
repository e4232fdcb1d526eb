import type { Step } from '@argus/protocol';
import type { TargetKind } from '../locate';

/** What a step acts on or checks, as written (`{{NAME}}` unfilled): the fingerprint's target. */
export function stepTarget(step: Step | null, line: string): string {
  if (!step) return line;
  const fields = step as unknown as Record<string, unknown>;
  const named = ['target', 'field', 'name', 'text', 'url', 'option', 'key']
    .map((key) => fields[key])
    .find((value): value is string => typeof value === 'string');
  const role = typeof fields.role === 'string' ? `${fields.role} ` : '';
  const region = typeof fields.region === 'string' ? ` in "${fields.region}"` : '';
  return `${role}${named ?? ''}${region}`.trim();
}

/** The verbs whose failure says the expected state did not hold (the page answered). */
export function isCheck(verb: string): boolean {
  return verb.startsWith('verify') || verb === 'judge_expected_result';
}

/** How a step looks its target up again (see `recheck.ts`), or null when it names no element. */
export function lookupOf(
  step: Step,
): { kind: TargetKind | 'text'; target: string; role?: string; region?: string } | null {
  const s = step as unknown as Record<string, string | boolean | undefined>;
  const region = typeof s.region === 'string' ? s.region : undefined;
  const role = typeof s.role === 'string' ? s.role : undefined;
  switch (step.verb) {
    case 'click':
    case 'doubleClick':
    case 'hover':
    case 'scroll':
      if (typeof s.target !== 'string' || s.target === 'top' || s.target === 'bottom') return null;
      return { kind: 'any', target: s.target, role, region };
    case 'check':
    case 'verifyChecked':
      return typeof s.target === 'string' ? { kind: 'check', target: s.target, region } : null;
    case 'verifyState':
      return typeof s.target === 'string' ? { kind: 'text', target: s.target, role, region } : null;
    case 'waitForText':
      return typeof s.text === 'string' ? { kind: 'text', target: s.text } : null;
    case 'verifyText':
      return s.visible === true && typeof s.text === 'string'
        ? { kind: 'text', target: s.text, region }
        : null;
    default:
      return typeof s.field === 'string' ? { kind: 'field', target: s.field } : null;
  }
}
