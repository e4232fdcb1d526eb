import type { TargetRole, TestCase } from '@argus/protocol';
import type { Page } from 'playwright-core';
import type { BrowserSession } from '../browser-session';
import { locate, locateRegion } from '../locate';
import type { Candidate } from './candidates';
import { CANDIDATE_ATTR } from './page-controls';
import type { RepairOptions } from './repair-types';
import type { RepairTarget } from './repairable';

/**
 * The page as the case's steps before the failed one leave it, now: those steps run in a fresh
 * browser through the run's own executor (signed in when the run is), and `work` reads the live page
 * before the browser closes (the runner's `atEnd`). When those earlier steps fail now, something
 * earlier broke: no repair of this step (the caller's verdict is a bug).
 */
export type Explored<T> = { ok: true; value: T } | { ok: false; error: string };

export async function atFailedStep<T>(
  testCase: TestCase,
  failedIndex: number,
  options: RepairOptions,
  work: (session: BrowserSession) => Promise<T>,
): Promise<Explored<T>> {
  const prefix: TestCase = { ...testCase, steps: testCase.steps.slice(0, failedIndex) };
  let result: { value: T } | { error: unknown } | null = null;
  const outcome = await options.run(prefix, {
    signal: options.signal,
    screenshots: false,
    atEnd: async (session, ended) => {
      if (ended.status !== 'passed') return;
      try {
        result = { value: await work(session) };
      } catch (error) {
        result = { error };
      }
    },
  });
  if (outcome.status !== 'passed') return { ok: false, error: outcome.error ?? 'the earlier steps failed' };
  const done = result as { value: T } | { error: unknown } | null;
  if (!done) return { ok: false, error: 'the page was gone before it could be read' };
  if ('error' in done) throw done.error;
  return { ok: true, value: done.value };
}

/** How the step would look its replacement up: `locate`'s kind for the target's kind. */
function kindOf(target: RepairTarget): 'any' | 'field' | 'check' | 'text' {
  switch (target.want) {
    case 'field':
    case 'select':
      return 'field';
    case 'check':
      return 'check';
    case 'element':
      return target.role ? 'any' : 'text';
    default:
      return 'any';
  }
}

/**
 * Whether the repaired step, written with the candidate's name and role, finds that very candidate on
 * the page (and not an earlier element of a similar name): a line that would act elsewhere is not
 * worth a proof. Texts are not elements: always true.
 */
export async function findsCandidate(
  page: Page,
  target: RepairTarget,
  candidate: Candidate,
  region: string | undefined,
  signal?: AbortSignal,
): Promise<boolean> {
  if (candidate.id === null) return true;
  try {
    const within = region ? await locateRegion(page, region, 1, signal) : undefined;
    const role = (candidate.role ?? undefined) as TargetRole | undefined;
    const { locator } = await locate(page, candidate.name, kindOf(target), 1, role, signal, within);
    const id = await locator.getAttribute(CANDIDATE_ATTR, { timeout: 1_000 });
    return id === String(candidate.id);
  } catch {
    return false;
  }
}
