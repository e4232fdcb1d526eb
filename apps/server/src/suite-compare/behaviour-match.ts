import { diffSteps, type SuiteCaseChange, type TestCase } from '@argus/protocol';
import { type BehaviourSignature, normalisedSteps, signatureOf } from './behaviour-signature';

/**
 * Regenerate and compare's matcher: the generated cases matched to the saved ones by the behaviour
 * they test (behaviour-signature.ts), not by their names. Every pair is scored; pairs are taken best
 * first, each case at most once, while the score is at least MATCH_THRESHOLD. A matched pair whose steps
 * are the same once test data is set aside is unchanged, else changed (with its step diff); a generated
 * case left over is a behaviour no saved case covers (added), a saved one left over a behaviour the app
 * no longer shows (removed). Pure: no database, no browser.
 */

/** The least score of a match: the same kind of actions and effects on the same page, roughly. */
export const MATCH_THRESHOLD = 0.7;

/** How much each part of the signature weighs in a score (they add up to 1). */
const WEIGHTS = { actions: 0.4, effects: 0.3, start: 0.1, names: 0.2 } as const;

/** Longest common subsequence of two token lists, over the longer one's length (1 for two empty). */
export function sequenceSimilarity(a: string[], b: string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length] / Math.max(a.length, b.length);
}

/** Shared words over all words (1 for two empty sets: nothing tells them apart). */
function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/** How alike two behaviours are, 0 to 1. */
export function behaviourScore(a: BehaviourSignature, b: BehaviourSignature): number {
  // The effects as a set as well as in order: a check moved one step later is the same effect.
  const effects =
    (sequenceSimilarity(a.effects, b.effects) + overlap(new Set(a.effects), new Set(b.effects))) / 2;
  // The last action is the behaviour's own (what came before it mostly sets the page up: adding the
  // note a deletion then deletes), so it weighs more than the rest of the sequence.
  const last = (a.actions.at(-1) ?? '') === (b.actions.at(-1) ?? '') ? 1 : 0;
  const actions = 0.3 * sequenceSimilarity(a.actions, b.actions) + 0.7 * last;
  return (
    WEIGHTS.actions * actions +
    WEIGHTS.effects * effects +
    WEIGHTS.start * (a.start === b.start ? 1 : 0) +
    WEIGHTS.names * overlap(a.names, b.names)
  );
}

/** A saved case's place in the suite and whether it was edited by hand since it was generated. */
export interface SavedCase {
  testCase: TestCase;
  curated: boolean;
}

/** The behaviour in words: the case's name (the generated one's when both are there). */
function behaviourOf(testCase: TestCase): string {
  const name = testCase.test_name?.trim();
  if (name && name !== 'Untitled test') return name;
  return testCase.description.split(/(?<=\.)\s/)[0]?.trim() || 'A test case';
}

/** Pairs (saved index, generated index) taken best first, each case once, above the threshold. */
export function matchPairs(
  saved: BehaviourSignature[],
  generated: BehaviourSignature[],
  threshold = MATCH_THRESHOLD,
): Map<number, number> {
  const scored: { s: number; g: number; score: number }[] = [];
  saved.forEach((a, s) => {
    generated.forEach((b, g) => {
      const score = behaviourScore(a, b);
      if (score >= threshold) scored.push({ s, g, score });
    });
  });
  // Best first; ties by place, so the same suites always match the same way.
  scored.sort((x, y) => y.score - x.score || x.s - y.s || x.g - y.g);
  const pairs = new Map<number, number>();
  const taken = new Set<number>();
  for (const { s, g } of scored) {
    if (pairs.has(s) || taken.has(g)) continue;
    pairs.set(s, g);
    taken.add(g);
  }
  return pairs;
}

const same = (a: string[], b: string[]) =>
  a.length === b.length && a.every((line, index) => line === b[index]);

/**
 * The comparison's changes: each saved case in its place (unchanged, changed or removed), then each
 * generated case no saved one matched (added). Keys are `s<index>` for a saved case's place and
 * `g<index>` for an added case's place among the generated ones.
 */
export function compareSuites(saved: SavedCase[], generated: TestCase[]): SuiteCaseChange[] {
  const pairs = matchPairs(
    saved.map((one) => signatureOf(one.testCase)),
    generated.map(signatureOf),
  );
  const changes: SuiteCaseChange[] = saved.map(({ testCase, curated }, index) => {
    const g = pairs.get(index);
    const base = { saved: testCase, saved_index: index, curated };
    if (g === undefined) {
      return {
        key: `s${index}`,
        kind: 'removed',
        behaviour: behaviourOf(testCase),
        ...base,
        generated: null,
        diff: [],
      };
    }
    const match = generated[g];
    const unchanged = same(normalisedSteps(testCase.steps), normalisedSteps(match.steps));
    return {
      key: `s${index}`,
      kind: unchanged ? 'unchanged' : 'changed',
      behaviour: behaviourOf(match),
      ...base,
      generated: match,
      diff: unchanged ? [] : diffSteps(testCase.steps, match.steps),
    };
  });
  const matched = new Set(pairs.values());
  generated.forEach((testCase, g) => {
    if (matched.has(g)) return;
    changes.push({
      key: `g${g}`,
      kind: 'added',
      behaviour: behaviourOf(testCase),
      saved: null,
      saved_index: null,
      generated: testCase,
      diff: [],
      curated: false,
    });
  });
  return changes;
}

/** How many changes of each kind. */
export function countChanges(changes: Pick<SuiteCaseChange, 'kind'>[]) {
  const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  for (const change of changes) counts[change.kind]++;
  return counts;
}
