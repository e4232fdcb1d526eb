import type { RepairEvidence } from '@argus/protocol';
import { BUILTIN_ENGINE } from '../test-runner';
import type { Candidate } from './candidates';
import type { Proof } from './prove';
import type { RepairOutcome } from './repair-types';
import type { RepairTarget } from './repairable';
import type { Trigger } from './reveal';

/** The sentences a verdict rests on: what was gone, what does its job now, and how that was proved. */

const MAX_SIGNALS = 20;

/** `button "Add"`, `field "City"`, `the text "No tasks yet"`. */
export function describeTarget(target: RepairTarget, lastRole: string | null): string {
  switch (target.want) {
    case 'text':
      return `the text "${target.name}"`;
    case 'title':
      return `the title "${target.name}"`;
    case 'url':
      return `"${target.name}" in the URL`;
    case 'region':
      return `the region "${target.name}"`;
    case 'state':
      return `the mark "${target.name}"`;
    case 'field':
    case 'select':
      return `field "${target.name}"`;
    case 'check':
      return `checkbox "${target.name}"`;
    default: {
      const role = target.role ?? lastRole;
      return role ? `${role} "${target.name}"` : `"${target.name}"`;
    }
  }
}

export function repairSummary(
  target: RepairTarget,
  lastRole: string | null,
  candidate: Candidate,
  trigger: Trigger | null,
): string {
  const gone = describeTarget(target, lastRole);
  if (target.want === 'state') return `${capital(gone)} is gone; ${candidate.signals[0] ?? candidate.name}`;
  if (target.want === 'region') {
    const instead = candidate.name ? `looks in "${candidate.name}" instead` : 'looks anywhere on the page';
    return `${capital(gone)} is gone; the step ${instead}`;
  }
  if (target.want === 'text' || target.want === 'title' || target.want === 'url') {
    return `${capital(gone)} is gone; the page shows "${candidate.name}" in its place`;
  }
  const now = `${candidate.readRole} "${candidate.name}"`;
  if (target.want === 'element') {
    const how = candidate.signals.some((s) => s.startsWith('appeared')) ? 'appeared' : 'is shown';
    return `${capital(gone)} is gone; ${now} ${how} in its place`;
  }
  const where = candidate.where ? ` ${candidate.where}` : '';
  const behind = trigger ? `, behind ${trigger.readRole} "${trigger.name}",` : '';
  return `${capital(gone)} is gone; ${now}${where}${behind} does what it did`;
}

export function builtEvidence(
  summary: string,
  signals: string[],
  proof: Proof,
  engine = BUILTIN_ENGINE,
): RepairEvidence {
  return {
    summary,
    signals: [
      ...signals,
      `proved: the repaired case passed in a fresh browser (${proof.executionTime} s)`,
    ].slice(0, MAX_SIGNALS),
    engine,
    proof: { status: 'passed', execution_time: proof.executionTime },
  };
}

export function bugOutcome(
  stepIndex: number | null,
  summary: string,
  signals: string[],
  pageState: string | null,
  engine = BUILTIN_ENGINE,
): RepairOutcome {
  return {
    verdict: 'bug',
    stepIndex,
    evidence: { summary, signals: signals.slice(0, MAX_SIGNALS), engine, proof: null },
    page_state: pageState,
  };
}

/** Nothing on the page does what the step's target did: what was looked for and what was tried. */
export function nothingDoesIt(
  target: RepairTarget,
  lastRole: string | null,
  path: string,
  tried: string[],
): string {
  const looked = `Looked for ${describeTarget(target, lastRole)} on ${path}`;
  const what = tried.length
    ? `; tried ${tried.slice(0, 5).join(', ')} in its place and the case still failed`
    : '; nothing of its kind is there';
  return `${looked}${what}: nothing on the page does what it did`;
}

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
