import { type VisualElementMask, VisualElementMaskSchema } from '@argus/protocol';

// A check's element masks (docs/VISUAL-CHECKS.md, "Baselines"): an element named by its text, its ARIA
// role, or both, found on the page at each check. Their words, the add form's fields and its checks,
// adding and removing. No React here.

/** Most element masks a check keeps (`VisualCheckSettingsSchema`). */
export const MAX_ELEMENT_MASKS = 20;

/** The Role select's roles ('' first: any role). */
export const ELEMENT_ROLES = [
  'img',
  'button',
  'link',
  'heading',
  'banner',
  'navigation',
  'region',
  'dialog',
  'textbox',
  'listitem',
  'figure',
  'video',
] as const;

/** The Role select's options: 'Any role' (none), then the roles. */
export const ROLE_OPTIONS: { value: string; label: string }[] = [
  { value: '', label: 'Any role (by text only)' },
  ...ELEMENT_ROLES.map((role) => ({ value: role, label: role })),
];

export interface ElementMaskFields {
  text: string;
  role: string;
}

export const EMPTY_ELEMENT_FIELDS: ElementMaskFields = { text: '', role: '' };

/** `text “Today's offer”`, `role img`, `role button with text “Buy”`. */
export function elementMaskText(mask: VisualElementMask): string {
  const text = mask.text !== undefined ? `text “${mask.text}”` : undefined;
  if (mask.role !== undefined) return text ? `role ${mask.role} with ${text}` : `role ${mask.role}`;
  return text ?? '';
}

/** Whether the add form names anything yet (a text or a role): Add stays disabled until it does. */
export function canAddElementMask(fields: ElementMaskFields): boolean {
  return fields.text.trim() !== '' || fields.role.trim() !== '';
}

/** The text compared as the page is searched: case and spacing aside. */
const looseText = (text: string | undefined) => text?.replace(/\s+/g, ' ').trim().toLowerCase();

/** Whether two element masks name the same elements (same role, same text case and spacing aside). */
export function sameElementMask(a: VisualElementMask, b: VisualElementMask): boolean {
  return a.role === b.role && looseText(a.text) === looseText(b.text);
}

/** Whether two lists are the same element masks in the same order (for Save: anything changed?). */
export function sameElementMasks(a: readonly VisualElementMask[], b: readonly VisualElementMask[]): boolean {
  return a.length === b.length && a.every((m, i) => m.text === b[i].text && m.role === b[i].role);
}

/**
 * The add form's mask, checked by `VisualElementMaskSchema` (its message when it is not one), and
 * against the list it joins: not one it has, not past MAX_ELEMENT_MASKS.
 */
export function parseElementMask(
  fields: ElementMaskFields,
  existing: readonly VisualElementMask[] = [],
): { mask: VisualElementMask; error?: undefined } | { mask?: undefined; error: string } {
  const input: { text?: string; role?: string } = {};
  if (fields.text.trim() !== '') input.text = fields.text;
  if (fields.role.trim() !== '') input.role = fields.role;
  const parsed = VisualElementMaskSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === 'text' && issue.code === 'too_big')
      return { error: 'A text of at most 200 characters' };
    return { error: issue?.message ?? 'Name a text, a role, or both' };
  }
  const mask: VisualElementMask = {};
  if (parsed.data.text !== undefined) mask.text = parsed.data.text;
  if (parsed.data.role !== undefined) mask.role = parsed.data.role;
  if (existing.some((m) => sameElementMask(m, mask)))
    return { error: `Already masked: ${elementMaskText(mask)}` };
  if (existing.length >= MAX_ELEMENT_MASKS) return { error: `At most ${MAX_ELEMENT_MASKS} element masks` };
  return { mask };
}

/** The list with `mask` added at its end (unchanged when full or when it has it already). */
export function addElementMask(
  list: readonly VisualElementMask[],
  mask: VisualElementMask,
): VisualElementMask[] {
  if (list.length >= MAX_ELEMENT_MASKS || list.some((m) => sameElementMask(m, mask))) return [...list];
  return [...list, mask];
}

/** The list without its `index`th mask. */
export function removeElementMask(list: readonly VisualElementMask[], index: number): VisualElementMask[] {
  return list.filter((_, i) => i !== index);
}
