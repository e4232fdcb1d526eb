import type { Repositories } from '@argus/db';
import type {
  ApproveRepairs,
  ApproveRepairsResult,
  CaseRepair,
  CaseRepairList,
  RejectRepair,
  RepairStatus,
  SavedSuite,
} from '@argus/protocol';
import { AppError } from '../errors';
import type { SuiteAuthor } from '../projects/project-inputs';
import type { ProjectService } from '../projects/project-service';
import { repairedCases, repairNote } from './approval';
import { toCaseRepair, waiting } from './repair-views';

export interface RepairServiceDeps {
  repos: Pick<Repositories, 'caseRepairs' | 'testRuns'>;
  projects: Pick<ProjectService, 'getSuite' | 'updateSuite'>;
}

const listOf = (repairs: CaseRepair[]): CaseRepairList => ({ repairs, proposed: waiting(repairs) });

/**
 * Repairs as review sees them (docs/REPAIRS.md): a run's and a suite's, approved together as one new
 * suite version (saved through the project's own suite save, so a save made meanwhile conflicts as any
 * save would), or rejected. Scoped to the organization: another's run, suite or repair is not found.
 */
export class RepairService {
  constructor(private readonly deps: RepairServiceDeps) {}

  /** A run's verdicts in case order. */
  async forRun(orgId: string, runId: string): Promise<CaseRepairList> {
    const run = await this.deps.repos.testRuns.get(orgId, runId);
    if (!run) throw new AppError('TEST_RUN_NOT_FOUND');
    return listOf((await this.deps.repos.caseRepairs.forRun(orgId, run.id)).map(toCaseRepair));
  }

  /** A suite's verdicts, newest first, optionally of one status. */
  async forSuite(
    orgId: string,
    projectId: string,
    suiteId: string,
    status?: RepairStatus,
  ): Promise<CaseRepairList> {
    const suite = await this.deps.projects.getSuite(orgId, projectId, suiteId);
    return listOf(
      (await this.deps.repos.caseRepairs.forSuite(orgId, suite.id, { status })).map(toCaseRepair),
    );
  }

  /** The chosen proposals saved as one new version of the suite; answers it with the approved repairs. */
  async approve(
    orgId: string,
    author: SuiteAuthor,
    projectId: string,
    suiteId: string,
    body: Required<ApproveRepairs>,
  ): Promise<{ result: ApproveRepairsResult; suite: SavedSuite }> {
    const { caseRepairs } = this.deps.repos;
    const suite = await this.deps.projects.getSuite(orgId, projectId, suiteId);
    const ids = [...new Set(body.ids)];
    const rows = (await caseRepairs.many(orgId, ids)).filter((row) => row.suite_id === suite.id);
    const missing = ids.filter((id) => !rows.some((row) => row.id === id));
    if (missing.length > 0)
      throw new AppError('REPAIR_NOT_FOUND', `Repair not found in this suite: ${missing[0]}`);
    const test_cases = repairedCases(suite, rows, new Set(body.accept_weakening));
    const change = repairNote(rows);
    const saved = await this.deps.projects.updateSuite(orgId, author, projectId, suite.id, {
      name: suite.name,
      test_cases,
      base_version: suite.version,
      change_note: change,
    });
    const approved = await caseRepairs.approve(orgId, suite.id, ids, {
      decided_by: author.username,
      saved_version: saved.version,
    });
    return { result: { version: saved.version, change, repairs: approved.map(toCaseRepair) }, suite: saved };
  }

  /** Rejects a proposal still waiting for review (a decided one, or a bug: REPAIR_CONFLICT). */
  async reject(
    orgId: string,
    author: SuiteAuthor,
    ids: { projectId: string; suiteId: string; repairId: string },
    body: RejectRepair,
  ): Promise<CaseRepair> {
    const { caseRepairs } = this.deps.repos;
    const suite = await this.deps.projects.getSuite(orgId, ids.projectId, ids.suiteId);
    const row = await caseRepairs.get(orgId, ids.repairId);
    if (!row || row.suite_id !== suite.id) throw new AppError('REPAIR_NOT_FOUND');
    if (row.verdict === 'bug')
      throw new AppError(
        'REPAIR_CONFLICT',
        `"${row.case_name}" looks like a bug: there is no repair to reject`,
      );
    const rejected = await caseRepairs.reject(orgId, row.id, {
      decided_by: author.username,
      reason: body.reason?.trim() || null,
    });
    if (!rejected) {
      const now = await caseRepairs.get(orgId, row.id);
      throw new AppError(
        'REPAIR_CONFLICT',
        `The repair of "${row.case_name}" is ${now?.status ?? 'gone'}: only a proposed repair is rejected`,
      );
    }
    return toCaseRepair(rejected);
  }
}
