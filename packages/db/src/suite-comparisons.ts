import { and, eq } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import { type SuiteComparisonRow, suiteComparisons } from './schema';

export type { SuiteComparisonRow };

import { isUuid } from './users';

export type NewSuiteComparison = Omit<
  SuiteComparisonRow,
  'id' | 'user_id' | 'created_at' | 'accepted_version'
>;

/**
 * Regenerate-and-compare results (0020_suite_comparisons.sql), each of one saved suite. Every call takes
 * the owning organization's id: another organization's comparison, or one of another project or suite,
 * does not exist for you.
 */
export function suiteComparisonsRepository(orm: Drizzle) {
  const rows = ownedRows(orm, suiteComparisons);
  return {
    add: (orgId: string, input: NewSuiteComparison): Promise<SuiteComparisonRow> => rows.add(orgId, input),
    /** The organization's comparison `id` of that project's suite; undefined otherwise. */
    async get(
      orgId: string,
      projectId: string,
      suiteId: string,
      id: string,
    ): Promise<SuiteComparisonRow | undefined> {
      if (!isUuid(projectId) || !isUuid(suiteId)) return undefined;
      const row = await rows.get(orgId, id);
      return row && row.project_id === projectId && row.suite_id === suiteId ? row : undefined;
    },
    /** Records the version an accept saved. */
    async accepted(orgId: string, id: string, version: number): Promise<void> {
      if (!isUuid(id)) return;
      await orm
        .update(suiteComparisons)
        .set({ accepted_version: version })
        .where(and(eq(suiteComparisons.id, id), eq(suiteComparisons.user_id, orgId)));
    },
  };
}
export type SuiteComparisonsRepository = ReturnType<typeof suiteComparisonsRepository>;
