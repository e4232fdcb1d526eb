import type { PageSnapshot, SnapshotControl } from '@argus/engine';
import { q, TargetRoleSchema } from '@argus/protocol';

/** The page as a model reads it: numbered controls, the visible texts, and how each number maps back. */
export interface PageView {
  text: string;
  controls: SnapshotControl[];
}

const MAX_CONTROLS = 150;
const MAX_TEXTS = 120;

/**
 * An indexed snapshot: `[3] button "Add to cart" (in "Blue shirt")`. Controls hidden until their item
 * is hovered are listed too; the engine reveals them when it acts.
 */
export function pageView(snapshot: PageSnapshot): PageView {
  const controls = [...snapshot.controls, ...snapshot.hiddenControls].slice(0, MAX_CONTROLS);
  const lines = controls.map((c, i) => {
    const extras = [
      c.item ? `in ${q(c.item)}` : '',
      c.value ? `value ${q(c.value.slice(0, 60))}` : '',
      c.checked === null ? '' : c.checked ? 'checked' : 'unchecked',
      c.disabled ? 'disabled' : '',
      c.options.length ? `options: ${c.options.slice(0, 12).map(q).join(', ')}` : '',
      c.href && c.role === 'link' ? `→ ${c.href.slice(0, 100)}` : '',
      ...c.states.slice(0, 3),
    ].filter(Boolean);
    return `[${i}] ${c.role} ${q(c.name.slice(0, 80))}${extras.length ? ` (${extras.join(', ')})` : ''}`;
  });
  const texts = snapshot.texts
    .slice(0, MAX_TEXTS)
    .map((t) => `- ${t.text.slice(0, 120)}`)
    .join('\n');
  const text = [
    `URL: ${snapshot.url}`,
    `Title: ${snapshot.title}`,
    snapshot.dialogs.length ? `Open dialogs: ${snapshot.dialogs.join(', ')}` : '',
    snapshot.focused
      ? `Focused field: ${q(snapshot.focused.label)} (value ${q(snapshot.focused.value)})`
      : '',
    `Interactive elements:\n${lines.join('\n') || '(none)'}`,
    `Visible text:\n${texts || '(none)'}`,
  ]
    .filter(Boolean)
    .join('\n');
  return { text, controls };
}

const ROLES = new Set<string>(TargetRoleSchema.options);

/** Whether another control shares this one's role and name (so the line names its item too). */
function ambiguous(controls: SnapshotControl[], control: SnapshotControl): boolean {
  return controls.filter((c) => c.role === control.role && c.name === control.name).length > 1;
}

function where(controls: SnapshotControl[], control: SnapshotControl): string {
  return control.item && ambiguous(controls, control) ? ` in ${q(control.item)}` : '';
}

/**
 * A control as the step language names it, most robust first: its role and accessible name
 * ('button "Add to cart"'), narrowed to its item when the name repeats; its text otherwise.
 */
export function clickLine(controls: SnapshotControl[], control: SnapshotControl): string {
  const role = ROLES.has(control.role) ? `${control.role} ` : '';
  return `Click ${role}${q(control.name)}${where(controls, control)}`;
}

export function hoverLine(controls: SnapshotControl[], control: SnapshotControl): string {
  return `Hover ${q(control.name)}${where(controls, control)}`;
}

/** A field is named by its label (the name the snapshot gives it: label, aria-label, placeholder). */
export function fillLine(control: SnapshotControl, value: string): string {
  return `Fill ${q(control.name)} with ${q(value)}`;
}

export function selectLine(control: SnapshotControl, option: string): string {
  return `Select ${q(option)} from ${q(control.name)}`;
}

export function checkLine(controls: SnapshotControl[], control: SnapshotControl, checked: boolean): string {
  return `${checked ? 'Check' : 'Uncheck'} ${q(control.name)}${where(controls, control)}`;
}
