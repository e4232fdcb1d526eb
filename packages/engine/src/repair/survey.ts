import type { Page } from 'playwright-core';
import type { BrowserSession } from '../browser-session';
import { type Candidate, type CandidateContext, findCandidates } from './candidates';
import { findsCandidate } from './explore';
import { markRegion, markStepTargets } from './mark-steps';
import { type PageTexts, readPageControls } from './page-controls';
import { pageState } from './page-state';
import { namesTarget, parses, type RepairTarget } from './repairable';
import { stateCandidates } from './state-marks';

/**
 * One look at the page at the failed step: the case's other steps' elements marked, the controls read,
 * the candidates for the target scored and kept only when the line written for each finds it again,
 * and the page state a rejection is keyed by.
 */
export interface Survey {
  page: PageTexts;
  pageState: string;
  candidates: Candidate[];
}

export interface SurveyInput {
  steps: string[];
  target: RepairTarget;
  context: CandidateContext;
  /** Controls not to propose (`role:name`): the click that revealed the page, for one. */
  exclude?: Set<string>;
  signal?: AbortSignal;
}

const PER_ITEM: RepairTarget['want'][] = ['clickable', 'field', 'check', 'select'];

/**
 * The item a target's name names, when the step names no region: the longest short text of the page
 * (four letters or more) that is part of the target's name and is a list item's, row's or article's.
 */
async function itemNamed(page: Page, target: RepairTarget): Promise<string | undefined> {
  if (!PER_ITEM.includes(target.want)) return undefined;
  const name = target.name.toLowerCase();
  const titles = await page
    .evaluate(() =>
      Array.from(document.querySelectorAll('li, tr, article, [role=listitem], [role=row]')).flatMap((item) =>
        Array.from(item.querySelectorAll('*'))
          .filter((el) => el.children.length === 0 && el.getClientRects().length > 0)
          .map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()),
      ),
    )
    .catch(() => [] as string[]);
  return titles
    .filter((t) => t.length >= 4 && t.toLowerCase() !== name && name.includes(t.toLowerCase()))
    .sort((a, b) => b.length - a.length)[0];
}

export async function survey(session: BrowserSession, input: SurveyInput): Promise<Survey> {
  const page = session.playwrightPage;
  const { steps, target, context, signal } = input;
  await markStepTargets(
    page,
    steps,
    (index) => index === context.failedIndex || namesTarget(steps[index], target.name),
    signal,
  );
  // A target named after its item ("Quantity of Merino Wool Socks") is looked for in that item.
  const within = target.region ?? (await itemNamed(page, target));
  await markRegion(page, within, signal);
  const read = await readPageControls(page);
  const failed = parses(steps[context.failedIndex]);
  const found = (
    target.want === 'state' && failed
      ? await stateCandidates(page, failed, target.name, signal)
      : findCandidates({ ...target, region: within }, read, context)
  ).filter((c) => !input.exclude?.has(`${c.readRole}:${c.name}`));
  const region = read.region ? target.region : undefined;
  const candidates: Candidate[] = [];
  for (const candidate of found.slice(0, 10)) {
    if (await findsCandidate(page, target, candidate, region, signal)) candidates.push(candidate);
  }
  return { page: read, pageState: pageState(read), candidates };
}
