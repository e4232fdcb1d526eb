/**
 * How close two accessible names are, as a person reading them would judge: the same words (whole
 * words, letter case and simple endings aside: "Tasks" is "task", "Adding" is "add"), or the same
 * spelling give or take a few letters ("E-mail" and "Email"). 0 (nothing in common) to 1 (the same).
 * Structure, not the name, finds a renamed control with no word in common (candidates.ts).
 */
export function nameSimilarity(a: string, b: string, context?: string): number {
  // Both named after the same item ("Decrease quantity of Socks", "Fewer Socks"): compare the rest.
  if (context) {
    const strip = (s: string) =>
      s.replace(new RegExp(context.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'ig'), ' ').trim();
    const [ra, rb] = [strip(a), strip(b)];
    if (ra !== a.trim() && rb !== b.trim() && ra && rb) return nameSimilarity(ra, rb);
  }
  const x = normal(a);
  const y = normal(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  return Math.max(wordOverlap(x, y), spelling(x, y));
}

/** The words of a name, each cut to its stem. */
export function stems(name: string): string[] {
  return normal(name)
    .split(' ')
    .filter((w) => w.length > 0)
    .map(stem);
}

function normal(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A light English stemmer: enough for plural and verb endings, never below three letters. */
function stem(word: string): string {
  for (const ending of ['ing', 'ies', 'ed', 'es', 's']) {
    if (word.length - ending.length >= 3 && word.endsWith(ending)) {
      const base = word.slice(0, -ending.length);
      return ending === 'ies' ? `${base}y` : base;
    }
  }
  return word;
}

/** Shared stems over the words of both names (Jaccard), small words counting as much as long ones. */
function wordOverlap(x: string, y: string): number {
  const a = new Set(stems(x));
  const b = new Set(stems(y));
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * 1 − edit distance / longer length, with spaces ignored, for names of about the same length (a typo,
 * a hyphen, a different ending): a name inside a much longer one ("Completed", "Clear completed") is a
 * different name, which the word overlap judges.
 */
function spelling(x: string, y: string): number {
  const a = x.replace(/ /g, '');
  const b = y.replace(/ /g, '');
  const longer = Math.max(a.length, b.length);
  if (longer === 0 || Math.min(a.length, b.length) / longer < 0.75) return 0;
  // Long names differ by their words (the word overlap's job); spelling is for a word or two.
  if (x.split(' ').length > 2 || y.split(' ').length > 2) return 0;
  return 1 - editDistance(a, b) / longer;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = row;
  }
  return previous[b.length];
}
