import type { TargetRole } from '@argus/protocol';
import type { Locator, Page } from 'playwright-core';
import type { SessionClipboard } from '../clipboard';
import { AbortedError } from '../errors';
import { locate, locateRegion, type Region, type TargetKind } from '../locate';
import { hiddenControlItem, namelessIndex } from '../page-functions';
import type { PageTracker } from '../page-tracker';
import { untraced } from '../recording/untraced';
import type { StepVisual } from '../visual/session-visuals';
import { poll } from './waiting';

/** What a step needs from the session performing it. */
export interface StepContext {
  page: Page;
  tracker: PageTracker;
  /** Milliseconds the step may take. */
  timeout: number;
  /** Aborted once the step is given up on (stopped or timed out): the engine's own polling stops. */
  signal: AbortSignal;
  /**
   * Resolves once the screenshots already asked for are taken. Called before anything that changes the
   * page, so a screenshot shows the page as it was when it was asked for, however late it arrives.
   */
  beforeChange: () => Promise<void>;
  /** Opens `target` (relative to the page, else the session's base URL) through the session's checks. */
  navigate: (target: string, timeout: number) => Promise<{ requested: string; status: number }>;
  /** The session's own clipboard (copy and paste chords never reach the browser's shared one). */
  clipboard?: SessionClipboard;
  /** Told of each element the step found to act on or check (the last one is the step's element). */
  noteElement?: (locator: Locator) => Promise<void>;
  /** The run's visual checks against approved baselines (`… looks as approved`); absent: none given. */
  visual?: StepVisual;
}

/** An element a step found, with how it was found (the step's selector). */
export interface Found {
  locator: Locator;
  selector: string;
}

/** What every verb's action works with: the session's context and ways to find things in the step's time. */
export interface StepKit extends StepContext {
  clipboard: SessionClipboard;
  /** When the step's time is up (epoch milliseconds). */
  deadline: number;
  /** What is left of the step's timeout (a region and its target share it); never 0, Playwright's "no limit". */
  left: () => number;
  /** The target a step names, within a region if given, in the time left. */
  find: (target: string, kind: TargetKind, role?: TargetRole, within?: Region) => Promise<Found>;
  /** The region a step names (`… in "<region>"`), when it names one. */
  regionOf: (name: string | undefined) => Promise<Region | undefined>;
  /**
   * Where a control the step names by its place alone is (`Check the checkbox in "<text>"`): the
   * region, else the smallest block holding the text (a row built of plain divs is no list item).
   */
  placeOf: (name: string) => Promise<Region>;
  /** ` in "<region>"` for messages, or ''. */
  inName: (within?: Region) => string;
  /**
   * A control in a region, revealed the way a person would: when it is not visible yet (a delete
   * button shown only on hover), the mouse moves over the region first.
   */
  findRevealing: (target: string, kind: TargetKind, role?: TargetRole, within?: Region) => Promise<Found>;
  /** The first visible control of `role` in a region, revealed by hovering the region if need be. */
  roleIn: (within: Region, role: TargetRole) => Promise<Found>;
}

/** The kit for one step, its time counted from now. */
export function stepKit(ctx: StepContext, clipboard: SessionClipboard): StepKit {
  const { page, signal } = ctx;
  const deadline = Date.now() + ctx.timeout;
  const left = () => Math.max(1, deadline - Date.now());
  const find = (target: string, kind: TargetKind, role?: TargetRole, within?: Region) =>
    locate(page, target, kind, left(), role, signal, within).then((found) => noted(ctx, found));
  const kit: StepKit = {
    ...ctx,
    clipboard,
    deadline,
    left,
    find,
    regionOf: async (name) => (name === undefined ? undefined : locateRegion(page, name, left(), signal)),
    placeOf: (name) => locateRegion(page, name, left(), signal, true),
    inName: (within) => (within ? ` in "${within.name}"` : ''),
    findRevealing: (target, kind, role, within) =>
      findRevealing(kit, target, kind, role, within).then((found) => noted(ctx, found)),
    roleIn: (within, role) => roleIn(kit, within, role).then((found) => noted(ctx, found)),
  };
  return kit;
}

async function noted(ctx: StepContext, found: Found): Promise<Found> {
  await ctx.noteElement?.(found.locator);
  return found;
}

async function findRevealing(
  kit: StepKit,
  target: string,
  kind: TargetKind,
  role?: TargetRole,
  within?: Region,
): Promise<Found> {
  const { page, signal } = kit;
  const now = await locate(page, target, kind, 0, role, signal, within).catch((error: unknown) => {
    if (error instanceof AbortedError) throw error;
    return null;
  });
  if (now) return now;
  // Without a region: a button or link that is there but hidden, in an item, is revealed by its item.
  const item =
    within?.locator ??
    (kind === 'check' ? null : await untraced(page, () => hiddenControlItem(page, target, role)));
  if (item) {
    await kit.beforeChange();
    await item.hover({ timeout: kit.left() });
  }
  // Not `kit.find`: the caller notes the element found (`noted`), once.
  return locate(page, target, kind, kit.left(), role, signal, within);
}

async function roleIn(kit: StepKit, within: Region, role: TargetRole): Promise<Found> {
  const boxes = within.locator.getByRole(role).filter({ visible: true });
  let hovered = false;
  const ok = await poll(
    async () => {
      if ((await untraced(boxes, () => boxes.count())) > 0) return true;
      if (!hovered) {
        hovered = true;
        await kit.beforeChange();
        await within.locator.hover({ timeout: kit.left() });
      }
      return false;
    },
    kit.left(),
    kit.signal,
  );
  if (!ok) throw new Error(`No visible ${role} in "${within.name}" on ${kit.page.url()}`);
  // "The button in <row>" names the one with no name of its own (an icon) when the row also has
  // named ones ("Mark as paid"): those are named by their text.
  if (role !== 'button') return { locator: boxes.first(), selector: `${within.selector} >> role=${role}` };
  const nameless = await untraced(boxes, () => boxes.evaluateAll(namelessIndex));
  if (nameless <= 0) return { locator: boxes.first(), selector: `${within.selector} >> role=${role}` };
  return {
    locator: boxes.nth(nameless),
    selector: `${within.selector} >> role=${role} >> nth=${nameless}`,
  };
}
