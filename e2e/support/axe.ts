import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../apps/server/src/testing/spawn-server';

/** axe-core as the engine has it (a dependency of packages/engine). */
const AXE_SOURCE = readFileSync(
  createRequire(join(REPO_ROOT, 'packages/engine/package.json')).resolve('axe-core/axe.min.js'),
  'utf8',
);

export type AxeImpact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface AxeViolation {
  id: string;
  impact: AxeImpact | null;
  help: string;
  /** One CSS selector path per failing node, with axe's summary of what is wrong there. */
  nodes: Array<{ target: string; summary: string; html: string }>;
}

/**
 * What the functions passed to page.evaluate use of the page. They run in the browser, but this
 * program is compiled without DOM types; the cast is erased, so each function reads the page's own
 * globals.
 */
interface AxeGlobals {
  axe?: {
    run(
      context: unknown,
      options: { resultTypes: string[] },
    ): Promise<{
      violations: Array<{
        id: string;
        impact: AxeImpact | null;
        help: string;
        nodes: Array<{ target: unknown[]; failureSummary?: string; html?: string }>;
      }>;
    }>;
  };
  document: {
    getAnimations(): Array<{
      playState: string;
      finished: Promise<unknown>;
      effect: { getComputedTiming(): { iterations: number } } | null;
    }>;
  };
}

/**
 * Waits for the finite animations and transitions running now (a dialog fading in, a toast sliding
 * in) to end, up to `maxMs`: colours measured mid-fade are not the colours anyone reads. Endless ones
 * (spinners, pulses) and long ones (the landing page's rotation timer) are left running.
 */
export async function waitForSettledAnimations(page: Page, maxMs = 2000): Promise<void> {
  await page.evaluate(async (max) => {
    const w = globalThis as unknown as AxeGlobals;
    const finite = w.document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.race([
      Promise.allSettled(finite.map((a) => a.finished)),
      new Promise((done) => setTimeout(done, max)),
    ]);
  }, maxMs);
}

/**
 * Runs axe-core on the whole page, or on the part `within` selects (every rule axe enables by default: WCAG 2.x A and AA and its best
 * practices). The app's Content-Security-Policy allows no inline script, so axe goes in through the
 * debugging protocol (page.evaluate), which the policy does not govern, rather than a <script> tag.
 */
export async function runAxe(page: Page, within?: string): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => Boolean((globalThis as unknown as AxeGlobals).axe));
  if (!loaded) await page.evaluate(AXE_SOURCE);
  // A toast may start leaving (or another arrive) while axe measures, and a 0.4 s fade can begin and
  // end within one run: a run that found a contrast failure is taken again once the page is still. A
  // real contrast failure is found again (the last run's findings are returned); one measured
  // mid-fade is not.
  let violations: AxeViolation[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (attempt > 0) await page.waitForTimeout(500);
    await waitForSettledAnimations(page);
    violations = await axeOnce(page, within);
    if (!violations.some((v) => v.id === 'color-contrast')) break;
  }
  return violations;
}

async function axeOnce(page: Page, within?: string): Promise<AxeViolation[]> {
  return page.evaluate(async (selector) => {
    const w = globalThis as unknown as AxeGlobals;
    if (!w.axe) throw new Error('axe-core did not load');
    const context = selector ? { include: [selector] } : w.document;
    const result = await w.axe.run(context, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(' >> '),
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
        html: (n.html ?? '').slice(0, 300),
      })),
    }));
  }, within ?? null);
}

/** Whether a violation fails a screen: serious and critical ones do. */
export function isBlocking(violation: AxeViolation): boolean {
  return violation.impact === 'serious' || violation.impact === 'critical';
}

/** One line per failing node: `rule (impact) at target: what is wrong`. */
export function describeViolations(violations: readonly AxeViolation[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.impact}) at ${n.target}: ${n.summary.replace(/^Fix (any|all) of the following: /, '')}`,
    ),
  );
}
