/**
 * How the mutation test runs a suite: as a run does, `parallelism` cases at once, each lane signed in
 * on its own (`SignInLanes`) when the app is behind a login, so no two cases running at once share a
 * server session.
 */
import {
  accountsMode,
  runTestCase,
  type SessionOpener,
  SignInLanes,
  type SignInPlan,
  type StepVariables,
  type TestOutcome,
} from '@argus/engine';
import type { TestCase } from '@argus/protocol';

/** The sessions cases run in on one instance of an app, and whether each lane's data is its own. */
export interface AppSessions {
  opener: SessionOpener;
  /** An account per lane: the explorer may check counts against the rows they count. */
  ownData: boolean;
}

/**
 * Sessions on the app at `base`: the pool itself without a login; with one, a lane per case at once,
 * the first signed in here (a wrong password fails before any case), the others as first needed.
 */
export async function appSessions(
  pool: SessionOpener,
  base: string,
  parallelism: number,
  login?: { plan: SignInPlan; variables: StepVariables },
): Promise<AppSessions> {
  if (!login) return { opener: pool, ownData: false };
  const lanes = new SignInLanes(pool, login.plan, {
    baseUrl: base,
    variables: login.variables,
    maxLanes: parallelism,
  });
  await lanes.start();
  return { opener: lanes, ownData: accountsMode(lanes.accounts.length, parallelism).own };
}

/**
 * Runs the cases, `parallelism` at a time, without screenshots; outcomes in case order. With
 * `untilFailure`, no case is started once one of `counted` has failed (a bug is caught by its first
 * failing test; the cases not run stay undefined).
 */
export async function runSuite(
  opener: SessionOpener,
  cases: TestCase[],
  baseUrl: string,
  parallelism: number,
  untilFailure?: { counted: Set<number> },
): Promise<(TestOutcome | undefined)[]> {
  const outcomes: (TestOutcome | undefined)[] = new Array(cases.length);
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: Math.min(parallelism, cases.length) }, async () => {
      while (next < cases.length && !failed) {
        const i = next++;
        if (untilFailure && !untilFailure.counted.has(i)) continue;
        const outcome = await runTestCase(opener, cases[i], {
          baseUrl,
          screenshots: false,
          renewal: opener instanceof SignInLanes ? opener.renewal : undefined,
        });
        outcomes[i] = outcome;
        if (untilFailure && outcome.status === 'failed') failed = true;
      }
    }),
  );
  return outcomes;
}

/**
 * The cases as they would have been generated on `to` instead of `from` (both origins): a generated
 * case names its start page and may navigate to or check absolute URLs. Only the origin changes, so
 * every step still does on another instance what it did on the one it was generated on.
 */
export function rebaseCases(cases: TestCase[], from: string, to: string): TestCase[] {
  const [fromHost, toHost] = [new URL(from).host, new URL(to).host];
  const text = JSON.stringify(cases).split(fromHost).join(toHost);
  return JSON.parse(text) as TestCase[];
}
