import { diffSteps, type Step, type StepDiffLine } from '@argus/protocol';
import type { Rename } from './repair-types';
import { parses, targetOf } from './repairable';

export type { Rename };

/**
 * Renames a suite's other repairs proved (docs/REPAIRS.md#renames-learnt-across-the-suite): when one
 * case's repair found that "Mark all as complete" is now "Finish everything" by what the control does,
 * another case that only checks the old words is repaired with the new ones, as a person fixing the
 * suite would. A rename is read off a proved repair's lines; it is only ever a candidate, and the
 * repaired case must still pass its proof.
 */

/** A name the renames map, and by which of them. */
export interface Renamed {
  name: string;
  rename: Rename;
}

/**
 * The renames one proved repair made: its step diff's changed lines paired, each saved line with the
 * repaired line of the same verb that took its place (a click the repair inserted to open a menu, the
 * line right before its replacement, is skipped), where both name a target of the same kind under
 * different names.
 */
export function renamesOf(before: string[], after: string[], seenIn: string): Rename[] {
  const out: Rename[] = [];
  for (const [old, now] of pairedLines(diffSteps(before, after))) {
    const was = old ? targetOf(old) : null;
    const is = now ? targetOf(now) : null;
    if (!was || !is || was.want !== is.want || !was.name || !is.name) continue;
    if (was.name.trim().toLowerCase() === is.name.trim().toLowerCase()) continue;
    if (!out.some((r) => r.from === was.name)) out.push({ from: was.name, to: is.name, seenIn });
  }
  return out;
}

/** Each run of changes' removed lines paired in order with its added lines of the same verb. */
function pairedLines(diff: StepDiffLine[]): [Step | null, Step | null][] {
  const pairs: [Step | null, Step | null][] = [];
  let removed: Step[] = [];
  let added: Step[] = [];
  const flush = () => {
    for (const verb of new Set(removed.map((s) => s.verb))) {
      const olds = removed.filter((s) => s.verb === verb);
      const news = added.filter((s) => s.verb === verb);
      // More new lines of the verb than old ones: the extra ones are the clicks that open a menu,
      // each right before the line it opens the way to.
      let extra = news.length - olds.length;
      const kept = news.filter((_, i) => !(extra > 0 && i < news.length - 1 && extra-- > 0));
      olds.forEach((old, i) => {
        pairs.push([old, kept[i] ?? null]);
      });
    }
    removed = [];
    added = [];
  };
  for (const line of diff) {
    if (line.op === 'same') flush();
    const step = parses(line.line);
    if (!step) continue;
    if (line.op === 'removed') removed.push(step);
    if (line.op === 'added') added.push(step);
  }
  flush();
  return pairs;
}

const words = (s: string) => s.trim().split(/\s+/).filter(Boolean);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * What `name` is called now by the renames, or null: the same old name, or a name of the same pattern
 * ("Decrease quantity of Trail Shoes" when "Decrease quantity of Socks" became "Fewer Socks": the words
 * both names of the rename share at their start or end are the item's, the rest is what was renamed).
 */
export function renamedName(name: string, renames: readonly Rename[]): Renamed | null {
  for (const rename of renames) if (same(rename.from.trim(), name.trim())) return { name: rename.to, rename };
  for (const rename of renames) {
    const shifted = samePattern(name, rename);
    if (shifted) return { name: shifted, rename };
  }
  return null;
}

/** `name` renamed as `rename` renamed its own, when both keep the same words around a changed part. */
function samePattern(name: string, rename: Rename): string | null {
  const a = words(rename.from);
  const b = words(rename.to);
  let head = 0;
  while (head < a.length && head < b.length && same(a[head], b[head])) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    same(a[a.length - 1 - tail], b[b.length - 1 - tail])
  )
    tail++;
  // Only a rename around a kept part (the item's name) has a pattern; the kept part is one side only.
  if ((head === 0) === (tail === 0)) return null;
  const oldPart = a.slice(head, a.length - tail);
  const newPart = b.slice(head, b.length - tail);
  if (oldPart.length === 0) return null;
  const n = words(name);
  if (n.length <= oldPart.length) return null;
  if (tail > 0) {
    // The changed part leads ("Decrease quantity of" + item): the name must lead with it too.
    if (!oldPart.every((w, i) => same(w, n[i]))) return null;
    return [...newPart, ...n.slice(oldPart.length)].join(' ');
  }
  // The changed part ends the name (item + "details").
  const start = n.length - oldPart.length;
  if (!oldPart.every((w, i) => same(w, n[start + i]))) return null;
  return [...n.slice(0, start), ...newPart].join(' ');
}
