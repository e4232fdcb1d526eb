import { formatStep, type Step, type TargetRole } from '@argus/protocol';
import { NAMED_KEYS, namesTarget, parses, targetOf } from './repairable';

/**
 * The repaired case as step-language lines (the protocol's `parseStep`/`formatStep`, so a repair reads
 * as a person would write it): the failed step pointed at its replacement, every later step naming the
 * same old target pointed at it too (`Verify button "Add" is visible` follows `Click "Add"`), and, when
 * the replacement was behind a click, that click inserted before the step, and before each later step
 * of the same old target that follows the same step as it does (a case adding two items through a form
 * now in two parts opens the second part each time). Every other line is kept as written.
 */

export interface Replacement {
  /** The new name ('' with `part: 'region'`: the step no longer names a region). */
  name: string;
  /** What is replaced: the step's target (default), the region it names, or the state it checks. */
  part?: 'target' | 'region' | 'state';
  role: TargetRole | null;
  /** Keep the step's region (`… in "<region>"`): false when that region is gone from the page. */
  keepRegion: boolean;
  /** A line to insert before the step (the click that reveals the replacement), or null. */
  reveal: string | null;
  /**
   * The role the failed step's target had (its own, else the one it matched when the case last
   * passed), when known; else the replacement's. A later step naming the same words with another
   * role names another control (ledger's nav link "Add expense" and its form's button "Add expense")
   * and is left as it is: if it names the same control after all, it fails and is repaired in turn.
   */
  was?: string | null;
}

export interface RewrittenCase {
  after: string[];
  /** Where the repaired step sits in `after` (0-based, the case's own steps). */
  repairedIndex: number;
  /** The case's step indexes a line was inserted before, ascending (one entry per line). */
  insertedBefore: number[];
}

const ROLE_VERBS = new Set(['click', 'verifyElement', 'verifyState']);

export function rewriteCase(steps: string[], failedIndex: number, replacement: Replacement): RewrittenCase {
  const failed = parses(steps[failedIndex]);
  if (replacement.part === 'region') return rewriteRegion(steps, failedIndex, failed, replacement);
  if (replacement.part === 'state') return rewriteState(steps, failedIndex, failed, replacement);
  const old = failed ? targetOf(failed)?.name : undefined;
  if (!failed || old === undefined) throw new Error(`Step ${failedIndex + 1} names no target to replace`);
  const after = steps.map((line, index) => {
    if (index < failedIndex) return line;
    const step = parses(line);
    if (!step) return line;
    if (
      index > failedIndex &&
      (!namesTarget(line, old) || otherControl(step, replacement.was ?? replacement.role))
    )
      return line;
    return formatStep(retarget(step, old, replacement, index === failedIndex));
  });
  renameCore(after, steps, failedIndex, old, replacement.name);
  const insertedBefore = replacement.reveal ? revealedAgain(steps, failedIndex, old) : [];
  for (const index of [...insertedBefore].reverse()) after.splice(index, 0, replacement.reveal as string);
  return { after, repairedIndex: failedIndex + (replacement.reveal ? 1 : 0), insertedBefore };
}

/** A later step whose own role is not the role the repaired step's target had: another control. */
function otherControl(step: Step, was: string | null | undefined): boolean {
  const role = (step as { role?: string }).role;
  return Boolean(was && role && role !== was);
}

/**
 * Where the revealing click goes: before the failed step, and before each later step acting on the
 * same old target right after the same step (verb and target) as the failed one follows.
 */
function revealedAgain(steps: string[], failedIndex: number, old: string): number[] {
  const shape = (line: string | undefined) => {
    const step = line === undefined ? null : parses(line);
    const target = step ? targetOf(step)?.name : undefined;
    return step ? `${step.verb}:${(target ?? '').trim().toLowerCase()}` : null;
  };
  const before = shape(steps[failedIndex - 1]);
  const failedShape = shape(steps[failedIndex]);
  const at = [failedIndex];
  if (before === null) return at;
  for (let index = failedIndex + 1; index < steps.length; index++) {
    if (
      shape(steps[index]) === failedShape &&
      shape(steps[index - 1]) === before &&
      namesTarget(steps[index], old)
    )
      at.push(index);
  }
  return at;
}

/**
 * A rename inside a longer name ("Your cart – Acme" now "Shopping bag – Acme"): later steps naming
 * the part that changed ("Your cart", a heading) name its new words. Lines already rewritten are kept.
 */
function renameCore(after: string[], steps: string[], failedIndex: number, old: string, now: string): void {
  const a = old.trim().split(/\s+/);
  const b = now.trim().split(/\s+/);
  let head = 0;
  while (head < a.length && head < b.length && a[head].toLowerCase() === b[head].toLowerCase()) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a.at(-1 - tail)?.toLowerCase() === b.at(-1 - tail)?.toLowerCase()
  )
    tail++;
  if (head + tail === 0) return;
  const oldCore = a.slice(head, a.length - tail).join(' ');
  const newCore = b.slice(head, b.length - tail).join(' ');
  if (!oldCore || !newCore || !/\p{L}/u.test(oldCore)) return;
  for (let index = failedIndex + 1; index < steps.length; index++) {
    if (after[index] !== steps[index] || !namesTarget(steps[index], oldCore)) continue;
    const step = parses(steps[index]);
    if (step)
      after[index] = formatStep(
        retarget(step, oldCore, { name: newCore, role: null, keepRegion: true, reveal: null }, false),
      );
  }
}

/** Every step from the failed one naming its region looks in the new one (or anywhere, for ''). */
function rewriteRegion(
  steps: string[],
  failedIndex: number,
  failed: Step | null,
  replacement: Replacement,
): RewrittenCase {
  const old = failed && 'region' in failed ? failed.region : undefined;
  if (!old) throw new Error(`Step ${failedIndex + 1} names no region to replace`);
  const after = steps.map((line, index) => {
    const step = index < failedIndex ? null : parses(line);
    if (!step || !('region' in step) || step.region?.trim().toLowerCase() !== old.trim().toLowerCase())
      return line;
    const fields = { ...(step as unknown as Record<string, unknown>) };
    if (replacement.name) fields.region = replacement.name;
    else delete fields.region;
    return formatStep(fields as unknown as Step);
  });
  return { after, repairedIndex: failedIndex, insertedBefore: [] };
}

/** The state word renamed: the failed check and every later check of the same state use the new one. */
function rewriteState(
  steps: string[],
  failedIndex: number,
  failed: Step | null,
  replacement: Replacement,
): RewrittenCase {
  if (failed?.verb !== 'verifyState') throw new Error(`Step ${failedIndex + 1} checks no state`);
  const old = failed.state.trim().toLowerCase();
  const after = steps.map((line, index) => {
    const step = index < failedIndex ? null : parses(line);
    if (step?.verb !== 'verifyState' || step.state.trim().toLowerCase() !== old) return line;
    return formatStep({ ...step, state: replacement.name });
  });
  return { after, repairedIndex: failedIndex, insertedBefore: [] };
}

function retarget(step: Step, old: string, replacement: Replacement, failed: boolean): Step {
  const fields = { ...(step as unknown as Record<string, unknown>) };
  for (const key of NAMED_KEYS) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim().toLowerCase() === old.trim().toLowerCase()) {
      fields[key] = replacement.name;
      break;
    }
  }
  if (ROLE_VERBS.has(step.verb) && (failed || fields.role !== undefined)) {
    if (replacement.role) fields.role = replacement.role;
    else if (step.verb !== 'verifyElement') delete fields.role;
  }
  if (!replacement.keepRegion) delete fields.region;
  return fields as unknown as Step;
}
