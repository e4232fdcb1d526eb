import {
  type RegenerateRequest,
  type SuiteCaseChange,
  type SuiteComparison,
  SuiteComparisonSchema,
} from '@argus/protocol';
import { generationRequest } from './generate';
import type { Connection } from './http';
import { absolute } from './repair-lines';
import { checked, findEnvironment, findProject, findSuite } from './resolve';

export interface CompareOptions {
  project: string;
  env?: string;
  suite: string;
  out: (line: string) => void;
  signal: AbortSignal;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The page that reviews a comparison, relative to the server (the web app's suite-compare screen). */
export function reviewPath(comparison: Pick<SuiteComparison, 'id' | 'project_id' | 'suite_id'>): string {
  const at = encodeURIComponent;
  return `/projects/${at(comparison.project_id)}/suites/${at(comparison.suite_id)}/comparisons/${at(comparison.id)}`;
}

/** One line per case that is not unchanged: + added, - removed, ~ changed (and whether it was curated). */
function changeLine(change: SuiteCaseChange): string {
  if (change.kind === 'added') return `  + ${change.behaviour}: no saved case covers it`;
  if (change.kind === 'removed')
    return `  - ${change.saved?.test_name ?? change.behaviour}: the app no longer shows it`;
  const differing = change.diff.filter((line) => line.op !== 'same').length;
  const curated = change.curated ? ' (edited by hand: never replaced without a choice)' : '';
  return `  ~ ${change.saved?.test_name ?? change.behaviour}: ${plural(differing, 'step line differs', 'step lines differ')}${curated}`;
}

/** What `argus generate --compare` prints of a comparison, the review link last. */
export function comparisonLines(comparison: SuiteComparison, server: string): string[] {
  const { counts } = comparison;
  const lines = [
    `argus: ${counts.unchanged} unchanged, ${counts.changed} changed, ${counts.added} added, ${counts.removed} removed`,
  ];
  const order = { added: 0, removed: 1, changed: 2, unchanged: 3 } as const;
  const shown = comparison.changes
    .filter((change) => change.kind !== 'unchanged')
    .sort((a, b) => order[a.kind] - order[b.kind]);
  lines.push(...shown.map(changeLine));
  if (counts.added > 0)
    lines.push(`argus: the app has ${plural(counts.added, 'behaviour', 'behaviours')} no case covers`);
  if (counts.removed > 0)
    lines.push(
      `argus: ${plural(counts.removed, 'saved case tests a behaviour', 'saved cases test behaviours')} the app no longer shows`,
    );
  lines.push(`argus: review and accept the changes: ${absolute(server, reviewPath(comparison))}`);
  return lines;
}

/**
 * `argus generate --compare`: a generation on the environment compared with the saved suite by the
 * behaviour each case tests (`POST /api/projects/{id}/suites/{suite}/regenerate`); nothing is saved.
 * 0 the comparison was made (whatever it found); 1 the generation failed; 2 not started.
 */
export async function compareSuite(connection: Connection, options: CompareOptions): Promise<number> {
  const { out } = options;
  const project = await findProject(connection, options.project);
  const environment = findEnvironment(project, options.env);
  const suite = await findSuite(connection, project, options.suite);
  const body: RegenerateRequest = { environment_id: environment.id };
  out(
    `argus: regenerating on "${project.name}"/${environment.name} (${environment.base_url}) to compare with "${suite.name}" v${suite.version}; this takes a minute or more`,
  );
  const at = encodeURIComponent;
  const answered = await generationRequest(
    connection,
    `/api/projects/${at(project.id)}/suites/${at(suite.id)}/regenerate`,
    body,
    options,
  );
  if ('code' in answered) return answered.code;
  const comparison = checked(SuiteComparisonSchema, answered.answer, 'the comparison');
  for (const line of comparisonLines(comparison, connection.server)) out(line);
  return 0;
}
