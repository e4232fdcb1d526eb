import { z } from 'zod';
import { HttpUrlOrEmptySchema, HttpUrlSchema, SessionIdSchema, TimestampSchema } from './common';
import {
  CaseArtifactSchema,
  CaseFailureSchema,
  DiagnosticsSummarySchema,
  FailureSightingsSchema,
} from './diagnostics';
import { ModelUsageSchema } from './models';
import { SuiteCheckSchema } from './suite-check';

export const TestModeSchema = z.enum(['full', 'command']);
export type TestMode = z.infer<typeof TestModeSchema>;

export const PrioritySchema = z.enum(['critical', 'high', 'medium', 'low']);
export type Priority = z.infer<typeof PrioritySchema>;

/**
 * A test case as docs/PRODUCT.md#test-cases names it. The aliases `testName`/`name` and `expectedResults` are
 * accepted on input and folded into `test_name` / `expected_result`.
 */
export const TestCaseSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String).optional(),
    test_name: z.string().max(500).optional(),
    testName: z.string().max(500).optional(),
    name: z.string().max(500).optional(),
    description: z.string().max(10_000).default(''),
    steps: z.array(z.string().max(4000)).max(500).default([]),
    category: z.string().max(200).default('General'),
    priority: z.string().max(50).default('medium'),
    expected_result: z.string().max(10_000).optional(),
    expectedResults: z.string().max(10_000).optional(),
    /** The page the case starts on; empty (or absent) means its run's URL, as the runner reads it. */
    url: HttpUrlOrEmptySchema.optional(),
    command: z.string().max(4000).optional(),
  })
  .transform(({ testName, name, expectedResults, ...rest }) => ({
    ...rest,
    test_name: rest.test_name ?? testName ?? name ?? 'Untitled test',
    expected_result: rest.expected_result ?? expectedResults ?? '',
  }));
export type TestCase = z.output<typeof TestCaseSchema>;

/** docs/PRODUCT.md#test-cases: a `test_cases` value that is not a list is wrapped if an object, otherwise emptied. */
export const TestCaseListSchema = z.preprocess(
  (value) => (Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : []),
  z.array(TestCaseSchema).max(1000),
);

export const StepStatusSchema = z.enum(['success', 'error', 'pending']);
export type StepStatus = z.infer<typeof StepStatusSchema>;

export const StepScreenshotSchema = z.object({
  base64_data: z.string().optional(),
  data: z.string().optional(),
  image_data: z.string().optional(),
  width: z.number().int().nonnegative().optional(),
  height: z.number().int().nonnegative().optional(),
});

/**
 * The stable attributes of the element a step acted on (its `id`, form field `name`, `data-testid`),
 * when it has any: what a repair recognises the element by after a redesign renamed its label
 * (docs/REPAIRS.md#the-element-a-step-acted-on).
 */
export const ElementKeySchema = z.object({
  id: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
  testid: z.string().max(200).optional(),
  /** A link's path, query and fragment on the same site, when it holds no digit. */
  href: z.string().max(200).optional(),
  /** A submit button's form: its method and address on the same site (`post /mark-all-paid`), digit-free. */
  action: z.string().max(210).optional(),
  /** The landmark it sits in (`navigation`, `main`…), kept only beside another attribute. */
  landmark: z.string().max(40).optional(),
});
export type ElementKey = z.infer<typeof ElementKeySchema>;

/** A step update (docs/PRODUCT.md#step-log). */
export const StepUpdateSchema = z.object({
  step_number: z.number().int().nonnegative(),
  action: z.string(),
  url: z.string().nullable().optional(),
  selector: z.string().nullable().optional(),
  /** The element the step acted on, by its stable attributes (none: the step named no element, or it has none). */
  element: ElementKeySchema.optional(),
  value: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  status: StepStatusSchema,
  timestamp: TimestampSchema,
  thoughts: z.object({ next_goal: z.string().optional() }).optional(),
  description: z.string().optional(),
  step_index: z.number().int().nonnegative().optional(),
  screenshot: StepScreenshotSchema.nullable().optional(),
  /** Which engine carried the step out: 'built-in' for step-language lines, the LLM engine's name otherwise. */
  engine: z.string().optional(),
  /** How an LLM-interpreted step was resolved: by the model now, from the cache, or healed (cache broke). */
  resolved_by: z.enum(['model', 'cache', 'healed']).optional(),
  /** Model calls the step made. */
  usage: ModelUsageSchema.optional(),
});
export type StepUpdate = z.infer<typeof StepUpdateSchema>;

export const TestResultStatusSchema = z.enum(['passed', 'failed', 'running', 'pending']);
export type TestResultStatus = z.infer<typeof TestResultStatusSchema>;

export const TestResultSchema = z.object({
  status: TestResultStatusSchema,
  test_case: z.object({
    id: z.string().optional(),
    test_name: z.string(),
    description: z.string().optional(),
  }),
  execution_time: z.number().nonnegative(),
  error: z.string().nullable().optional(),
  screenshots: z.array(z.unknown()).default([]),
  logs: z.array(z.unknown()).default([]),
});
export type TestResult = z.infer<typeof TestResultSchema>;

export const TestRunStatusSchema = z.enum([
  'pending',
  'running',
  'completed',
  'failed',
  'error',
  'interrupted',
]);
export type TestRunStatus = z.infer<typeof TestRunStatusSchema>;

export const ExecutionLogEntrySchema = z.object({
  timestamp: TimestampSchema,
  level: z.string().max(20),
  message: z.string().max(10_000),
});

export const TestRunCreateSchema = z.object({
  session_id: z.string().max(100).nullable().optional(),
  url: HttpUrlSchema,
  target_url: HttpUrlSchema.optional(),
  test_suite_name: z.string().max(500).optional(),
  test_cases: TestCaseListSchema.optional(),
  status: TestRunStatusSchema.optional(),
});

export const TestRunUpdateSchema = z.object({
  status: TestRunStatusSchema.optional(),
  completed_at: TimestampSchema.nullable().optional(),
  execution_time_seconds: z.number().nonnegative().optional(),
  total_tests: z.number().int().nonnegative().optional(),
  passed_tests: z.number().int().nonnegative().optional(),
  failed_tests: z.number().int().nonnegative().optional(),
  /** Replaces the run's results; the counts follow unless passed_tests / failed_tests are given. */
  test_results: z.array(TestResultSchema).max(10_000).optional(),
  execution_log: z.array(ExecutionLogEntrySchema).optional(),
});

/** A test run (docs/PRODUCT.md#results-and-export), as the server answers it (URLs unchecked: rows stored before the URL rule still load). */
export const TestRunSchema = z.object({
  id: z.string(),
  session_id: z.string().nullable(),
  user_id: z.string(),
  url: z.string(),
  target_url: z.string().nullable(),
  test_suite_name: z.string().nullable(),
  test_cases: z.array(z.unknown()),
  status: TestRunStatusSchema,
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  execution_time_seconds: z.number().nullable(),
  total_tests: z.number(),
  passed_tests: z.number(),
  failed_tests: z.number(),
  /** Cases that passed only on a retry (not counted in passed_tests). */
  flaky_tests: z.number().default(0),
  test_results: z.array(z.unknown()),
  screenshots_paths: z.array(z.string()),
  execution_log: z.array(ExecutionLogEntrySchema),
});
export type TestRun = z.infer<typeof TestRunSchema>;

/** One test's stored outcome inside a test run answer (rows written by the server or posted by a client). */
export const StoredTestResultSchema = z.object({
  id: z.string(),
  test_case_id: z.string().nullable(),
  test_case_name: z.string(),
  status: z.string(),
  /** Seconds. */
  execution_time: z.number().nullable(),
  error_message: z.string().nullable(),
  /** 1 + the retries the case used; a case that passed on a retry has status `flaky`. */
  attempts: z.number().int().default(1),
  steps: z.array(z.unknown()),
  logs: z.array(z.unknown()),
  screenshots: z.array(z.unknown()),
  /** Why it failed, labelled with its evidence (docs/DIAGNOSTICS.md); null when it passed. */
  failure: CaseFailureSchema.nullable().default(null),
  /** The same failure in other runs of the project; null without a failure or a project. */
  seen: FailureSightingsSchema.nullable().default(null),
  /** Its kept traces and video, each with a signed link. */
  artifacts: z.array(CaseArtifactSchema).default([]),
  /** Counts of its console and network entries; null when none were recorded. */
  diagnostics: DiagnosticsSummarySchema.nullable().default(null),
  created_at: z.string(),
});
export type StoredTestResult = z.infer<typeof StoredTestResultSchema>;

/**
 * What `GET /api/automation/test-runs` (each item) and `GET|PUT /api/automation/test-runs/{id}` answer:
 * The test run of docs/PRODUCT.md#results-and-export, with its stored results, signed links to its screenshots (`screenshots_paths`),
 * and what the server adds (which engine wrote the cases, the mode and command, when it was created).
 */
export const TestRunDetailSchema = TestRunSchema.extend({
  test_results: z.array(StoredTestResultSchema),
  engine: z.string().nullable(),
  test_mode: z.string().nullable(),
  command: z.string().nullable(),
  created_at: z.string(),
  /** Model calls of the last run (free-form steps and judged results); zero for the built-in engine. */
  usage: ModelUsageSchema,
});
export type TestRunDetail = z.infer<typeof TestRunDetailSchema>;
export const TestRunListSchema = z.array(TestRunDetailSchema);

/** `GET /api/automation/test-runs` query: newest first, a page at a time. */
export const TestRunListQuerySchema = z.object({
  session_id: z.string().max(100).optional(),
  status: TestRunStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TestRunListQuery = z.input<typeof TestRunListQuerySchema>;

/** A test result record sent to the server (docs/PRODUCT.md#results-and-export). */
export const TestResultRecordSchema = z.object({
  test_run_id: z.string().max(100),
  test_case_name: z.string().max(500),
  status: TestResultStatusSchema,
  execution_time: z.number().nonnegative().optional(),
  error_message: z.string().max(20_000).nullable().optional(),
  screenshots: z.array(z.unknown()).optional(),
  logs: z.array(z.unknown()).optional(),
});
export type TestResultRecord = z.infer<typeof TestResultRecordSchema>;

// ---- socket payloads: the `data` of automation's messages (ws.ts wraps them in the envelope) ----------

export const GenerateTestCasesDataSchema = z.object({
  url: HttpUrlSchema,
  session_id: SessionIdSchema.nullable().optional(),
  /** Start from a project's environment: its login runs first, its variables fill `{{NAME}}`. */
  project_id: z.string().max(100).nullable().optional(),
  environment_id: z.string().max(100).nullable().optional(),
});
export const CommandGenerateTestCasesDataSchema = z.object({
  url: HttpUrlSchema,
  command: z.string().trim().min(1).max(4000),
  session_id: SessionIdSchema.nullable().optional(),
  /** Start from a project's environment: its login runs first, its variables fill `{{NAME}}`. */
  project_id: z.string().max(100).nullable().optional(),
  environment_id: z.string().max(100).nullable().optional(),
});
/** The most retries a case may get: a saved suite's, or a run's from the Automation screen (docs/HISTORY.md#retries). */
export const SUITE_MAX_RETRIES = 5;
/** How many times a failed case runs again; one that then passes is recorded flaky. Not in the spec. */
const RetriesSchema = z.number().int().min(0).max(SUITE_MAX_RETRIES).optional();
export const RunAllTestsDataSchema = z.object({
  url: HttpUrlSchema,
  test_cases: TestCaseListSchema,
  test_mode: TestModeSchema.default('full'),
  command: z.string().max(4000).nullable().optional(),
  session_id: SessionIdSchema.nullable().optional(),
  test_run_id: z.string().max(100).nullable().optional(),
  /** Start from a project's environment: its login runs first, its variables fill `{{NAME}}`. */
  project_id: z.string().max(100).nullable().optional(),
  environment_id: z.string().max(100).nullable().optional(),
  retries: RetriesSchema,
});
export const RunSingleTestDataSchema = z.object({
  url: HttpUrlSchema,
  test_case: TestCaseSchema,
  test_mode: TestModeSchema.default('full'),
  command: z.string().max(4000).nullable().optional(),
  session_id: SessionIdSchema.nullable().optional(),
  test_run_id: z.string().max(100).nullable().optional(),
  /** Start from a project's environment: its login runs first, its variables fill `{{NAME}}`. */
  project_id: z.string().max(100).nullable().optional(),
  environment_id: z.string().max(100).nullable().optional(),
  retries: RetriesSchema,
});
export const StopExecutionDataSchema = z.object({
  stopId: z.string().max(100).optional(),
  force: z.boolean().default(false),
  session_id: SessionIdSchema.nullable().optional(),
  user_id: z.string().max(100).optional(),
  timestamp: TimestampSchema.optional(),
});
export const CleanupSessionDataSchema = z.object({
  session_id: SessionIdSchema.nullable().optional(),
  reason: z.string().max(200).optional(),
  timestamp: TimestampSchema.optional(),
});
/**
 * Not in the spec: the automation screen asks, once it listens, whether a generation or run of the
 * user's is already under way (after a reload, in a second tab, after a reconnect). The answer is
 * `automation_in_progress`, or nothing when the user has nothing under way.
 */
export const GetAutomationStatusDataSchema = z.object({}).passthrough().default({});
/**
 * Not in the spec: while a run executes, stream the test in focus as `video_frame`s addressed to the
 * automation session (docs/PRODUCT.md#realtime-messages lists `video_frame` among the automation messages); off by default.
 */
export const AutomationVideoDataSchema = z.object({
  session_id: SessionIdSchema.nullable().optional(),
  enabled: z.boolean(),
});

// URLs in server payloads are the server's own (checked as they came in, or links it made, some relative
// such as `/api/screenshots/…`), so they are plain strings: an answer about an older record must not fail.

export const GenerationStartedDataSchema = z.object({
  message: z.string().optional(),
  url: z.string().optional(),
});
export const ProgressUpdateDataSchema = z.object({ message: z.string() });
/**
 * Command mode: each clause of the command ("deleting it", "the All/Active/Completed filters"), with the
 * tests that cover it, or why none does. A clause nothing covers is named, never dropped.
 */
export const ClauseCoverageSchema = z.object({
  clause: z.string().max(500),
  /** Names of the suite's tests that cover it. */
  tests: z.array(z.string().max(300)).max(200),
  /** Why no test covers it (present only when `tests` is empty). */
  reason: z.string().max(2000).optional(),
});
export type ClauseCoverage = z.infer<typeof ClauseCoverageSchema>;

/**
 * What a generation explored by acting on the app, and what it left out for lack of budget (actions,
 * or time scaled to the page's measured latency): "why is there no test of X?" answered.
 */
export const ExplorationSummarySchema = z.object({
  /** Actions tried (replays not counted), against the budget. */
  actions: z.number().int().nonnegative(),
  maxActions: z.number().int().nonnegative(),
  /** App states acted in (the page as opened, with one item, two, one completed…). */
  states: z.number().int().nonnegative(),
  /** Behaviours kept (each held in every replay). */
  behaviours: z.number().int().nonnegative(),
  /** Median time to open the page in a fresh session and read it, in ms: what the time limit scales with. */
  latencyMs: z.number().nonnegative(),
  /** The time limit once scaled to that latency, and the time taken (waits in line for a browser left out). */
  timeLimitMs: z.number().nonnegative(),
  elapsedMs: z.number().nonnegative(),
  /** Why it ended: everything was tried, the action budget or the time limit ran out, or it was stopped. */
  ended: z.enum(['complete', 'actions', 'time', 'stopped']),
  /** What was not tried because the budget ran out, in words (the first 20). */
  skipped: z.array(z.string().max(500)).max(20),
  /** How the cases written from it were checked, and which were dropped (absent when not checked). */
  checked: SuiteCheckSchema.optional(),
});
export type ExplorationSummary = z.infer<typeof ExplorationSummarySchema>;

export const TestCasesGeneratedDataSchema = z.object({
  test_cases: z.array(TestCaseSchema),
  /** What acting on the app explored and what the budget left out (absent when nothing was acted on). */
  exploration: ExplorationSummarySchema.optional(),
  /** Command mode: what each clause of the command got. */
  command_coverage: z.array(ClauseCoverageSchema).max(50).optional(),
  /** Which engine wrote them (the built-in one says it is rule-based). */
  engine: z.string().optional(),
  /** The test run the server recorded for this suite; send it back with run_all_tests. */
  test_run_id: z.string().optional(),
  /** What writing them cost in model calls (absent for the built-in engine). */
  usage: ModelUsageSchema.optional(),
});
export const ExecutionStartedDataSchema = z.object({
  total_tests: z.number().int(),
  test_run_id: z.string().optional(),
  /** Which engine carries out the steps (the built-in one, and a model for free-form steps). */
  engine: z.string().optional(),
});
export const ExecutionStoppingDataSchema = z.object({}).passthrough().default({});

/** What automation_in_progress says of a generation and a run alike. */
const WorkUnderWaySchema = z.object({
  url: z.string(),
  test_mode: TestModeSchema,
  command: z.string().nullable(),
  session_id: z.string().nullable(),
});

/**
 * Not in the spec: the answer to get_automation_status when a generation or run of the user's is
 * under way, so a late tab (a reload, a second tab, a reconnect) shows it as if it had been there.
 */
export const AutomationInProgressSchema = z.discriminatedUnion('kind', [
  WorkUnderWaySchema.extend({ kind: z.literal('generating'), messages: z.array(z.string()) }),
  WorkUnderWaySchema.extend({
    kind: z.literal('running'),
    test_run_id: z.string(),
    test_cases: z.array(TestCaseSchema),
    total_tests: z.number().int(),
    /** Tests that have finished, in the order they finished. */
    results: z.array(
      z.object({
        test_name: z.string(),
        status: z.enum(['passed', 'failed']),
        execution_time: z.number(),
        error: z.string().nullable(),
        /** Passed only on a retry (docs/HISTORY.md#retries); `status` is then `passed`. */
        flaky: z.boolean().optional(),
        /** How many times it ran, when more than once. */
        attempts: z.number().int().optional(),
      }),
    ),
    /** Tests started and not finished yet. */
    active_tests: z.array(z.string()),
    /** Each step so far in its latest state, without its image; `screenshot_url` once it is stored. */
    steps: z
      .array(
        z.object({
          test_name: z.string(),
          step_data: StepUpdateSchema,
          screenshot_url: z.string().nullable(),
        }),
      )
      .default([]),
    /** Seconds since the run started. */
    elapsed: z.number(),
  }),
]);
export type AutomationInProgress = z.output<typeof AutomationInProgressSchema>;
export type AutomationInProgressInput = z.input<typeof AutomationInProgressSchema>;

export const TestProgressDataSchema = z.object({
  current_test: z.number().int(),
  total_tests: z.number().int(),
  test_name: z.string(),
  /**
   * On a retry (docs/HISTORY.md#retries): which attempt starts now, of how many at most. The test's
   * steps start over: the failed attempt's steps are replaced by this one's.
   */
  attempt: z.number().int().optional(),
  max_attempts: z.number().int().optional(),
});
export const StepUpdateDataSchema = z.object({
  step_data: StepUpdateSchema,
  test_name: z.string().optional(),
});
export const TestCompletedDataSchema = z.object({
  test_name: z.string(),
  result: TestResultSchema,
  /** It failed first and passed on a retry: shown and counted as flaky, not passed (docs/HISTORY.md#retries). */
  flaky: z.boolean().optional(),
  /** How many times it ran (1 + retries used), and the most it could have. */
  attempts: z.number().int().optional(),
  max_attempts: z.number().int().optional(),
});
export const TestFailedDataSchema = z.object({
  test_name: z.string(),
  error: z.string(),
  execution_time: z.number(),
  /** How many times it ran before it was given up (1 + retries). */
  attempts: z.number().int().optional(),
  screenshots: z.array(z.unknown()).default([]),
  logs: z.array(z.unknown()).default([]),
});
export const AllTestsCompletedDataSchema = z.object({
  total_tests: z.number().int(),
  /** Cases that passed at the first attempt. */
  passed: z.number().int(),
  /** Cases that passed only on a retry (not in `passed`). */
  flaky: z.number().int().optional(),
  execution_time: z.number(),
  /** Which engine carried out the steps. */
  engine: z.string().optional(),
  /** Model calls the run made (free-form steps, judged results); all zero on a cached rerun. */
  usage: ModelUsageSchema.optional(),
});
export const ExecutionStoppedDataSchema = z.object({
  execution_time: z.number(),
  /** Model calls the stopped run made before it stopped. */
  usage: ModelUsageSchema.optional(),
});
