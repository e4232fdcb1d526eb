import type { Repositories, SuiteComparisonRow, SuiteComparisonsRepository } from '@argus/db';
import {
  relativeToEnvironment,
  type SavedSuite,
  type SuiteCaseChange,
  SuiteCaseChangeSchema,
  type SuiteComparison,
  type TestCase,
} from '@argus/protocol';
import { z } from 'zod';
import { AppError } from '../errors';
import { fieldError } from '../projects/project-checks';
import type { SuiteAuthor } from '../projects/project-inputs';
import type { ProjectService } from '../projects/project-service';
import { compareSuites, countChanges } from './behaviour-match';
import { curatedCases } from './curated';

/** What a generation handed out, as the generation route's `generate` answers it. */
export interface GeneratedCases {
  test_cases: TestCase[];
  engine: string;
  test_run_id: string | null;
}

export interface SuiteCompareDeps {
  projects: ProjectService;
  repos: Pick<Repositories, 'history' | 'testRuns'>;
  comparisons: SuiteComparisonsRepository;
}

function toApi(row: SuiteComparisonRow): SuiteComparison {
  const changes = z.array(SuiteCaseChangeSchema).parse(row.changes);
  return {
    id: row.id,
    project_id: row.project_id,
    suite_id: row.suite_id,
    suite_version: row.suite_version,
    environment_id: row.environment_id,
    engine: row.engine,
    changes,
    counts: countChanges(changes),
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Regenerate and compare (docs/REPAIRS.md#regenerate-and-compare): a generation's cases matched to a
 * saved suite's by behaviour (behaviour-match.ts), stored for review, and the changes a team accepts
 * saved as one new version through the project service (so a save in between is a conflict).
 */
export class SuiteCompareService {
  constructor(private readonly deps: SuiteCompareDeps) {}

  /**
   * Compares `generated` (absolute URLs, on `environment`) with the suite as it is now and stores the
   * comparison. The generation's pending run record, known to no one else, is removed as the
   * generation route does.
   */
  async compare(
    orgId: string,
    author: SuiteAuthor,
    suite: SavedSuite,
    environment: { id: string; base_url: string },
    generated: GeneratedCases,
  ): Promise<SuiteComparison> {
    const cases = relativeToEnvironment(generated.test_cases, environment.base_url);
    const versions = await this.deps.repos.history.suiteVersions(orgId, suite.id);
    const curated = curatedCases(versions, suite.test_cases);
    const changes = compareSuites(
      suite.test_cases.map((testCase, index) => ({ testCase, curated: curated[index] ?? false })),
      cases,
    );
    const row = await this.deps.comparisons.add(orgId, {
      project_id: suite.project_id,
      suite_id: suite.id,
      suite_version: suite.version,
      environment_id: environment.id,
      engine: generated.engine,
      changes,
      created_by: author.username,
    });
    if (generated.test_run_id)
      await this.deps.repos.testRuns.delete(orgId, generated.test_run_id).catch(() => false);
    return toApi(row);
  }

  /** The comparison, when it is of this organization's project and suite; COMPARISON_NOT_FOUND otherwise. */
  async get(orgId: string, projectId: string, suiteId: string, id: string): Promise<SuiteComparison> {
    return toApi(await this.row(orgId, projectId, suiteId, id));
  }

  /**
   * Saves the changes named by `keys` as one new version of the suite, over the version compared
   * (SUITE_VERSION_CONFLICT when the suite was saved since). An added case is added at the end, a
   * removed one removed, a changed one replaced by the generated case (keeping the saved case's id);
   * an unchanged one stays as it is.
   */
  async accept(
    orgId: string,
    author: SuiteAuthor,
    projectId: string,
    suiteId: string,
    id: string,
    keys: string[],
  ): Promise<SavedSuite> {
    const row = await this.row(orgId, projectId, suiteId, id);
    const comparison = toApi(row);
    const chosen = chosenChanges(comparison.changes, keys);
    if (chosen.length === 0)
      throw fieldError(['body', 'keys'], 'These changes are all unchanged cases: there is nothing to save');
    const suite = await this.deps.projects.getSuite(orgId, projectId, suiteId);
    const test_cases = acceptedCases(suite.test_cases, chosen);
    if (test_cases.length === 0)
      throw fieldError(['body', 'keys'], 'A suite needs at least one test case: keep at least one');
    const counts = countChanges(chosen);
    const saved = await this.deps.projects.updateSuite(orgId, author, projectId, suiteId, {
      name: suite.name,
      test_cases,
      base_version: comparison.suite_version,
      change_note: `Regenerated: ${counts.added} added, ${counts.removed} removed, ${counts.changed} changed`,
    });
    await this.deps.comparisons.accepted(orgId, row.id, saved.version);
    return saved;
  }

  private async row(orgId: string, projectId: string, suiteId: string, id: string) {
    const row = await this.deps.comparisons.get(orgId, projectId, suiteId, id);
    if (row) return row;
    // The suite's (or project's) own absence is told apart from the comparison's.
    await this.deps.projects.getSuite(orgId, projectId, suiteId);
    throw new AppError('COMPARISON_NOT_FOUND');
  }
}

/** The changes `keys` name, in the comparison's order; a key it does not hold is refused, named. */
export function chosenChanges(changes: SuiteCaseChange[], keys: string[]): SuiteCaseChange[] {
  const known = new Set(changes.map((change) => change.key));
  const unknown = keys.find((key) => !known.has(key));
  if (unknown !== undefined)
    throw fieldError(['body', 'keys', keys.indexOf(unknown)], `This comparison has no change "${unknown}"`);
  const wanted = new Set(keys);
  return changes.filter((change) => wanted.has(change.key) && change.kind !== 'unchanged');
}

/** The suite's cases with the chosen changes made. */
export function acceptedCases(saved: TestCase[], chosen: SuiteCaseChange[]): TestCase[] {
  const bySaved = new Map(
    chosen.filter((change) => change.saved_index !== null).map((change) => [change.saved_index, change]),
  );
  const kept = saved.flatMap((testCase, index): TestCase[] => {
    const change = bySaved.get(index);
    if (!change) return [testCase];
    if (change.kind === 'removed' || !change.generated) return [];
    return [{ ...change.generated, ...(testCase.id !== undefined ? { id: testCase.id } : {}) }];
  });
  const added = chosen.flatMap((change) =>
    change.kind === 'added' && change.generated ? [change.generated] : [],
  );
  return [...kept, ...added];
}
