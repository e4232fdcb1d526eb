import { diffSteps, parseStep, type Step, type Weakening, type WeakeningKind } from '@argus/protocol';

/**
 * The 'weakens an assertion' rule (docs/REPAIRS.md, WEAKENING_KINDS in @argus/protocol): a repair may
 * change what a case does and which element it names, never how much its checks prove. The checks
 * (`Verify …` and `Wait for "<text>"`) of the steps before are paired in order with those after (a
 * repair reorders nothing but may insert actions), and each pair is compared; a check with no pair was
 * removed. A renamed label is what a repair is for, so a check naming another element of the same kind
 * is not flagged unless a number or a value the case typed falls out of the name.
 */
export function assertionWeakenings(before: string[], after: string[]): Weakening[] {
  const checksBefore = checksOf(before);
  const checksAfter = checksOf(after);
  const typed = typedValues(before);
  const out: Weakening[] = [];
  let diff: ReturnType<typeof diffSteps> | null = null;
  for (const [old, now] of pairChecks(checksBefore, checksAfter)) {
    if (now) {
      out.push(...compareChecks(old, now, typed));
      continue;
    }
    diff ??= diffSteps(before, after);
    out.push(removal(old, diff));
  }
  return out;
}

/** A check line: its place, its text, and the step it reads as (null: it does not parse, compared as text). */
interface Check {
  index: number;
  line: string;
  step: Step | null;
}

const CHECK_LINE = /^\s*(?:\d+[.)]\s*)?(?:verify\b|wait for\b)/i;

function readStep(line: string): Step | null {
  try {
    return parseStep(line);
  } catch {
    return null;
  }
}

const isCheckStep = (step: Step) => step.verb.startsWith('verify') || step.verb === 'waitForText';

function checksOf(lines: string[]): Check[] {
  const checks: Check[] = [];
  lines.forEach((line, index) => {
    const step = readStep(line);
    if (step ? isCheckStep(step) : CHECK_LINE.test(line)) checks.push({ index, line, step });
  });
  return checks;
}

/** Values the case types (Fill, Type): a check of what was typed must keep naming it. */
function typedValues(lines: string[]): string[] {
  const values: string[] = [];
  for (const line of lines) {
    const step = readStep(line);
    if (step?.verb === 'fill' || step?.verb === 'type' || step?.verb === 'fillFocused') {
      // One character is part of too many texts to say a check dropped it.
      if (norm(step.value).length >= 2) values.push(step.value);
    }
  }
  return values;
}

// ---------------------------------------------------------------------------------------------------
// Pairing

/** Checks of presence: what a state, value or specific check turns into when it is softened. */
const PRESENCE = new Set(['verifyText', 'verifyElement', 'waitForText', 'verifyCount', 'verifyExactCount']);
/** Verbs that check the same thing in other words, pairable with each other. */
const FAMILIES: string[][] = [
  ['verifyText', 'waitForText', 'verifyElement'],
  ['verifyCount', 'verifyExactCount'],
];
/** Checks whose softening into a presence check is one of the weakenings. */
const SOFTENABLE = new Set(['verifyChecked', 'verifyState', 'verifyValue', 'verifyInvalid', 'verifyElement']);

/** How alike two checks are (0: not the same check, so never paired). */
function pairScore(a: Check, b: Check): number {
  if (!a.step || !b.step) return norm(a.line) === norm(b.line) ? 100 : 0;
  if (JSON.stringify(a.step) === JSON.stringify(b.step)) return 100;
  const likeness = 40 * similarity(argsText(a.step), argsText(b.step));
  if (a.step.verb === b.step.verb) return 50 + likeness;
  const va = a.step.verb;
  const vb = b.step.verb;
  const related =
    FAMILIES.some((family) => family.includes(va) && family.includes(vb)) ||
    (SOFTENABLE.has(va) && PRESENCE.has(vb)) ||
    // A check that something is not shown turned into any other check is still that check, softened.
    polarity(a.step) === false;
  return related ? 20 + likeness : 0;
}

/**
 * The pairing of the checks before with those after that is alike the most, in order (an alignment:
 * a table of best scores, then a walk back). A check before with no pair is null.
 */
function pairChecks(before: Check[], after: Check[]): [Check, Check | null][] {
  const n = before.length;
  const m = after.length;
  const width = m + 1;
  const best = new Float64Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const score = pairScore(before[i], after[j]);
      best[i * width + j] = Math.max(
        best[(i + 1) * width + j],
        best[i * width + j + 1],
        score > 0 ? score + best[(i + 1) * width + j + 1] : 0,
      );
    }
  }
  const pairs: [Check, Check | null][] = [];
  let i = 0;
  let j = 0;
  while (i < n) {
    const here = best[i * width + j];
    const score = j < m ? pairScore(before[i], after[j]) : 0;
    if (j < m && score > 0 && here === score + best[(i + 1) * width + j + 1]) {
      pairs.push([before[i], after[j]]);
      i++;
      j++;
    } else if (j >= m || here === best[(i + 1) * width + j]) {
      pairs.push([before[i], null]);
      i++;
    } else {
      j++;
    }
  }
  return pairs;
}

// ---------------------------------------------------------------------------------------------------
// Comparing a pair

type Found = { kind: WeakeningKind; detail: string };

function compareChecks(old: Check, now: Check, typed: string[]): Weakening[] {
  if (!old.step || !now.step) return [];
  const found = compareSteps(old.step, now.step, typed);
  return found.map(({ kind, detail }) => ({
    kind,
    detail: clip(
      `Step ${old.index + 1} checked ${quote(old.line)}; the repair checks ${quote(now.line)}: ${detail}`,
    ),
    before: old.line,
    after: now.line,
  }));
}

function compareSteps(a: Step, b: Step, typed: string[]): Found[] {
  // A visual check's baseline is kept under its name (the region, or the page): one of another region,
  // or of the whole page, starts again from no approved baseline, so it proves nothing until reviewed.
  if (a.verb === 'verifyLooksApproved') {
    return b.verb === a.verb && b.region === a.region
      ? []
      : [
          {
            kind: 'check_softened',
            detail: 'a check against its approved look became one with no approved baseline',
          },
        ];
  }
  const pa = polarity(a);
  if (pa === false) {
    return b.verb === a.verb && polarity(b) === false
      ? []
      : [{ kind: 'check_softened', detail: 'a check that it is not shown became another check' }];
  }
  const pb = polarity(b);
  if (pa !== undefined && pb !== undefined && pb !== pa) {
    return [{ kind: 'check_softened', detail: 'it now checks the opposite' }];
  }
  if (b.verb !== a.verb && SOFTENABLE.has(a.verb) && a.verb !== 'verifyElement') {
    return [{ kind: 'check_softened', detail: `a check of ${STATE_OF[a.verb]} became a check of presence` }];
  }
  const found = [
    ...countChanges(a, b),
    ...regionChanges(a, b, typed),
    ...targetChanges(a, b, typed),
    ...textChanges(a, b, typed),
  ];
  // One flag of a kind per check is enough (a count of any in no region is one item_to_any).
  return found.filter((f, i) => found.findIndex((g) => g.kind === f.kind) === i);
}

const STATE_OF: Record<string, string> = {
  verifyChecked: 'a checked state',
  verifyState: 'a state',
  verifyValue: 'a value',
  verifyInvalid: 'a validation error',
};

/** Whether the check is of a state being so (true) or not (false); undefined: it has no polarity. */
function polarity(step: Step): boolean | undefined {
  if (step.verb === 'verifyText' || step.verb === 'verifyElement') return step.visible;
  if (step.verb === 'verifyChecked') return step.checked;
  if (step.verb === 'verifyState') return step.marked;
  return undefined;
}

function countChanges(a: Step, b: Step): Found[] {
  const lowered = (detail: string): Found[] => [{ kind: 'count_lowered', detail }];
  if (a.verb === 'verifyExactCount') {
    if (b.verb === 'verifyCount') return lowered(`exactly ${a.count} became at least ${b.atLeast}`);
    if (b.verb === 'verifyExactCount' && b.count !== a.count) {
      return lowered(`exactly ${a.count} became exactly ${b.count}`);
    }
  }
  if (a.verb === 'verifyCount') {
    if (b.verb === 'verifyCount' && b.atLeast < a.atLeast) {
      return lowered(`at least ${a.atLeast} became at least ${b.atLeast}`);
    }
    if (b.verb === 'verifyExactCount' && b.count < a.atLeast) {
      return lowered(`at least ${a.atLeast} became exactly ${b.count}`);
    }
  }
  if (a.verb === 'verifySum' && b.verb === 'verifySum' && b.parts.length < a.parts.length) {
    return lowered(`${a.parts.length} rows summed became ${b.parts.length}`);
  }
  if (a.verb === 'verifyElement' && (b.verb === 'verifyCount' || b.verb === 'verifyExactCount')) {
    return [{ kind: 'item_to_any', detail: `a check of ${a.role} ${quote(a.name)} became a count of any` }];
  }
  return [];
}

const regionOf = (step: Step): string | undefined => ('region' in step ? step.region : undefined);

function regionChanges(a: Step, b: Step, typed: string[]): Found[] {
  const was = regionOf(a);
  if (was === undefined) return [];
  const now = regionOf(b);
  if (now === undefined) {
    return [{ kind: 'item_to_any', detail: `it no longer limits the check to ${quote(was)}` }];
  }
  const why = widening(was, now, typed, true);
  return why ? [{ kind: 'item_to_any', detail: `the item ${quote(was)} became ${quote(now)}: ${why}` }] : [];
}

/** The element a check names (verifyElement's name, a verifyChecked or verifyState target). */
function targetOf(step: Step): string | undefined {
  if (step.verb === 'verifyElement') return step.name;
  if (step.verb === 'verifyChecked' || step.verb === 'verifyState') return step.target;
  return undefined;
}

function targetChanges(a: Step, b: Step, typed: string[]): Found[] {
  const was = targetOf(a);
  if (was === undefined || norm(was) === '') return [];
  // An element named by its text may be checked as that text (a heading became a paragraph).
  const now = targetOf(b) ?? (b.verb === 'verifyText' || b.verb === 'waitForText' ? b.text : undefined);
  if (now === undefined || norm(now) === '') {
    return [{ kind: 'item_to_any', detail: `the check of ${quote(was)} became a check of any` }];
  }
  // Another name is a renamed label, unless what the case counted or typed falls out of it.
  const why = widening(was, now, typed, false);
  return why ? [{ kind: 'text_widened', detail: `${quote(was)} became ${quote(now)}: ${why}` }] : [];
}

/** The text a check reads (a text, URL, title, value or counted cell). */
function checkedText(step: Step): string | undefined {
  switch (step.verb) {
    case 'verifyText':
    case 'waitForText':
    case 'verifyUrl':
    case 'verifyTitle':
      return step.text;
    case 'verifyValue':
      return step.value;
    case 'verifyCountOf':
      return step.cell;
    default:
      return undefined;
  }
}

function textChanges(a: Step, b: Step, typed: string[]): Found[] {
  const was = checkedText(a);
  // A text may be checked as the name of the element that shows it.
  const now = checkedText(b) ?? targetOf(b);
  if (was === undefined || now === undefined) return [];
  const why = widening(was, now, typed, true);
  return why ? [{ kind: 'text_widened', detail: `${quote(was)} became ${quote(now)}: ${why}` }] : [];
}

/**
 * Why `now` matches more than `was` did: it is a part of it (when `partOf`), or a number or a typed
 * value in it is gone. Null: it does not (another text altogether is a rename, not a widening).
 */
function widening(was: string, now: string, typed: string[], partOf: boolean): string | null {
  const a = norm(was);
  const b = norm(now);
  if (a === b) return null;
  if (partOf && a.includes(b)) return b === '' ? 'it checks no text' : 'it is a part of the text it checked';
  const kept = new Set(numbers(b));
  const lost = numbers(a).filter((n) => !kept.has(n));
  if (lost.length > 0) return `it drops the number ${lost.join(', ')}`;
  const dropped = typed.find((value) => a.includes(norm(value)) && !b.includes(norm(value)));
  return dropped === undefined ? null : `it drops ${quote(dropped)}, which the case typed`;
}

const numbers = (text: string) => text.match(/\d+(?:[.,]\d+)*/g) ?? [];

// ---------------------------------------------------------------------------------------------------
// A check with no pair

function removal(old: Check, diff: ReturnType<typeof diffSteps>): Weakening {
  const at = diff.findIndex((line) => line.op === 'removed' && line.before === old.index);
  // The lines put in its place: the added lines of the same run of changes.
  const replaced: string[] = [];
  for (let k = at + 1; at >= 0 && k < diff.length && diff[k].op !== 'same'; k++) {
    if (diff[k].op === 'added') replaced.push(diff[k].line);
  }
  const nonCheck = replaced.find((line) => {
    const step = readStep(line);
    return step ? !isCheckStep(step) : !CHECK_LINE.test(line);
  });
  const detail = nonCheck
    ? `Step ${old.index + 1} checked ${quote(old.line)}; the repair puts ${quote(nonCheck)} in its place, which checks nothing`
    : `Step ${old.index + 1} checked ${quote(old.line)}; the repair no longer checks it`;
  return { kind: 'check_removed', detail: clip(detail), before: old.line, after: null };
}

// ---------------------------------------------------------------------------------------------------
// Text

/** Case and runs of spaces ignored, as the engine's text checks ignore them. */
const norm = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

const WORD = /[\p{L}\p{N}]+/gu;

/** Words shared over words in either (0 to 1). */
function similarity(a: string, b: string): number {
  const wa = new Set(a.toLowerCase().match(WORD) ?? []);
  const wb = new Set(b.toLowerCase().match(WORD) ?? []);
  if (wa.size === 0 && wb.size === 0) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

/** A step's arguments as one text (its verb left out), to say how alike two checks are. */
function argsText(step: Step): string {
  return Object.entries(step)
    .filter(([key]) => key !== 'verb')
    .map(([, value]) => (Array.isArray(value) ? value.join(' ') : String(value)))
    .join(' ');
}

const quote = (text: string) => `"${text.length > 200 ? `${text.slice(0, 199)}…` : text}"`;
const clip = (text: string) => (text.length > 1_000 ? `${text.slice(0, 999)}…` : text);
