import { z } from 'zod';

/**
 * Why a case failed, and what it left behind to show it (docs/DIAGNOSTICS.md): its Playwright trace,
 * its console and network, an optional video, a label with its evidence, and a fingerprint that
 * recognises the same failure across cases and runs. Declared once here; the engine, the server, the
 * CLI and the screens all read these.
 */

/**
 * Which cases keep their Playwright trace: `on-failure` (failed and flaky cases keep theirs, the rest
 * are dropped at once), `always`, or `off` (not recorded at all).
 */
export const TRACE_POLICIES = ['on-failure', 'always', 'off'] as const;
export const TracePolicySchema = z.enum(TRACE_POLICIES);
export type TracePolicy = z.infer<typeof TracePolicySchema>;
export const DEFAULT_TRACE_POLICY: TracePolicy = 'on-failure';

/** How a case's run is recorded: a saved suite's setting, the defaults for an ad-hoc run. */
export const RecordingSettingsSchema = z.object({
  trace: TracePolicySchema.default(DEFAULT_TRACE_POLICY),
  /** A video of each failed case (Playwright's `recordVideo`); off by default. */
  video: z.boolean().default(false),
});
export type RecordingSettings = z.infer<typeof RecordingSettingsSchema>;
export const DEFAULT_RECORDING: RecordingSettings = { trace: DEFAULT_TRACE_POLICY, video: false };

/**
 * What kind of failure it is, judged from its evidence:
 * - `app_error`: a request of the failing step answered 5xx, or the page threw;
 * - `assertion`: the page answered, the expected state did not hold;
 * - `not_found`: the target is not on the page (the app changed, or the test is wrong);
 * - `timing`: it passed on a retry, or the target appeared after the timeout;
 * - `environment`: the site could not be reached, or signing in failed.
 */
export const FAILURE_KINDS = ['app_error', 'assertion', 'not_found', 'timing', 'environment'] as const;
export const FailureKindSchema = z.enum(FAILURE_KINDS);
export type FailureKind = z.infer<typeof FailureKindSchema>;

/** The words a label is shown with (the case view, the JUnit message's first line). */
export const FAILURE_KIND_LABELS: Record<FailureKind, string> = {
  app_error: 'App error',
  assertion: 'Assertion',
  not_found: 'Not found',
  timing: 'Timing',
  environment: 'Environment',
};

export const CaseFailureSchema = z.object({
  kind: FailureKindSchema,
  /** The evidence in a sentence: 'POST /api/orders answered 500 during step 4'. */
  evidence: z.string().max(2_000),
  /**
   * The same failure's key across cases and runs of a project: the failing step's verb and target and
   * the error with numbers, ids, quoted values and URL queries folded (hex, 16 characters).
   */
  fingerprint: z.string().regex(/^[0-9a-f]{16}$/),
  /** The failing step (0-based, as in `steps`), when one step failed. */
  step_index: z.number().int().min(0).nullable(),
});
export type CaseFailure = z.infer<typeof CaseFailureSchema>;

export const CONSOLE_LEVELS = ['debug', 'log', 'info', 'warning', 'error', 'pageerror'] as const;
export const ConsoleLevelSchema = z.enum(CONSOLE_LEVELS);
export type ConsoleLevel = z.infer<typeof ConsoleLevelSchema>;

/** One console message, or an uncaught page error (`pageerror`), of a case. */
export const ConsoleEntrySchema = z.object({
  /** Milliseconds since the case got its browser. */
  at_ms: z.number().min(0),
  /** The step running when it was logged (0-based, as in `steps`); null before the first. */
  step_index: z.number().int().min(0).nullable(),
  level: ConsoleLevelSchema,
  /** Secrets replaced by `{{NAME}}`. */
  text: z.string(),
  /** `url:line:column` of the script that logged it, when known. */
  location: z.string().nullable(),
});
export type ConsoleEntry = z.infer<typeof ConsoleEntrySchema>;

/** One request of a case. Bodies are not kept; headers carrying credentials read `[redacted]`. */
export const NetworkEntrySchema = z.object({
  at_ms: z.number().min(0),
  step_index: z.number().int().min(0).nullable(),
  method: z.string(),
  /** Secrets replaced by `{{NAME}}`. */
  url: z.string(),
  /** Null when no answer came (see `failure`). */
  status: z.number().int().nullable(),
  /** Playwright's resource type: document, xhr, fetch, script, stylesheet, image… */
  resource_type: z.string(),
  /** From the request to the end of the answer; null when it never ended. */
  duration_ms: z.number().min(0).nullable(),
  request_bytes: z.number().int().min(0),
  response_bytes: z.number().int().min(0).nullable(),
  /** Why the request failed (net::ERR_…), or null. */
  failure: z.string().nullable(),
  request_headers: z.record(z.string(), z.string()),
  response_headers: z.record(z.string(), z.string()),
});
export type NetworkEntry = z.infer<typeof NetworkEntrySchema>;

/** Most entries kept per case: a page that polls forever must not fill the disk. */
export const MAX_CONSOLE_ENTRIES = 2_000;
export const MAX_NETWORK_ENTRIES = 2_000;

/** A case's console and network (`GET /api/runs/{id}/cases/{result}/diagnostics`). */
export const CaseDiagnosticsSchema = z.object({
  console: z.array(ConsoleEntrySchema).max(MAX_CONSOLE_ENTRIES),
  network: z.array(NetworkEntrySchema).max(MAX_NETWORK_ENTRIES),
  /** Entries beyond the caps were dropped (the newest kept). */
  truncated: z.boolean(),
});
export type CaseDiagnostics = z.infer<typeof CaseDiagnosticsSchema>;

/** What a case's row says of its diagnostics without loading them. */
export const DiagnosticsSummarySchema = z.object({
  console: z.number().int().min(0),
  console_errors: z.number().int().min(0),
  requests: z.number().int().min(0),
  /** Requests that failed or answered ≥ 400. */
  failed_requests: z.number().int().min(0),
});
export type DiagnosticsSummary = z.infer<typeof DiagnosticsSummarySchema>;

export const CASE_ARTIFACT_KINDS = ['trace', 'video', 'diagnostics'] as const;
export const CaseArtifactKindSchema = z.enum(CASE_ARTIFACT_KINDS);
export type CaseArtifactKind = z.infer<typeof CaseArtifactKindSchema>;

/** A stored trace or video of one attempt at a case, with a signed, expiring link. */
export const CaseArtifactSchema = z.object({
  id: z.string(),
  kind: CaseArtifactKindSchema,
  /** 1 for the first attempt; a flaky case keeps its failed attempt's trace. */
  attempt: z.number().int().min(1),
  bytes: z.number().int().min(0),
  /** Signed link to the file (trace.zip, video.webm, diagnostics.json). */
  url: z.string(),
  /** A trace's link opening Argus's own trace viewer on it; null for other kinds. */
  viewer_url: z.string().nullable(),
});
export type CaseArtifact = z.infer<typeof CaseArtifactSchema>;

/** How often a failure (one fingerprint) was seen in a project. */
export const FailureSightingsSchema = z.object({
  fingerprint: z.string(),
  /** Runs of the project with a case failing this way. */
  runs: z.number().int().min(1),
  first_run_id: z.string(),
  first_seen_at: z.string(),
  last_run_id: z.string(),
  last_seen_at: z.string(),
});
export type FailureSightings = z.infer<typeof FailureSightingsSchema>;

/** An open failure group (History and Analytics): seen in the project's latest run of its suite. */
export const FailureGroupSchema = FailureSightingsSchema.extend({
  kind: FailureKindSchema,
  /** The failing step and the folded error, as the fingerprint saw them. */
  summary: z.string(),
  /** The cases failing this way (names), most recent first. */
  cases: z.array(z.string()),
  project_id: z.string().nullable(),
});
export type FailureGroup = z.infer<typeof FailureGroupSchema>;

export const FailureGroupQuerySchema = z.object({
  project_id: z.string().max(100).optional(),
  /** Only groups seen in a run since this day (ISO date or timestamp). */
  since: z.string().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type FailureGroupQuery = z.input<typeof FailureGroupQuerySchema>;
export const FailureGroupListSchema = z.object({ groups: z.array(FailureGroupSchema) });
export type FailureGroupList = z.infer<typeof FailureGroupListSchema>;
