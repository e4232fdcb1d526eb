import { z } from 'zod';
import { SUITE_MAX_RETRIES, TestCaseSchema } from './automation';
import { HttpUrlSchema } from './common';
import { DEFAULT_RECORDING, RecordingSettingsSchema, TracePolicySchema } from './diagnostics';
import { BranchNameSchema } from './visual';

// Projects, their environments, variables and secrets, the login Argus signs in with, and saved
// suites (docs/PROJECTS.md). Every shape the HTTP API and the screens exchange is here.

/**
 * The starting kinds of project (the sidebar's Projects group): a web application, a mobile app (the
 * same site in a phone's viewport), an API service (listed, not yet testable).
 */
export const PROJECT_KINDS = ['web', 'mobile', 'api'] as const;
export const ProjectKindSchema = z.enum(PROJECT_KINDS);
export type ProjectKind = z.infer<typeof ProjectKindSchema>;

/** The viewport a mobile project's runs and explorations use. */
export const MOBILE_VIEWPORT = { width: 390, height: 844 } as const;

/** A variable's or secret's name: what steps write as `{{NAME}}` (docs/STEP-LANGUAGE.md#variables-and-secrets). */
export const VARIABLE_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
export const VariableNameSchema = z
  .string()
  .trim()
  .regex(VARIABLE_NAME_PATTERN, 'Use capital letters, digits and _ (starting with a letter), at most 64');

const ProjectNameSchema = z.string().trim().min(1, 'Name is required').max(200);
const EnvironmentNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(60)
  .regex(/^[\p{L}\p{N} ._-]+$/u, 'Use letters, digits, spaces, . _ and -');

export const EnvironmentInputSchema = z.object({
  name: EnvironmentNameSchema,
  base_url: HttpUrlSchema,
  is_default: z.boolean().optional(),
});
export type EnvironmentInput = z.input<typeof EnvironmentInputSchema>;
export const EnvironmentUpdateSchema = EnvironmentInputSchema.partial();
export type EnvironmentUpdate = z.input<typeof EnvironmentUpdateSchema>;

export const EnvironmentSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  base_url: z.string(),
  is_default: z.boolean(),
  created_at: z.string(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

/**
 * How Argus signs in before exploring or running (docs/PROJECTS.md#sites-behind-a-login):
 * - `credentials`: the engine opens `login_url` (relative to the environment's base URL, or
 *   absolute), finds the sign-in form as a person would and fills the variables named here; a TOTP
 *   secret, when named, gives the two-factor code.
 * - `steps`: lines of the step language (a recorded login), `{{NAME}}` allowed.
 */
export const ProjectLoginSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('none') }),
  z.object({
    mode: z.literal('credentials'),
    login_url: z.string().trim().min(1).max(2000),
    username_variable: VariableNameSchema,
    password_secret: VariableNameSchema,
    totp_secret: VariableNameSchema.nullable().optional(),
  }),
  z.object({
    mode: z.literal('steps'),
    steps: z.array(z.string().trim().min(1).max(4000)).min(1).max(50),
  }),
]);
export type ProjectLogin = z.infer<typeof ProjectLoginSchema>;

export const ProjectCreateSchema = z.object({
  name: ProjectNameSchema,
  description: z.string().max(2000).default(''),
  kind: ProjectKindSchema.default('web'),
  /** At least one; the first is the default unless another says so. */
  environments: z.array(EnvironmentInputSchema).min(1, 'Add at least one environment').max(20),
});
export type ProjectCreate = z.input<typeof ProjectCreateSchema>;

export const ProjectUpdateSchema = z.object({
  name: ProjectNameSchema.optional(),
  description: z.string().max(2000).optional(),
  login: ProjectLoginSchema.optional(),
});
export type ProjectUpdate = z.input<typeof ProjectUpdateSchema>;

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: ProjectKindSchema,
  login: ProjectLoginSchema,
  environments: z.array(EnvironmentSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

/** The sidebar's list: enough to name and link each project. */
export const ProjectSummarySchema = ProjectSchema.pick({
  id: true,
  name: true,
  kind: true,
  updated_at: true,
});
export type ProjectSummary = z.infer<typeof ProjectSummarySchema>;

/**
 * A variable (plain value, shown) or a secret (write-only: encrypted at rest, never answered again).
 * `environment_id` null: the project's value, which an environment's own value of the same name overrides.
 */
export const VariableInputSchema = z.object({
  name: VariableNameSchema,
  value: z.string().max(4000),
  secret: z.boolean().default(false),
  environment_id: z.string().max(100).nullable().default(null),
});
export type VariableInput = z.input<typeof VariableInputSchema>;

export const VariableSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  environment_id: z.string().nullable(),
  name: z.string(),
  secret: z.boolean(),
  /** A variable's value; always null for a secret. */
  value: z.string().nullable(),
  updated_at: z.string(),
});
export type Variable = z.infer<typeof VariableSchema>;

export const SavedSuiteInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  test_cases: z.array(TestCaseSchema).min(1, 'A suite needs at least one test case').max(500),
  /** Where the cases came from: absolute URLs on this origin are stored relative to the environment. */
  source_url: HttpUrlSchema.optional(),
  /** The version the editor started from; a save over a newer one is refused (409). */
  base_version: z.number().int().positive().optional(),
  /** What changed, in the saver's words (else the server describes it). */
  change_note: z.string().max(500).optional(),
  /**
   * How many times a failed case is run again (like Playwright's `retries`); one that then passes is
   * recorded as flaky (docs/HISTORY.md#retries). Absent: unchanged (0 for a new suite).
   */
  retries: z.number().int().min(0).max(SUITE_MAX_RETRIES).optional(),
  /** Which cases keep a trace, and whether failed ones keep a video (docs/DIAGNOSTICS.md). Absent: unchanged. */
  // Each field optional without its default (zod's partial() would keep the defaults, so a save naming
  // only `video` would reset `trace`).
  recording: z.object({ trace: TracePolicySchema.optional(), video: z.boolean().optional() }).optional(),
  /**
   * Each case's run ends with `Verify the page looks as approved`, unless it ends with a visual check
   * already; the saved cases are not changed (docs/VISUAL-CHECKS.md#a-check-after-every-case). Like
   * the retries, a save changing only this makes no new version. Absent: unchanged (off for a new suite).
   */
  visual_each_case: z.boolean().optional(),
});
export type SavedSuiteInput = z.input<typeof SavedSuiteInputSchema>;

export const SavedSuiteVersionSchema = z.object({
  version: z.number().int(),
  saved_by: z.string(),
  saved_at: z.string(),
  change: z.string(),
  test_count: z.number().int(),
});
export type SavedSuiteVersion = z.infer<typeof SavedSuiteVersionSchema>;

export const SavedSuiteSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  version: z.number().int(),
  test_cases: z.array(TestCaseSchema),
  /** Retries per failed case (docs/HISTORY.md#retries). */
  retries: z.number().int().default(0),
  /** Which cases keep a trace, and whether failed ones keep a video (docs/DIAGNOSTICS.md). */
  recording: RecordingSettingsSchema.default(DEFAULT_RECORDING),
  /** A visual check at the end of every case's run (docs/VISUAL-CHECKS.md#a-check-after-every-case). */
  visual_each_case: z.boolean().default(false),
  versions: z.array(SavedSuiteVersionSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedSuite = z.infer<typeof SavedSuiteSchema>;

export const RunSavedSuiteSchema = z.object({
  /** Absent: the project's default environment. */
  environment_id: z.string().max(100).optional(),
  /** The branch the run's visual checks compare on first (docs/VISUAL-CHECKS.md#branches). */
  branch: BranchNameSchema.optional(),
});
export type RunSavedSuite = z.input<typeof RunSavedSuiteSchema>;

/** A run of a project's, as its page lists it. */
export const ProjectRunSchema = z.object({
  id: z.string(),
  status: z.string(),
  test_suite_name: z.string().nullable(),
  environment_id: z.string().nullable(),
  environment_name: z.string().nullable(),
  suite_id: z.string().nullable(),
  suite_version: z.number().int().nullable(),
  total_tests: z.number().int(),
  passed_tests: z.number().int(),
  failed_tests: z.number().int(),
  /** Tests that passed only on a retry (docs/HISTORY.md#retries), in neither count above. */
  flaky_tests: z.number().int().default(0),
  /** Who or what started it: `screen`, `api` (a token, the CLI) or `schedule`; null for older runs. */
  trigger: z.string().nullable().default(null),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  created_at: z.string(),
});
export type ProjectRun = z.infer<typeof ProjectRunSchema>;

/** The text a run fails with when Argus cannot sign in (docs/PROJECTS.md#sites-behind-a-login). */
export function signInFailedMessage(project: string, environment: string, reason: string): string {
  return `Sign-in failed for ${project}/${environment}: ${reason}`;
}

/** `{{NAME}}` in a step: the names it refers to, in order of appearance, each once. */
export function variablesIn(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*([A-Z][A-Z0-9_]{0,63})\s*\}\}/g)) names.add(match[1]);
  return [...names];
}

/**
 * A saved suite's cases relative to its environment: an absolute URL under `baseUrl` (a case's own
 * `url`, a `Navigate to` target) becomes relative to it, so the same suite runs on any environment. A
 * case that started on its own URL starts with `Navigate to` that page instead.
 */
export function relativeToEnvironment<T extends { steps: string[]; url?: string }>(
  cases: T[],
  baseUrl: string,
): T[] {
  const base = new URL(baseUrl);
  const root = base.pathname === '/' || base.pathname === '';
  const prefix = base.origin + (base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`);
  const relative = (absolute: string): string => {
    let url: URL;
    try {
      url = new URL(absolute);
    } catch {
      return absolute;
    }
    if (url.origin !== base.origin) return absolute;
    const whole = url.href;
    if (root) return url.pathname + url.search + url.hash;
    if (!whole.startsWith(prefix) && whole !== prefix.slice(0, -1)) return absolute;
    return `./${whole.slice(prefix.length)}`;
  };
  return cases.map((testCase) => {
    const steps = testCase.steps.map((line) =>
      line.replace(
        /^(\s*(?:\d+[.)]\s*)?(?:navigate to|go to|open|visit)\s+)(["']?)(https?:\/\/[^\s"']+)\2/i,
        (_all, verb: string, quote: string, url: string) => `${verb}${quote}${relative(url)}${quote}`,
      ),
    );
    const own = testCase.url ? relative(testCase.url) : '';
    const startsWithNavigation = /^\s*(?:\d+[.)]\s*)?(?:navigate to|go to|open|visit)\s/i.test(
      steps[0] ?? '',
    );
    if (own && !startsWithNavigation) steps.unshift(`Navigate to ${own}`);
    return { ...testCase, url: '', steps };
  });
}
