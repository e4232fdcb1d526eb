/** Text as compared: Unicode-normalised, lower case, punctuation and runs of space folded to one space. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const MAX_EDIT_LENGTH = 400;

/** Levenshtein distance (two rows), on at most the first 400 characters of each. */
export function levenshtein(a: string, b: string): number {
  const s = a.slice(0, MAX_EDIT_LENGTH);
  const t = b.slice(0, MAX_EDIT_LENGTH);
  if (s === t) return 0;
  if (!s.length) return t.length;
  if (!t.length) return s.length;
  let previous = Array.from({ length: t.length + 1 }, (_, i) => i);
  let current = new Array<number>(t.length + 1);
  for (let i = 1; i <= s.length; i++) {
    current[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[t.length];
}

/**
 * How alike two texts read, 0..1: the best of the edit-distance ratio and the token overlap (Dice, for texts of 3+ words), on
 * normalised text; a text wholly inside the other scores the share of the longer one it covers.
 */
export function textSimilarity(a: string, b: string): number {
  const x = normaliseText(a);
  const y = normaliseText(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  const longer = Math.max(x.length, y.length);
  const shorter = Math.min(x.length, y.length);
  const edit = 1 - levenshtein(x, y) / Math.min(longer, MAX_EDIT_LENGTH);
  const xs = new Set(x.split(' '));
  const ys = new Set(y.split(' '));
  let shared = 0;
  for (const token of xs) if (ys.has(token)) shared++;
  // Token overlap only for texts of a few words: for one or two words it would let a parent that holds
  // 'Acme Pricing' pass for the 'Pricing' inside it.
  const dice = Math.min(xs.size, ys.size) >= 3 ? (2 * shared) / (xs.size + ys.size) : 0;
  const contained = x.includes(y) || y.includes(x) ? shorter / longer : 0;
  return Math.max(0, Math.min(1, Math.max(edit, dice, contained)));
}
