import { BranchNameSchema, type Environment, type VisualBaseline } from '@argus/protocol';
import { thresholdPercent } from './masks';

// What the baselines screen says (issue 40, docs/VISUAL-CHECKS.md#the-baselines-screen): the
// environments and branch it shows, each baseline's lines, and the promotion's sentences. No React.

/** The screen's address: a project's current baselines. */
export const visualBaselinesPath = (projectId: string) =>
  `/projects/${encodeURIComponent(projectId)}/baselines`;

/** The environment select's options: the default environment first, then the others as the project lists them. */
export function environmentOptions(
  environments: readonly Pick<Environment, 'id' | 'name' | 'is_default'>[],
): { value: string; label: string }[] {
  const ordered = [...environments.filter((e) => e.is_default), ...environments.filter((e) => !e.is_default)];
  return ordered.map((e) => ({ value: e.id, label: e.is_default ? `${e.name} (default)` : e.name }));
}

/** The environment shown: the one asked for when the project has it, else the default one (else the first). */
export function chosenEnvironment(
  environments: readonly Pick<Environment, 'id' | 'is_default'>[],
  asked: string | null,
): string {
  if (asked && environments.some((e) => e.id === asked)) return asked;
  return (environments.find((e) => e.is_default) ?? environments[0])?.id ?? '';
}

/** The branch field's text as a branch ('' for the default branch), or what is wrong with it. */
export function parseBranch(
  text: string,
): { branch: string; error?: undefined } | { branch?: undefined; error: string } {
  const parsed = BranchNameSchema.safeParse(text);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Not a branch name' };
  return { branch: parsed.data };
}

/** 'Default branch', or 'branch feature/x'. */
export function branchText(branch: string): string {
  return branch === '' ? 'Default branch' : `branch ${branch}`;
}

/** 'page' is 'Whole page' (and 'page #2' 'Whole page #2'); a region check keeps its region's name. */
export function checkTitle(checkName: string): string {
  return checkName.replace(/^page\b/, 'Whole page');
}

/** '1440 × 900'. */
export function viewportText(viewport: { width: number; height: number }): string {
  return `${viewport.width} × ${viewport.height}`;
}

/** A local date and time; the raw text when it is not a date. Locale and zone for the tests. */
export function whenText(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

/** The first 8 characters of a run's id, as the other screens name a run. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** 'Approved by mia · 30 Nov 2026, 07:10', and where it came from when it was copied. */
export function approvedText(
  baseline: Pick<VisualBaseline, 'approved_by' | 'created_at' | 'source_run_id' | 'copied_from'>,
  when: (iso: string) => string = whenText,
): string {
  const parts = [`Approved by ${baseline.approved_by || 'someone'}`, when(baseline.created_at)];
  if (baseline.source_run_id) parts.push(`from run ${shortId(baseline.source_run_id)}`);
  else if (baseline.copied_from) parts.push('copied from an earlier baseline');
  return parts.join(' · ');
}

/** 'Threshold 0%' (any difference is reported), 'Threshold 2.5%'. */
export function thresholdText(share: number): string {
  return `Threshold ${thresholdPercent(share)}%`;
}

/**
 * 'No masks', '1 mask', '3 masks' (the team's: rectangles and elements); how many are elements is
 * added ('2 masks · 1 element'), then what moved by itself ('2 masks · 1 moved by itself').
 */
export function masksText(
  baseline: Pick<VisualBaseline, 'user_masks' | 'moving_masks'> & {
    element_masks?: VisualBaseline['element_masks'];
  },
): string {
  const elements = baseline.element_masks?.length ?? 0;
  const own = baseline.user_masks.length + elements;
  const moving = baseline.moving_masks.length;
  const parts = [own === 0 ? 'No masks' : `${own} ${own === 1 ? 'mask' : 'masks'}`];
  if (elements > 0) parts.push(`${elements} ${elements === 1 ? 'element' : 'elements'}`);
  if (moving > 0) parts.push(`${moving} moved by itself`);
  return parts.join(' · ');
}

/** The grid's order: by case, then check, then viewport (widest first), then browser. */
export function sortBaselines<
  T extends Pick<VisualBaseline, 'case_name' | 'check_name' | 'viewport' | 'browser'>,
>(baselines: readonly T[]): T[] {
  return [...baselines].sort(
    (a, b) =>
      a.case_name.localeCompare(b.case_name) ||
      a.check_name.localeCompare(b.check_name, undefined, { numeric: true }) ||
      b.viewport.width - a.viewport.width ||
      b.viewport.height - a.viewport.height ||
      a.browser.localeCompare(b.browser),
  );
}

/** The promotion's confirmation: 'Copies the 3 baselines of branch feature/x to the default branch'. */
export function promoteText(count: number, branch: string): string {
  const what = count === 1 ? 'the 1 baseline' : `the ${count} baselines`;
  return `Copies ${what} of branch ${branch} to the default branch`;
}

/** After promoting: how many became the default branch's (those that differed from its own). */
export function promotedText(promoted: number, branch: string): string {
  if (promoted === 0) return `Nothing to promote: the default branch has the baselines of ${branch} already`;
  return `Promoted ${promoted} ${promoted === 1 ? 'baseline' : 'baselines'} of ${branch} to the default branch`;
}
