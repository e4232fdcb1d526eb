import type { ProjectWithEnvironments, Repositories, VisualBaselineRow } from '@argus/db';
import type {
  BaselineArchive,
  ImportBaselinesResult,
  VisualBaseline,
  VisualBaselineList,
  VisualCheckSettings,
  VisualDecision,
  VisualRunCheck,
  VisualRunChecks,
} from '@argus/protocol';
import { AppError } from '../errors';
import type { BlobStore } from '../storage/blob-store';
import type { SignedUrls } from '../storage/signed-urls';
import { type ArchiveScope, environmentOf, exportArchive, importArchive } from './baseline-archive';
import { toVisualBaseline, toVisualRunCheck } from './visual-views';

export interface VisualServiceDeps {
  repos: Pick<Repositories, 'visual' | 'testRuns' | 'projects'>;
  urls: SignedUrls;
}

/** Which picture of a check a link opens. */
export type CheckPicture = 'current' | 'baseline' | 'diff';

/**
 * Visual checks as review sees them (docs/VISUAL-CHECKS.md): a run's checks, each approved (its
 * capture becomes its key's newest baseline) or rejected (a bug: the baseline stays); a project's
 * baselines, their history, restoring an earlier one, a check's own masks and threshold, and promoting
 * a branch's baselines to the default branch. Every read and write takes the organization's id, so
 * another's run, check or baseline answers 404 like a missing one.
 */
export class VisualService {
  constructor(private readonly deps: VisualServiceDeps) {}

  async forRun(ownerId: string, runId: string): Promise<VisualRunChecks> {
    await this.ownRun(ownerId, runId);
    const rows = await this.deps.repos.visual.forRun(ownerId, runId);
    const checks = rows.map(({ check, baseline }) => toVisualRunCheck(check, baseline, this.deps.urls));
    return { checks, to_review: checks.filter((c) => c.review === 'pending').length };
  }

  async decide(
    ownerId: string,
    reviewer: string,
    runId: string,
    checkId: string,
    { decision, reason }: VisualDecision,
  ): Promise<VisualRunCheck> {
    const { visual } = this.deps.repos;
    const check = await visual.getCheck(ownerId, checkId);
    if (!check || check.test_run_id !== runId) throw new AppError('VISUAL_CHECK_NOT_FOUND');
    const decided = await visual.decide(ownerId, checkId, { decision, decided_by: reviewer, reason });
    if (!decided) {
      throw new AppError(
        'VISUAL_REVIEW_CONFLICT',
        check.review === 'none'
          ? 'This check looked as approved: there is nothing to review'
          : `This check was ${check.review} already${check.decided_by ? ` by ${check.decided_by}` : ''}`,
      );
    }
    const [row] = (await visual.forRun(ownerId, runId)).filter((r) => r.check.id === checkId);
    return toVisualRunCheck(row.check, row.baseline, this.deps.urls);
  }

  /** 'Approve all in this run': every check still waiting becomes its key's baseline. */
  async approveAll(ownerId: string, reviewer: string, runId: string): Promise<VisualRunChecks> {
    await this.ownRun(ownerId, runId);
    await this.deps.repos.visual.decideAll(ownerId, runId, reviewer);
    return this.forRun(ownerId, runId);
  }

  /** A check's picture (for its signed link): this run's capture, the baseline compared with, their difference. */
  async checkPicture(ownerId: string, checkId: string, which: CheckPicture): Promise<string> {
    const { visual } = this.deps.repos;
    const check = await visual.getCheck(ownerId, checkId);
    if (!check) throw new AppError('VISUAL_CHECK_NOT_FOUND');
    if (which === 'current') return check.sha256;
    if (which === 'diff') {
      if (!check.diff_sha256) throw new AppError('NOT_FOUND', 'This check has no difference picture');
      return check.diff_sha256;
    }
    const baseline = check.baseline_id ? await visual.getBaseline(ownerId, check.baseline_id) : undefined;
    if (!baseline) throw new AppError('BASELINE_NOT_FOUND', 'This check was compared with no baseline');
    return baseline.sha256;
  }

  async baselinePicture(ownerId: string, baselineId: string): Promise<string> {
    return (await this.baselineRow(ownerId, baselineId)).sha256;
  }

  /** The current baselines of a project's environment (its default one when none is named) and branch. */
  async baselines(
    ownerId: string,
    projectId: string,
    query: { environment_id?: string; branch: string },
  ): Promise<VisualBaselineList> {
    await this.ownProject(ownerId, projectId);
    const rows = await this.deps.repos.visual.currentBaselines(ownerId, {
      project_id: projectId,
      environment_id: query.environment_id,
      branch: query.branch,
    });
    return { baselines: rows.map((row) => toVisualBaseline(row, this.deps.urls)) };
  }

  async history(ownerId: string, baselineId: string): Promise<VisualBaselineList> {
    await this.baselineRow(ownerId, baselineId);
    const rows = await this.deps.repos.visual.baselineHistory(ownerId, baselineId);
    return { baselines: rows.map((row) => toVisualBaseline(row, this.deps.urls)) };
  }

  async restore(ownerId: string, reviewer: string, baselineId: string): Promise<VisualBaseline> {
    const row = await this.deps.repos.visual.restoreBaseline(ownerId, baselineId, reviewer);
    if (!row) throw new AppError('BASELINE_NOT_FOUND');
    return toVisualBaseline(row, this.deps.urls);
  }

  async settings(
    ownerId: string,
    baselineId: string,
    settings: VisualCheckSettings,
  ): Promise<VisualBaseline> {
    await this.baselineRow(ownerId, baselineId);
    const row = await this.deps.repos.visual.updateSettings(ownerId, baselineId, settings);
    if (!row) throw new AppError('BASELINE_NOT_FOUND');
    return toVisualBaseline(row, this.deps.urls);
  }

  async promote(
    ownerId: string,
    reviewer: string,
    projectId: string,
    body: { branch: string; environment_id?: string },
  ): Promise<{ promoted: number }> {
    await this.ownProject(ownerId, projectId);
    const promoted = await this.deps.repos.visual.promote(ownerId, {
      project_id: projectId,
      environment_id: body.environment_id,
      branch: body.branch,
      approved_by: reviewer,
    });
    return { promoted };
  }

  /** The current baselines of an environment (the default one when none is named) and branch, pictures included. */
  async exportBaselines(
    ownerId: string,
    projectId: string,
    scope: ArchiveScope,
    blobs: Pick<BlobStore, 'put' | 'read'>,
  ): Promise<BaselineArchive> {
    const found = await this.ownProject(ownerId, projectId);
    const environment = environmentOf(found, scope.environment_id);
    return exportArchive({ repos: this.deps.repos, blobs }, ownerId, found, environment, scope.branch);
  }

  /** An archive's baselines as the newest of their keys on an environment and branch (baseline-archive.ts). */
  async importBaselines(
    ownerId: string,
    reviewer: string,
    projectId: string,
    scope: ArchiveScope,
    archive: BaselineArchive,
    blobs: Pick<BlobStore, 'put' | 'read'>,
  ): Promise<ImportBaselinesResult & { environment_id: string }> {
    const found = await this.ownProject(ownerId, projectId);
    const environment = environmentOf(found, scope.environment_id);
    const target = {
      project_id: found.project.id,
      environment_id: environment.id,
      branch: scope.branch,
      approved_by: reviewer,
    };
    const result = await importArchive({ repos: this.deps.repos, blobs }, ownerId, target, archive);
    return { ...result, environment_id: environment.id };
  }

  private async baselineRow(ownerId: string, id: string): Promise<VisualBaselineRow> {
    const row = await this.deps.repos.visual.getBaseline(ownerId, id);
    if (!row) throw new AppError('BASELINE_NOT_FOUND');
    return row;
  }

  private async ownRun(ownerId: string, runId: string): Promise<void> {
    if (!(await this.deps.repos.testRuns.get(ownerId, runId))) throw new AppError('TEST_RUN_NOT_FOUND');
  }

  private async ownProject(ownerId: string, projectId: string): Promise<ProjectWithEnvironments> {
    const found = await this.deps.repos.projects.get(ownerId, projectId);
    if (!found) throw new AppError('PROJECT_NOT_FOUND');
    return found;
  }
}
