import type { SnapshotControl } from '@argus/engine';

const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'on', 'in', 'for', 'my', 'your', 'our', 'and', 'page']);

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^a-z0-9@.'\s-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const stem = (w: string) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

function words(s: string): string[] {
  return (norm(s).match(/[a-z0-9@.']+/g) ?? [])
    .map((w) => stem(w.replace(/^'+|'+$|\.+$/g, '')))
    .filter((w) => w !== '' && !STOP.has(w));
}

/**
 * How well a name on the page answers to what someone typed, 0–1: 1 for the same text, high when the
 * name holds the whole phrase, lower as fewer of the typed words are in it (or it says much more).
 */
export function similarity(name: string, target: string): number {
  const n = norm(name);
  const t = norm(target);
  if (!n || !t) return 0;
  if (n === t) return 1;
  const tw = words(target);
  const nw = words(name);
  if (tw.length === 0 || nw.length === 0) return 0;
  if (tw.join(' ') === nw.join(' ')) return 0.95;
  if (` ${n} `.includes(` ${t} `)) return 0.7 + 0.2 * (t.length / n.length);
  const shared = tw.filter((w) => nw.includes(w)).length;
  if (shared === 0) return 0;
  const recall = shared / tw.length;
  const precision = shared / nw.length;
  return 0.6 * recall * (0.5 + 0.5 * precision);
}

/** The words of a link's address that name a page ('…/pricing-plans.html' → 'pricing plans'). */
export function hrefWords(href: string | null): string {
  if (!href) return '';
  try {
    const url = new URL(href);
    const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
    return last.replace(/\.[a-z0-9]+$/i, '').replace(/[-_+]+/g, ' ');
  } catch {
    return '';
  }
}

export const MATCH_THRESHOLD = 0.3;

/** The controls that answer best to `target`, best first (ties keep page order). */
export function rank<T>(items: T[], score: (item: T) => number): { item: T; score: number }[] {
  return items
    .map((item, index) => ({ item, score: score(item), index }))
    .filter((r) => r.score >= MATCH_THRESHOLD)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ item, score }) => ({ item, score }));
}

export const TEXT_FIELD_TYPES = new Set([
  'text',
  'search',
  'email',
  'password',
  'tel',
  'url',
  'number',
  'textarea',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
]);

/** A field one types into. */
export function isTextField(c: SnapshotControl): boolean {
  if (c.options.length > 0 || c.type === 'select') return false;
  return (
    ['textbox', 'searchbox', 'spinbutton'].includes(c.role) ||
    (TEXT_FIELD_TYPES.has(c.type) && !['button', 'checkbox', 'radio', 'link'].includes(c.role))
  );
}

/** Names a list of things briefly: "Home", "Products", … (and 4 more). */
export function listNames(names: string[], max = 10): string {
  const unique = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  const shown = unique.slice(0, max).map((n) => `"${n.slice(0, 60)}"`);
  const more = unique.length - shown.length;
  return shown.join(', ') + (more > 0 ? ` and ${more} more` : '');
}
