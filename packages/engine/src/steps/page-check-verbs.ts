import { AbortedError } from '../errors';
import {
  accessibilityViolations,
  brokenLinks,
  horizontalOverflow,
  imagesWithoutAlt,
  visibleErrors,
} from '../page-checks';
import { readCountOf, readRowNumbers, sumProblem } from '../page-functions';
import type { StepKit } from './step-kit';
import type { VerbAction } from './verb-action';
import { fail } from './waiting';

// The Verify steps about the page as a whole: its health (errors, links, images, overflow,
// accessibility) and what its numbers add up to.

export const verifyNoErrors: VerbAction<'verifyNoErrors'> = async (kit) => {
  await kit.page.waitForTimeout(200); // let a submit handler render its messages
  fail(await visibleErrors(kit.page));
  return null;
};

export const verifyNoConsoleErrors: VerbAction<'verifyNoConsoleErrors'> = async (kit) => {
  await kit.page.waitForLoadState('load', { timeout: kit.timeout });
  fail(kit.tracker.consoleErrors().map((p) => `Console error on ${p.url}: ${p.message}`));
  return null;
};

export const verifyNoFailedRequests: VerbAction<'verifyNoFailedRequests'> = async (kit) => {
  await kit.page.waitForLoadState('load', { timeout: kit.timeout });
  fail(kit.tracker.failedRequests().map((p) => `Failed request: ${p.message}`));
  return null;
};

export const verifyLinksWork: VerbAction<'verifyLinksWork'> = async (kit) => {
  fail(await brokenLinks(kit.page));
  return 'a[href]';
};

export const verifyImagesAlt: VerbAction<'verifyImagesAlt'> = async (kit) => {
  fail(await imagesWithoutAlt(kit.page));
  return 'img';
};

export const verifyNoOverflow: VerbAction<'verifyNoOverflow'> = async (kit) => {
  fail(await horizontalOverflow(kit.page));
  return null;
};

export const verifyAccessibility: VerbAction<'verifyAccessibility'> = async (kit) => {
  fail(await accessibilityViolations(kit.page));
  return null;
};

/** Reads until `done` holds or the step's time is up (every 100 ms): a summary drawn after its data arrives gets the step's time. */
async function readUntil<T>(kit: StepKit, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    if (kit.signal?.aborted) throw new AbortedError();
    const value = await read();
    if (done(value) || Date.now() >= kit.deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const verifyCountOf: VerbAction<'verifyCountOf'> = async (kit, step) => {
  const { page } = kit;
  const seen = await readUntil(
    kit,
    () => page.evaluate(readCountOf, { text: step.text, cell: step.cell }),
    (s) => s.shown === s.rows,
  );
  if (seen.shown === null)
    throw new Error(`Expected a number shown with "${step.text}", but found none on ${page.url()}`);
  if (seen.shown !== seen.rows)
    throw new Error(
      `Expected the number in "${step.text}" (${seen.shown}) to count the rows showing "${step.cell}" (${seen.rows}) on ${page.url()}`,
    );
  return 'tr';
};

export const verifySum: VerbAction<'verifySum'> = async (kit, step) => {
  const { page } = kit;
  const problem = await readUntil(
    kit,
    async () =>
      sumProblem(await page.evaluate(readRowNumbers, [...step.parts, step.total]), step.parts, step.total),
    (p) => p === '',
  );
  if (problem) throw new Error(`${problem} on ${page.url()}`);
  return 'tr';
};
