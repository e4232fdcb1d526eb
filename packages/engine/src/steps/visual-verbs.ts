import type { VisualBox } from '@argus/protocol';
import { NO_VISUAL_CHECKS } from '../visual/visual-checks';
import type { VerbAction } from './verb-action';

// `Verify the page looks as approved` and `Verify "<region>" looks as approved` (issue 40): a settled
// capture compared with the check's approved baseline, through the port the run was given
// (visual/visual-checks.ts). The verdict is recorded for the case; a difference or a new check is for
// review and does not fail the step, so the case's functional steps go on.

export const verifyLooksApproved: VerbAction<'verifyLooksApproved'> = async (kit, step) => {
  if (!kit.visual) throw new Error(NO_VISUAL_CHECKS);
  const region = await kit.regionOf(step.region);
  // A step's screenshot asked for before is taken first: the capture freezes the page for a moment.
  await kit.beforeChange();
  let where: { region: string; box: VisualBox } | null = null;
  if (region) {
    await kit.noteElement?.(region.locator);
    await region.locator.scrollIntoViewIfNeeded({ timeout: kit.left() });
    const box = await region.locator.evaluate((element) => {
      const r = element.getBoundingClientRect();
      return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
    });
    where = { region: region.name, box };
  }
  await kit.visual.check(where, { signal: kit.signal, timeoutMs: kit.left() });
  return region?.selector ?? null;
};
