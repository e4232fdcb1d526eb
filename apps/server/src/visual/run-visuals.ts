import type { VisualKey } from '@argus/db';
import {
  type Baseline,
  type BaselineStore,
  createVisualChecks,
  type VisualCapture,
  type VisualCheckKey,
} from '@argus/design-diff';
import type { VisualChecks, VisualVerdict } from '@argus/engine';
import type { VisualBox, VisualCheckOutcome } from '@argus/protocol';
import type { VisualStore } from './visual-store';

/** The browser every run's checks are taken in (the key names it: another browser renders otherwise). */
export const VISUAL_BROWSER = 'chromium';

/** What a run's visual checks are kept under: its project, environment and branch. */
export interface VisualScope {
  ownerId: string;
  runId: string;
  projectId: string;
  environmentId: string;
  /** '' for the default branch. */
  branch: string;
  /** Hides the environment's secrets in text kept (the page's URL). */
  hide: (text: string) => string;
}

/** One attempt at a case: the port its steps check through, and what becomes of its checks. */
export interface CaseVisuals {
  port: VisualChecks;
  /**
   * The attempt is over: a `final` one's checks are stored (their rows, and the run's count of checks
   * to review); a retried one's are dropped, so a case keeps only its final attempt's checks, as it
   * keeps only its final attempt's screenshots. `outcomes` are the case outcome's (secrets hidden,
   * each with its step's index), in the order the checks were made.
   */
  settle(outcomes: VisualCheckOutcome[], final: boolean): Promise<void>;
}

/** A run's visual checks (`forCase` per attempt). */
export interface RunVisuals {
  /** The case `caseName`, at `caseIndex` in the run's cases. */
  forCase(caseName: string, caseIndex: number): CaseVisuals;
}

/** A check as the port recorded it, until its attempt settles. */
interface Held {
  key: VisualCheckKey;
  sha256: string;
  diffSha256: string | null;
  bytes: number;
  diffBytes: number;
  capture: VisualCapture;
  verdict: VisualVerdict;
  baselineId: string | null;
}

/**
 * A run's visual checks over the server's store (docs/VISUAL-CHECKS.md): each case compares with the
 * newest approved baseline of its key (its branch's, else the default branch's); the capture and
 * difference pictures are stored as blobs as they are taken, their rows once the attempt is final.
 */
export function runVisuals(store: VisualStore, scope: VisualScope): RunVisuals {
  return {
    forCase(caseName, caseIndex) {
      const held: Held[] = [];
      // The baseline each check (by name) was compared with.
      const compared = new Map<string, { id: string; sha256: string }>();
      const keyOf = (key: VisualCheckKey): VisualKey => ({
        project_id: scope.projectId,
        environment_id: scope.environmentId,
        branch: scope.branch,
        case_name: caseName,
        check_name: key.name,
        viewport_width: key.viewport.width,
        viewport_height: key.viewport.height,
        browser: VISUAL_BROWSER,
      });
      const baselines: BaselineStore = {
        async baselineOf(key): Promise<Baseline | null> {
          const row = await store.repo.baselineFor(scope.ownerId, keyOf(key));
          if (!row) return null;
          compared.set(key.name, { id: row.id, sha256: row.sha256 });
          return {
            png: await store.readBlob(row.sha256),
            masks: [...(row.moving_masks as VisualBox[]), ...(row.user_masks as VisualBox[])],
            threshold: row.threshold,
            elementMasks: row.element_masks,
          };
        },
        async record(key, capture, verdict) {
          const baseline = compared.get(key.name);
          // A check that looked as approved keeps no picture of its own: its row names the baseline's
          // (they differ only where masked), so a suite's steady runs add no captures to the storage.
          const keepOwn = verdict.status !== 'same' || !baseline;
          const diff = capture.diff ? await capture.diff() : null;
          const [sha256, diffSha256] = await Promise.all([
            keepOwn ? store.blobs.put(capture.png) : (baseline as { sha256: string }).sha256,
            diff ? store.blobs.put(diff) : null,
          ]);
          held.push({
            key,
            sha256,
            diffSha256,
            // The bytes it stores itself, as the organization's storage counts them.
            bytes: keepOwn ? capture.png.length : 0,
            diffBytes: diff?.length ?? 0,
            capture,
            verdict,
            baselineId: baseline?.id ?? null,
          });
        },
      };
      return {
        port: createVisualChecks(baselines),
        async settle(outcomes, final) {
          const taken = held.splice(0);
          if (!final || taken.length === 0) return;
          const rows = taken.map((check, i) => {
            // The outcome of the same check (the same name), for its hidden text and its step.
            const outcome = outcomes.find((o) => o.name === check.key.name) ?? outcomes[i];
            const key = keyOf(check.key);
            return {
              ...key,
              case_index: caseIndex,
              region: outcome?.region ?? null,
              step_index: outcome?.step_index ?? 0,
              status: check.verdict.status,
              issues: outcome?.issues ?? check.verdict.issues,
              message: outcome?.message ?? check.verdict.message,
              sha256: check.sha256,
              diff_sha256: check.diffSha256,
              bytes: check.bytes,
              diff_bytes: check.diffBytes,
              width: check.capture.width,
              height: check.capture.height,
              moving_masks: check.capture.moving,
              url: scope.hide(check.capture.url),
              baseline_id: check.baselineId,
              review: check.verdict.status === 'same' ? 'none' : 'pending',
            } as const;
          });
          await store.repo.addChecks(scope.ownerId, scope.runId, rows);
        },
      };
    },
  };
}
