import { randomUUID } from 'node:crypto';
import type { Database, Drizzle } from './database';
import {
  comparisons,
  conversations,
  environments,
  modelUsage,
  projects,
  savedSuites,
  savedSuiteVersions,
  testResults,
  testRuns,
} from './schema';

// A generated history for one user (docs/HISTORY.md#a-generated-history): saved suites with versions,
// tens of thousands of runs spread over weeks on two environments, their case results with steps
// (some cases failing for a stretch, some flipping, some passing on a retry), model usage on the runs
// the model engine ran, design comparisons and conversations. `npm run seed:history` writes it into a
// server's database; `bench/history.bench.ts` times the history and analytics queries over it.

export interface HistorySeedOptions {
  /** @default 20_000 */
  runs?: number;
  /** The runs are spread over this many days, ending now. @default 60 */
  days?: number;
  /** @default 8 */
  suites?: number;
  /** @default 6 */
  casesPerSuite?: number;
  /** @default 400 */
  comparisons?: number;
  /** @default 200 */
  conversations?: number;
  /** Same seed, same history. @default 1 */
  seed?: number;
  /** The end of the spread. @default now */
  now?: Date;
}

export interface HistorySeedReport {
  project_id: string;
  suite_ids: string[];
  runs: number;
  results: number;
  model_calls: number;
  comparisons: number;
  conversations: number;
  milliseconds: number;
}

/** mulberry32: a small deterministic generator, so two seeded databases hold the same history. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const STEP_TEMPLATES = [
  'Navigate to /{page}',
  'Click button "{action}"',
  'Fill "{field}" with "{value}"',
  'Verify text "{text}" is visible',
];
const PAGES = ['cart', 'checkout', 'account', 'search', 'orders', 'settings', 'inbox', 'reports'];
const BATCH = 500;

/** What every part of the seed shares: its sizes, its period and its random numbers, in one order. */
interface SeedPlan {
  userId: string;
  runCount: number;
  days: number;
  now: number;
  periodStart: number;
  random: () => number;
  pick: <T>(xs: readonly T[]) => T;
}

type SeedEnvironment = { id: string; name: string; base_url: string };
type SeedCase = ReturnType<typeof casesOf>[number];
type SeedSuite = ReturnType<typeof suitesOf>[number];

/** Writes a generated history for `userId` (who must exist) and says what it wrote. */
export async function seedHistory(
  db: Database,
  userId: string,
  options: HistorySeedOptions = {},
): Promise<HistorySeedReport> {
  const started = Date.now();
  const runCount = options.runs ?? 20_000;
  const days = options.days ?? 60;
  const suiteCount = options.suites ?? 8;
  const casesPerSuite = options.casesPerSuite ?? 6;
  const now = (options.now ?? new Date()).getTime();
  const random = generator(options.seed ?? 1);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const plan: SeedPlan = { userId, runCount, days, now, periodStart: now - days * 86_400_000, random, pick };
  const { orm } = db;

  const { projectId, envs } = await seedProject(orm, plan);
  const suites = suitesOf(suiteCount, casesPerSuite);
  await seedSuites(orm, plan, projectId, suites);
  const { results, modelCalls } = await seedRuns(orm, plan, projectId, envs, suites);
  const comparisonCount = options.comparisons ?? 400;
  const conversationCount = options.conversations ?? 200;
  await seedComparisonsAndConversations(orm, plan, comparisonCount, conversationCount);

  return {
    project_id: projectId,
    suite_ids: suites.map((s) => s.id),
    runs: runCount,
    results,
    model_calls: modelCalls,
    comparisons: comparisonCount,
    conversations: conversationCount,
    milliseconds: Date.now() - started,
  };
}

/** The project and its two environments, made just before the period. */
async function seedProject(orm: Drizzle, { userId, days, now }: SeedPlan) {
  const projectId = randomUUID();
  await orm
    .insert(projects)
    .values({ id: projectId, user_id: userId, name: 'Storefront (seeded)', kind: 'web' });
  const envs: SeedEnvironment[] = [
    { id: randomUUID(), name: 'staging', base_url: 'https://staging.shop.example' },
    { id: randomUUID(), name: 'production', base_url: 'https://shop.example' },
  ];
  await orm.insert(environments).values(
    envs.map((environment, index) => ({
      ...environment,
      project_id: projectId,
      user_id: userId,
      is_default: index === 0,
      created_at: new Date(now - days * 86_400_000 - 1000 + index),
    })),
  );
  return { projectId, envs };
}

/** A suite's cases, one page's flows. */
function casesOf(page: string, casesPerSuite: number) {
  return Array.from({ length: casesPerSuite }, (_, c) => ({
    test_name: `${page[0].toUpperCase()}${page.slice(1)} case ${c + 1}`,
    description: `Checks ${page} behaviour ${c + 1}`,
    steps: STEP_TEMPLATES.map((template) =>
      template
        .replace('{page}', page)
        .replace('{action}', `Action ${c + 1}`)
        .replace('{field}', `Field ${c + 1}`)
        .replace('{value}', `value ${c + 1}`)
        .replace('{text}', `Done ${c + 1}`),
    ),
    category: 'Functional',
    priority: 'medium',
    expected_result: `Done ${c + 1}`,
  }));
}

// Each suite: its cases, three versions over the period (the second changes one case's steps),
// and per case a failure rate; one case flips often, one passes on a retry now and then.
function suitesOf(suiteCount: number, casesPerSuite: number) {
  return Array.from({ length: suiteCount }, (_, s) => {
    const page = PAGES[s % PAGES.length];
    const cases = casesOf(page, casesPerSuite);
    return {
      id: randomUUID(),
      name: `${page[0].toUpperCase()}${page.slice(1)} flows`,
      cases,
      failRate: cases.map((_, c) => (c === 0 ? 0.35 : c === 1 ? 0.05 : 0.01)),
      retriedRate: cases.map((_, c) => (c === 2 ? 0.08 : 0)),
    };
  });
}

async function seedSuites(
  orm: Drizzle,
  { userId, days, periodStart }: SeedPlan,
  projectId: string,
  suites: SeedSuite[],
) {
  for (const suite of suites) {
    await orm.insert(savedSuites).values({
      id: suite.id,
      project_id: projectId,
      user_id: userId,
      name: suite.name,
      version: 3,
      test_cases: suite.cases,
      retries: 1,
      created_at: new Date(periodStart),
      updated_at: new Date(periodStart + (2 * days * 86_400_000) / 3),
    });
    await orm.insert(savedSuiteVersions).values(
      [1, 2, 3].map((version) => ({
        suite_id: suite.id,
        version,
        test_cases:
          version === 1
            ? suite.cases.map((c, i) => (i === 1 ? { ...c, steps: c.steps.slice(0, 3) } : c))
            : suite.cases,
        saved_by: 'seed',
        change: version === 1 ? 'Created' : version === 2 ? 'Changed 1 case' : 'Renamed nothing',
        saved_at: new Date(periodStart + ((version - 1) * days * 86_400_000) / 3),
      })),
    );
  }
}

/** The runs, BATCH at a time, each batch's runs, results and model usage in one transaction. */
async function seedRuns(
  orm: Drizzle,
  plan: SeedPlan,
  projectId: string,
  envs: SeedEnvironment[],
  suites: SeedSuite[],
): Promise<{ results: number; modelCalls: number }> {
  const { runCount } = plan;
  let results = 0;
  let modelCalls = 0;
  for (let offset = 0; offset < runCount; offset += BATCH) {
    const runRows: (typeof testRuns.$inferInsert)[] = [];
    const resultRows: (typeof testResults.$inferInsert)[] = [];
    const usageRows: (typeof modelUsage.$inferInsert)[] = [];
    for (let i = offset; i < Math.min(runCount, offset + BATCH); i++) {
      const run = runOf(plan, i, projectId, envs, suites);
      runRows.push(run.run);
      resultRows.push(...run.results);
      results += run.results.length;
      if (run.usage) {
        modelCalls++;
        usageRows.push(run.usage);
      }
    }
    await orm.transaction(async (tx) => {
      await tx.insert(testRuns).values(runRows);
      for (let r = 0; r < resultRows.length; r += 1000)
        await tx.insert(testResults).values(resultRows.slice(r, r + 1000));
      if (usageRows.length > 0) await tx.insert(modelUsage).values(usageRows);
    });
  }
  return { results, modelCalls };
}

/** Run `i` of the period: its row, its case results and, when the model engine ran it, its model usage. */
function runOf(plan: SeedPlan, i: number, projectId: string, envs: SeedEnvironment[], suites: SeedSuite[]) {
  const { userId, runCount, days, now, periodStart, random, pick } = plan;
  const created = new Date(periodStart + ((i + random() * 0.5) / runCount) * days * 86_400_000);
  const suite = suites[i % suites.length];
  const environment = i % 5 === 0 ? envs[1] : envs[0];
  const version =
    created.getTime() < periodStart + (days * 86_400_000) / 3
      ? 1
      : created.getTime() < periodStart + (2 * days * 86_400_000) / 3
        ? 2
        : 3;
  const llm = random() < 0.15;
  const interrupted = random() < 0.005;
  const id = randomUUID();
  // A stretch of days where the second case of the first suite is broken: a regression and its fix.
  const broken =
    suite === suites[0] &&
    created.getTime() > now - 10 * 86_400_000 &&
    created.getTime() < now - 7 * 86_400_000;
  const cases = caseResultsOf(plan, { id, created, suite, llm, broken });
  const { passed, failed, flaky, duration } = cases;
  const cost = llm ? Math.round((0.002 + random() * 0.01) * 10_000) / 10_000 : 0;
  const run: typeof testRuns.$inferInsert = {
    id,
    user_id: userId,
    url: environment.base_url,
    target_url: environment.base_url,
    test_suite_name: `${suite.name} (v${version}) on ${environment.name}`,
    test_mode: 'full',
    engine: llm ? 'openai/gpt-4o-mini' : 'built-in',
    test_cases: suite.cases,
    status: interrupted ? 'interrupted' : 'completed',
    started_at: created,
    completed_at: new Date(created.getTime() + Math.round(duration * 1000)),
    execution_time_seconds: Math.round(duration * 100) / 100,
    total_tests: suite.cases.length,
    passed_tests: passed,
    failed_tests: failed,
    flaky_tests: flaky,
    model_calls: llm ? suite.cases.length : 0,
    input_tokens: llm ? 1200 * suite.cases.length : 0,
    output_tokens: llm ? 150 * suite.cases.length : 0,
    cost_usd: cost,
    project_id: projectId,
    environment_id: environment.id,
    environment_name: environment.name,
    suite_id: suite.id,
    suite_version: version,
    trigger: pick(['screen', 'api', 'schedule', 'schedule'] as const),
    created_at: created,
    updated_at: created,
  };
  const usage: typeof modelUsage.$inferInsert | undefined = llm
    ? {
        id: randomUUID(),
        user_id: userId,
        kind: 'step',
        test_run_id: id,
        provider: 'openai',
        model: 'gpt-4o-mini',
        input_tokens: 1200 * suite.cases.length,
        output_tokens: 150 * suite.cases.length,
        cost_usd: cost,
        created_at: created,
      }
    : undefined;
  return { run, results: cases.rows, usage };
}

/** One run's case results, in case order, and what they add up to. */
function caseResultsOf(
  { userId, random }: SeedPlan,
  run: { id: string; created: Date; suite: SeedSuite; llm: boolean; broken: boolean },
) {
  const { id, created, suite, llm, broken } = run;
  const rows: (typeof testResults.$inferInsert)[] = [];
  let passed = 0;
  let failed = 0;
  let flaky = 0;
  let duration = 0;
  suite.cases.forEach((testCase: SeedCase, c) => {
    const time = 1 + c * 0.4 + random() * 2 + (llm ? 3 : 0);
    duration += time;
    const fails = broken && c === 1 ? true : random() < suite.failRate[c];
    const retried = !fails && random() < suite.retriedRate[c];
    const status = fails ? 'failed' : retried ? 'flaky' : 'passed';
    if (status === 'failed') failed++;
    else if (status === 'flaky') flaky++;
    else passed++;
    const failAt = fails ? 1 + Math.floor(random() * (testCase.steps.length - 1)) : -1;
    rows.push({
      id: randomUUID(),
      test_run_id: id,
      user_id: userId,
      test_case_id: `${suite.id}:${c}`,
      test_case_name: testCase.test_name,
      status,
      execution_time: Math.round(time * 100) / 100,
      error_message: fails
        ? `Step ${failAt + 1} failed: ${testCase.steps[failAt]} (timed out after ${5000 + c} ms)`
        : null,
      attempts: status === 'flaky' ? 2 : status === 'failed' ? 2 : 1,
      steps: testCase.steps.map((step, s) => ({
        step_number: s + 1,
        action: step,
        description: step,
        status: s === failAt ? 'error' : failAt >= 0 && s > failAt ? 'pending' : 'success',
        error: s === failAt ? 'Timed out' : null,
        timestamp: created.toISOString(),
      })),
      logs: [],
      screenshots: [],
      created_at: new Date(created.getTime() + Math.round(duration * 1000)),
    });
  });
  return { rows, passed, failed, flaky, duration };
}

/** Design comparisons, then conversations, spread over the period (after every run's random numbers). */
async function seedComparisonsAndConversations(
  orm: Drizzle,
  { userId, days, periodStart, random, pick }: SeedPlan,
  comparisonCount: number,
  conversationCount: number,
) {
  const sites = ['https://shop.example', 'https://staging.shop.example', 'https://blog.example'];
  const comparisonRows = Array.from({ length: comparisonCount }, (_, i) => {
    const created = new Date(periodStart + ((i + random()) / comparisonCount) * days * 86_400_000);
    const score = Math.round((70 + 25 * Math.sin(i / 40) * 0.5 + random() * 10) * 10) / 10;
    return {
      id: randomUUID(),
      user_id: userId,
      comparison_type: 'image',
      website_url: `${sites[i % sites.length]}/`,
      results: { overall_similarity: score, specific_issues: [], recommendations: [] },
      created_at: created,
    };
  });
  for (let c = 0; c < comparisonRows.length; c += BATCH)
    await orm.insert(comparisons).values(comparisonRows.slice(c, c + BATCH));

  const conversationRows = Array.from({ length: conversationCount }, (_, i) => {
    const created = new Date(periodStart + ((i + random()) / conversationCount) * days * 86_400_000);
    return {
      id: randomUUID(),
      user_id: userId,
      title: `Check the ${pick(PAGES)} page`,
      url: `${pick(sites)}/`,
      created_at: created,
      updated_at: created,
    };
  });
  for (let c = 0; c < conversationRows.length; c += BATCH)
    await orm.insert(conversations).values(conversationRows.slice(c, c + BATCH));
}
