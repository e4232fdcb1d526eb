import { type ElementKey, type TargetRole, TargetRoleSchema } from '@argus/protocol';
import { effectSignal, type StepEffect } from './effect';
import { keyedControl } from './keyed-control';
import { nameSimilarity } from './names';
import type { PageControl, PageTexts } from './page-controls';
import type { Renamed } from './renames';
import type { RepairTarget, TargetWant } from './repairable';

/**
 * The elements a person would take for the failed step's target, on the page as the case's earlier
 * steps leave it, best first. Only the same kind of element (a clickable for a click, a field for a
 * fill, a checkbox for a check; the same role when the step names one), never a control another step
 * of the case already uses, and inside the step's region when it names one still there. Scored by:
 * - the closest accessible name (whole words, stems, spelling): `nameSimilarity`;
 * - the same container as the case's neighbouring steps' elements (the button in the form whose field
 *   was just filled, the control in the item the step before ticked): a rename with no word in common
 *   is found by structure alone;
 * - the same role as the element the step matched when the case last passed;
 * - the same id, form field name or test id as that element had (element-key.ts), when exactly one
 *   control on the page has it: a field whose label a redesign renamed still posts the same name;
 * - being the only field (checkbox, select) on the page that no other step uses, or, for a click right
 *   after the case filled a form, the only submit button of a form on the page (a form split in two
 *   parts: its second part's button, once the first part's "Continue" revealed it);
 * A check (and an action no later check of the case proves the effect of) is only ever replaced by an
 * element of a related name: presence alone proves nothing, and a structural guess there could heal a
 * bug away. Texts, titles and URLs are replaced only by a close, number-free text.
 */

export interface Candidate {
  /** The control's marker (null for a text). */
  id: number | null;
  name: string;
  /** The role to write in the step (a step-language role), or null to name it alone. */
  role: TargetRole | null;
  /** Its role as read, for the evidence sentence. */
  readRole: string;
  score: number;
  signals: string[];
  /** 'in the same form', 'in the same item'…, or ''. */
  where: string;
  /**
   * Scored below `GOOD_SCORE`, yet of the same kind and in the step's place (its region, or outside
   * any item): proved only when nothing better passed, the proof alone deciding.
   */
  weak?: boolean;
}

export interface CandidateContext {
  failedIndex: number;
  /** The case's step count (neighbours beyond it do not exist). */
  stepCount: number;
  /** The role the step's element had when the case last passed, if known. */
  lastRole: string | null;
  /** The page's URL at the step when the case last passed, if known. */
  lastUrl: string | null;
  /** The stable attributes of the step's element when the case last passed (element-key.ts), if known. */
  lastElement?: ElementKey | null;
  /**
   * Whether a related name is required: the failed step is a check, no check follows it, or the case
   * passes without the step (its checks do not prove what a replacement does).
   */
  nameRequired: boolean;
  /** Whether the failed step is a check (its replacement needs a closer name, and a region may go). */
  isCheck: boolean;
  /**
   * The role a replacement must have (the case passes without the step, which led to another page:
   * its replacement is proved by leading there too, and must be what the step's element was).
   */
  roleRequired?: string | null;
  /** The step before the failed one put a value into a form (filled, selected, ticked). */
  afterFormInput?: boolean;
  /** What the step did when the case last passed (where it led). */
  effect: StepEffect;
  /** For an element check: the controls (`role:name`) before the action it follows; else null. */
  appeared?: Set<string> | null;
  /** What another proved repair of the suite renamed the target to (renames.ts), if it did. */
  renamed?: Renamed | null;
}

/** A candidate scoring this much is worth proving. */
export const GOOD_SCORE = 0.45;
/** A name this close counts as related (`nameRequired`); a check's replacement, `CHECK_NAME`. */
const RELATED_NAME = 0.5;
const CHECK_NAME = 0.6;
const CLOSE_TEXT = 0.6;

const ROLES_BY_WANT: Record<TargetWant, string[] | null> = {
  // A radio button too: a redesign turns links that switch a view into a radio group ("Show: ○ All").
  clickable: [
    'button',
    'link',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'radio',
    'summary',
    'switch',
  ],
  field: ['textbox', 'searchbox', 'spinbutton', 'combobox'],
  select: ['combobox', 'listbox'],
  check: ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'],
  element: null,
  text: [],
  title: [],
  url: [],
  region: [],
  state: [],
};

export function findCandidates(
  target: RepairTarget,
  page: PageTexts,
  context: CandidateContext,
): Candidate[] {
  const renamed = renamedCandidates(target, page, context.renamed ?? null);
  // A control named as a proved rename says, whatever its role now (the rename was proved with it).
  const renamedControls = context.renamed
    ? page.controls.filter(
        (c) => !c.disabled && c.refs.length === 0 && sameName(c.name, (context.renamed as Renamed).name),
      )
    : [];
  if (renamedControls.length > 0 && !['text', 'title', 'url', 'region', 'state'].includes(target.want))
    return renamedControls.map((c) => renamedCandidate(c, context.renamed as Renamed));
  if (target.want === 'region') return [...renamed, ...regionCandidates(target, page, context.isCheck)];
  if (target.want === 'text' || target.want === 'title' || target.want === 'url')
    return [...renamed, ...textCandidates(target, page), ...samePageTitle(target, page, context)].slice(0, 5);
  const roles = ROLES_BY_WANT[target.want];
  const alike = page.controls.filter((control) => {
    if (control.disabled || control.refs.length > 0 || !control.name) return false;
    // A list to choose from is not a field to type into.
    if (target.want === 'field' && control.tag === 'select') return false;
    // A control that opens a menu is how a target is revealed (reveal.ts), not the target, unless named alike.
    if (control.collapsed && nameSimilarity(target.name, control.name) < RELATED_NAME) return false;
    // A named role is required of an element a check names; a click may land on another clickable (a
    // link moved into a menu is a menu item), the named role only counting for it (`score`).
    const strictRole = target.role && target.want !== 'clickable';
    if (strictRole ? control.role !== target.role : roles && !roles.includes(control.role)) return false;
    if (target.want === 'element' && !target.role && control.role === 'heading') return false;
    return !(target.region && page.region && !control.inRegion);
  });
  // The only field (or checkbox, or select) on the page a step does not already use is the one; a
  // step naming no region means no per-item control (those are named by their item).
  const shared = target.region ? alike : alike.filter((c) => !c.inItem);
  const submits = shared.filter((c) => c.type === 'submit' && c.form !== null);
  const onlySubmit = target.want === 'clickable' && !!context.afterFormInput && submits.length === 1;
  const only = (shared.length === 1 && ['field', 'select', 'check'].includes(target.want)) || onlySubmit;
  const theOne = onlySubmit ? submits[0] : shared[0];
  const keyed = keyedControl(page.controls, context.lastElement ?? null);
  // Of the element check's role, the one control that appeared with the action the check follows.
  const appeared = context.appeared ? alike.filter((c) => !context.appeared?.has(`${c.role}:${c.name}`)) : [];
  const list = alike.flatMap((control) => {
    if (appeared.length === 1 && control === appeared[0]) return [appearedCandidate(control)];
    const scored = score(control, target, context, {
      only: only && control === theOne,
      keyed: keyed?.control === control ? keyed.signal : null,
    });
    return scored
      ? [{ ...scored, weak: scored.score < GOOD_SCORE && (!!target.region || !control.inItem) }]
      : [];
  });
  return list.filter((c) => c.score >= GOOD_SCORE || c.weak).sort((a, b) => b.score - a.score);
}

function score(
  control: PageControl,
  target: RepairTarget,
  context: CandidateContext,
  { only, keyed }: { only: boolean; keyed: string | null },
): Candidate | null {
  const signals: string[] = [];
  if (only) signals.push(`the only ${ONLY_WORDS[target.want] ?? 'field'} on the page`);
  const similarity = nameSimilarity(target.name, control.name, target.region);
  // The element itself, known by what its label does not change: no related name is needed.
  if (context.roleRequired && control.role !== context.roleRequired && !keyed) return null;
  const required = context.nameRequired && !keyed;
  if (required && similarity < (context.isCheck ? CHECK_NAME : RELATED_NAME)) return null;
  let total = 0.6 * similarity;
  if (keyed) {
    total += 0.5;
    signals.push(keyed);
  }
  if (similarity >= 0.99) signals.push('same name');
  else if (similarity >= 0.3) signals.push(`close name ("${target.name}" → "${control.name}")`);
  if (target.role && target.role === control.role) {
    signals.push(`same role (${control.role})`);
    if (target.want === 'clickable') total += 0.1;
  }
  const near = closest(control, context);
  let where = '';
  if (only) total += 0.45;
  if (near) {
    total += near.tight ? 0.45 : 0.2;
    if (near.hops <= 3) total += 0.05;
    where = `in the same ${near.container}`;
    signals.push(`same region (${near.container} of step ${near.step + 1})`);
  }
  if (context.lastRole && context.lastRole === control.role) {
    total += 0.1;
    signals.push(`same place as the last passing run (${control.role})`);
  }
  const effect = effectSignal(control.href, context.effect);
  if (effect) {
    total += effect.score;
    signals.push(effect.signal);
  }
  // A form's submit button is its main action: of two buttons beside a field, the likelier one.
  if (target.want === 'clickable' && control.type === 'submit') total += 0.05;
  return controlCandidate(control, total, signals, where);
}

const ONLY_WORDS: Partial<Record<TargetWant, string>> = {
  check: 'checkbox',
  clickable: 'submit button of a form, after the case filled one,',
};

/** A control as a candidate: its name, and its role when the step language has it. */
function controlCandidate(control: PageControl, score: number, signals: string[], where = ''): Candidate {
  const role = TargetRoleSchema.safeParse(control.role);
  return {
    id: control.id,
    name: control.name,
    role: role.success ? role.data : null,
    readRole: control.role,
    score,
    signals,
    where,
  };
}

/** The one control of the checked role that appeared with the action the check follows, as the checked element did. */
function appearedCandidate(control: PageControl): Candidate & { weak: boolean } {
  const signals = [
    `same role (${control.role})`,
    'appeared with the action before the check, as the checked element did',
  ];
  return { ...controlCandidate(control, GOOD_SCORE + 0.1, signals), weak: false };
}

/** The neighbouring step whose element shares the tightest container with the control, if any. */
function closest(
  control: PageControl,
  context: CandidateContext,
): { container: string; tight: boolean; hops: number; step: number } | null {
  const { failedIndex } = context;
  let best: { container: string; tight: boolean; hops: number; step: number } | null = null;
  for (const step of [failedIndex - 1, failedIndex + 1, failedIndex - 2, failedIndex + 2]) {
    if (step < 0 || step >= context.stepCount) continue;
    const near = control.near[String(step)];
    if (!near?.container) continue;
    const better =
      !best || (near.tight && !best.tight) || (near.tight === best.tight && near.hops < best.hops);
    if (better) best = { container: near.container, tight: near.tight, hops: near.hops, step };
  }
  return best;
}

/**
 * For a region that is gone: a close, number-free name on the page (a text or a control's name) to
 * look in instead, else, for a check, the step without its region (a check limited to an item then
 * checks any: flagged as weakening, never a plain repair).
 */
function regionCandidates(target: RepairTarget, page: PageTexts, isCheck: boolean): Candidate[] {
  const names = [...new Set([...page.texts, ...page.controls.map((c) => c.name)])];
  const close = textCandidates({ ...target, want: 'text' }, { ...page, texts: names }, RELATED_NAME);
  const anywhere: Candidate = {
    id: null,
    name: '',
    role: null,
    readRole: 'region',
    score: 0,
    signals: [`the region "${target.name}" is gone: the step looks anywhere on the page`],
    where: '',
  };
  // An action anywhere could act on another item than the one the case meant: only a check may widen.
  return isCheck ? [...close.slice(0, 2), anywhere] : close.slice(0, 2);
}

/**
 * A title that changed altogether on the very page the step checked when the case last passed (the
 * same path): that page's title now, when it holds no number. Without the last passing run's URL, or
 * on another page, nothing (another page's title would prove nothing).
 */
function samePageTitle(target: RepairTarget, page: PageTexts, context: CandidateContext): Candidate[] {
  if (target.want !== 'title' || !context.lastUrl || !page.title || /\d/.test(page.title)) return [];
  let path: string;
  try {
    path = new URL(context.lastUrl).pathname;
  } catch {
    return [];
  }
  if (path !== page.path.replace(/[?#].*$/, '')) return [];
  return [
    {
      id: null,
      name: page.title,
      role: null,
      readRole: 'title',
      score: 0.5,
      signals: [`the same page as the last passing run (${path}), its title now`],
      where: '',
    },
  ];
}

function textCandidates(target: RepairTarget, page: PageTexts, least = CLOSE_TEXT): Candidate[] {
  const texts =
    target.want === 'title'
      ? [page.title]
      : target.want === 'url'
        ? page.path.split(/[/#?&=]+/).filter(Boolean)
        : page.texts;
  const old = target.name.toLowerCase();
  const list: Candidate[] = [];
  for (const text of texts) {
    const lower = text.toLowerCase();
    // A number-free text close to the old one, and not a part of it (that would widen the check).
    if (!text || /\d/.test(text) || lower === old || old.includes(lower)) continue;
    const similarity = nameSimilarity(target.name, text);
    if (similarity < least) continue;
    list.push({
      id: null,
      name: text,
      role: null,
      readRole: target.want,
      score: similarity,
      signals: [`close text ("${target.name}" → "${text}")`],
      where: '',
    });
  }
  return list.sort((a, b) => b.score - a.score).slice(0, 5);
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The signal a rename another repair proved gives (renames.ts). */
const renamedSignal = ({ rename }: Renamed) =>
  `renamed the same way in case "${rename.seenIn}" ("${rename.from}" → "${rename.to}")`;

/** A control named as another proved repair renamed the target: the likeliest of all, the proof deciding. */
function renamedCandidate(control: PageControl, renamed: Renamed): Candidate {
  return controlCandidate(control, 2, [renamedSignal(renamed)]);
}

/** For a text, a title, a URL or a region: the renamed words, when the page shows them (as a text or a control's name). */
function renamedCandidates(target: RepairTarget, page: PageTexts, renamed: Renamed | null): Candidate[] {
  if (!renamed || !['text', 'title', 'url', 'region'].includes(target.want)) return [];
  const shown =
    target.want === 'title'
      ? page.title.toLowerCase().includes(renamed.name.trim().toLowerCase())
      : target.want === 'url'
        ? page.path.toLowerCase().includes(renamed.name.toLowerCase())
        : [...page.texts, ...page.controls.map((c) => c.name)].some((t) => sameName(t, renamed.name));
  if (!shown) return [];
  return [
    {
      id: null,
      name: renamed.name,
      role: null,
      readRole: target.want,
      score: 2,
      signals: [renamedSignal(renamed)],
      where: '',
    },
  ];
}
