import { type Rename, renamesOf } from '@argus/engine';
import type { RepairStore } from './repair-store';

/** A suite's repairs read for their renames at most (newest first). */
const MAX_REPAIRS_READ = 100;

/** The statuses of a proposal still standing: waiting for review, or approved. */
const STANDING = new Set(['proposed', 'approved']);

/** A rename's old name as two renames of the same target compare (the engine matches it so too). */
export const renameKey = (rename: Rename) => rename.from.trim().toLowerCase();

/**
 * The renames the suite's proved repairs made (docs/REPAIRS.md#renames-learnt-across-the-suite), for
 * a failed case's repair to look for its target under its new name first: read off the steps of each
 * repair proposed or approved (never a rejected one, a weakening one or a bug), newest first, one per
 * old name (the newest repair's), each naming the case that showed it.
 */
export async function suiteRenames(
  store: Pick<RepairStore, 'forSuite'>,
  ownerId: string,
  suiteId: string,
): Promise<Rename[]> {
  const rows = await store.forSuite(ownerId, suiteId, { limit: MAX_REPAIRS_READ });
  const seen = new Set<string>();
  const out: Rename[] = [];
  for (const row of rows) {
    if (row.verdict !== 'repair' || !STANDING.has(row.status)) continue;
    for (const rename of renamesOf(row.steps_before, row.steps_after, row.case_name)) {
      const key = renameKey(rename);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(rename);
    }
  }
  return out;
}
