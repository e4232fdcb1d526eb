import type { Behaviour } from '@argus/engine';
import type { ClauseCoverage, TestCase } from '@argus/protocol';
import { describeBehaviours, matchCommand, strongWords, words } from './behaviour-cases';

/** Clauses reported at most (the protocol's limit); a longer command's rest is one last entry. */
const MAX_CLAUSES = 50;
/** Behaviours named in a reason at most. */
const NAMED_IN_REASON = 8;

/**
 * What each clause of a command got in the suite: the tests written for the behaviours it matched
 * (the same matching the built-in planner chooses them by), else the tests whose own words carry most
 * of the clause's (a page or a login the rules wrote for, or a model's case); when none, why.
 */
export function commandCoverage(
  command: string,
  cases: TestCase[],
  context: { behaviours: Behaviour[]; engine: string },
): ClauseCoverage[] {
  const named = describeBehaviours(context.behaviours);
  const { clauses } = matchCommand(command, named);
  const names = new Set(cases.map((c) => c.test_name));
  const behaviourTests = new Set(named.map((n) => n.name));
  const others = cases
    .filter((c) => !behaviourTests.has(c.test_name))
    .map((c) => ({ name: c.test_name, words: new Set(words(caseText(c))) }));
  const found = [...new Set(named.map((n) => n.name))];

  const report = clauses.slice(0, MAX_CLAUSES).map(({ clause, matched }): ClauseCoverage => {
    const tests = new Set(matched.map((m) => m.name).filter((name) => names.has(name)));
    const want = strongWords(clause);
    // Most of the clause's words, and at least one: "Clear completed" is not covered by "Completing".
    const needed = Math.max(1, Math.ceil(want.length * 0.6));
    for (const other of others) {
      if (want.filter((w) => other.words.has(w)).length >= needed) tests.add(other.name);
    }
    if (tests.size > 0) return { clause, tests: [...tests] };
    return {
      clause,
      tests: [],
      reason: whyUncovered(
        found,
        context.engine,
        matched.map((m) => m.name),
      ),
    };
  });
  if (clauses.length > MAX_CLAUSES) {
    report[MAX_CLAUSES - 1] = {
      clause: clauses
        .slice(MAX_CLAUSES - 1)
        .map((c) => c.clause)
        .join(', ')
        .slice(0, 500),
      tests: [],
      reason: `Only the first ${MAX_CLAUSES - 1} clauses of a command are reported on.`,
    };
  }
  return report;
}

function caseText(c: TestCase): string {
  const steps = c.steps.map((s) => (typeof s === 'string' ? s : JSON.stringify(s)));
  return [c.test_name, c.description ?? '', ...steps].join(' ');
}

function whyUncovered(found: string[], engine: string, matched: string[]): string {
  const list = (names: string[]) => {
    const shown = names
      .slice(0, NAMED_IN_REASON)
      .map((n) => `“${n}”`)
      .join(', ');
    return names.length > NAMED_IN_REASON ? `${shown} and ${names.length - NAMED_IN_REASON} more` : shown;
  };
  if (matched.length > 0)
    return `No test covers it: the ${engine} engine found what matches it (${list(matched)}) but wrote no test for it.`;
  if (found.length === 0)
    return `No test covers it: the ${engine} engine found no behaviour on the page to match it (nothing it tried changed the page).`;
  return `No test covers it: nothing the ${engine} engine found on the page matches it (it found ${list(found)}).`;
}

/** The coverage of a suite cut down to `cases` (the run limits keep the first cases only). */
export function coverageOf(coverage: ClauseCoverage[], cases: TestCase[]): ClauseCoverage[] {
  const names = new Set(cases.map((c) => c.test_name));
  return coverage.map((entry) => {
    if (entry.tests.length === 0) return entry;
    const tests = entry.tests.filter((name) => names.has(name));
    if (tests.length > 0) return { clause: entry.clause, tests };
    return {
      clause: entry.clause,
      tests,
      reason: 'A test was written for it, but the run limits left it out.',
    };
  });
}
