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

export async function survey(session: BrowserSession, input: SurveyInput): Promise<Survey> {
  const page = session.playwrightPage;
  const { steps, target, context, signal } = input;
  await markStepTargets(
    page,
    steps,
    (index) => index === context.failedIndex || namesTarget(steps[index], target.name),
    signal,
  );
  await markRegion(page, target.region, signal);
  const read = await readPageControls(page);
  const failed = parses(steps[context.failedIndex]);
  const found = (
    target.want === 'state' && failed
      ? await stateCandidates(page, failed, target.name, signal)
      : findCandidates(target, read, context)
  ).filter((c) => !input.exclude?.has(`${c.readRole}:${c.name}`));
  const region = read.region ? target.region : undefined;
  const candidates: Candidate[] = [];
  for (const candidate of found.slice(0, 10)) {
    if (await findsCandidate(page, target, candidate, region, signal)) candidates.push(candidate);
  }
  return { page: read, pageState: pageState(read), candidates };
}
