import type { PageSnapshot, SnapshotControl, SnapshotItem, SnapshotText } from './snapshot';

/** One observable consequence of an action: what changed between two snapshots. */
export type Effect =
  | { kind: 'itemAdded'; role: string; label: string; text: string }
  | { kind: 'itemRemoved'; role: string; label: string; text: string }
  | { kind: 'countChanged'; role: string; from: number; to: number }
  | { kind: 'textChanged'; from: string; to: string; item: string | null; context: string | null }
  | { kind: 'textAdded'; text: string; item: string | null; context: string | null; caption?: boolean }
  | { kind: 'textRemoved'; text: string; item: string | null; caption?: boolean }
  | {
      kind: 'stateChanged';
      /** The item's label or the control's name. */
      target: string;
      role: string;
      /** The item it sits in (a control's), if any. */
      item: string | null;
      state: string;
      marked: boolean;
    }
  | { kind: 'checkedChanged'; name: string; role: string; item: string | null; checked: boolean }
  | { kind: 'valueChanged'; field: string; item: string | null; from: string; to: string }
  | { kind: 'controlAdded'; role: string; name: string; item: string | null }
  | { kind: 'controlRemoved'; role: string; name: string; item: string | null }
  | { kind: 'urlChanged'; from: string; to: string }
  | { kind: 'dialogOpened'; name: string }
  | { kind: 'dialogClosed'; name: string }
  | { kind: 'consoleErrors'; count: number }
  | { kind: 'failedRequests'; count: number };

export type EffectKind = Effect['kind'];

/** Roles counted for exact-count effects. */
const COUNTED = ['listitem', 'row', 'article', 'checkbox'];

const byKey = <T extends { key: string }>(list: T[]) => new Map(list.map((x) => [x.key, x]));

/**
 * What an action did: the differences between the snapshot before and the one after, as effects, in
 * a fixed order (items, counts, states, texts, fields, controls, URL, dialogs, problems). Items and
 * controls are matched by label and name, texts by their place in the page.
 */
export function diffSnapshots(before: PageSnapshot, after: PageSnapshot): Effect[] {
  const effects: Effect[] = [];
  const itemsBefore = byKey(before.items);
  const itemsAfter = byKey(after.items);
  const added: SnapshotItem[] = after.items.filter((i) => !itemsBefore.has(i.key));
  const removed: SnapshotItem[] = before.items.filter((i) => !itemsAfter.has(i.key));
  for (const i of added) effects.push({ kind: 'itemAdded', role: i.role, label: i.label, text: i.text });
  for (const i of removed) effects.push({ kind: 'itemRemoved', role: i.role, label: i.label, text: i.text });
  for (const role of COUNTED) {
    const from = before.counts[role] ?? 0;
    const to = after.counts[role] ?? 0;
    if (from !== to) effects.push({ kind: 'countChanged', role, from, to });
  }
  // States of items that stayed.
  for (const a of after.items) {
    const b = itemsBefore.get(a.key);
    if (!b) continue;
    for (const e of stateChanges(b.states, a.states)) {
      effects.push({ kind: 'stateChanged', target: a.label, role: a.role, item: a.label, ...e });
    }
  }
  // Controls: checked, states, values, appearing and going.
  const controlsBefore = byKey(before.controls);
  const controlsAfter = byKey(after.controls);
  const goneItems = new Set(removed.map((i) => i.label));
  const newItems = new Set(added.map((i) => i.label));
  for (const a of after.controls) {
    const b = controlsBefore.get(a.key);
    if (!b) {
      if (!(a.item && newItems.has(a.item))) effects.push(controlEffect('controlAdded', a));
      continue;
    }
    if (b.checked !== null && a.checked !== null && b.checked !== a.checked)
      effects.push({ kind: 'checkedChanged', name: a.name, role: a.role, item: a.item, checked: a.checked });
    for (const e of stateChanges(b.states, a.states)) {
      effects.push({ kind: 'stateChanged', target: a.name, role: a.role, item: a.item, ...e });
    }
    if (b.value !== null && a.value !== null && b.value !== a.value)
      effects.push({ kind: 'valueChanged', field: a.name, item: a.item, from: b.value, to: a.value });
  }
  for (const b of before.controls) {
    if (!controlsAfter.has(b.key) && !(b.item && goneItems.has(b.item)))
      effects.push(controlEffect('controlRemoved', b));
  }
  // Texts: changed in place, appeared, went (texts of items that came or went are the items' effects).
  const textsBefore = byKey(before.texts);
  const textsAfter = byKey(after.texts);
  const inChangedItem = (t: SnapshotText) =>
    t.item !== null && (goneItems.has(t.item) || newItems.has(t.item));
  for (const a of after.texts) {
    if (inChangedItem(a)) continue;
    const b = textsBefore.get(a.key);
    if (b && b.text !== a.text) {
      effects.push({ kind: 'textChanged', from: b.text, to: a.text, item: a.item, context: a.context });
    } else if (!b && !before.texts.some((t) => t.text === a.text && t.item === a.item)) {
      effects.push({ kind: 'textAdded', text: a.text, item: a.item, context: a.context, caption: a.caption });
    }
    if (b) {
      for (const e of stateChanges(b.states, a.states)) {
        effects.push({ kind: 'stateChanged', target: a.text, role: 'text', item: a.item, ...e });
      }
    }
  }
  for (const b of before.texts) {
    if (inChangedItem(b) || textsAfter.has(b.key)) continue;
    if (!after.texts.some((t) => t.text === b.text && t.item === b.item))
      effects.push({ kind: 'textRemoved', text: b.text, item: b.item, caption: b.caption });
  }
  if (before.url !== after.url) effects.push({ kind: 'urlChanged', from: before.url, to: after.url });
  for (const d of after.dialogs)
    if (!before.dialogs.includes(d)) effects.push({ kind: 'dialogOpened', name: d });
  for (const d of before.dialogs)
    if (!after.dialogs.includes(d)) effects.push({ kind: 'dialogClosed', name: d });
  if (after.consoleErrors > before.consoleErrors)
    effects.push({ kind: 'consoleErrors', count: after.consoleErrors - before.consoleErrors });
  if (after.failedRequests > before.failedRequests)
    effects.push({ kind: 'failedRequests', count: after.failedRequests - before.failedRequests });
  return effects;
}

function stateChanges(before: string[], after: string[]): { state: string; marked: boolean }[] {
  const out: { state: string; marked: boolean }[] = [];
  for (const s of after) if (!before.includes(s)) out.push({ state: s, marked: true });
  for (const s of before) if (!after.includes(s)) out.push({ state: s, marked: false });
  return out;
}

function controlEffect(kind: 'controlAdded' | 'controlRemoved', c: SnapshotControl): Effect {
  return { kind, role: c.role, name: c.name, item: c.item };
}

/** Effects that say the app did something (not just a field's own value, or a hover's focus ring). */
export function meaningful(effects: Effect[]): Effect[] {
  return effects.filter((e) => !(e.kind === 'valueChanged' && e.item === null && e.to !== ''));
}
