import type { CandidateAction } from '../candidates';
import type { PageSnapshot } from '../snapshot';
import { strip } from './actions';
import type { Exploration } from './exploration';
import { tryAction } from './try-action';
import type { State } from './types';

/**
 * The site's other pages that show the list's data (a summary, totals per category): each opened
 * once before the first item is added and again after, so a page that keeps what it first showed
 * is told from one that follows the data. Pages the adder's form or the list are on are left out.
 */
export async function revisitPages(x: Exploration, one: State, list: PageSnapshot): Promise<void> {
  const seen = new Set([strip(x.pages.url), strip(list.url)]);
  // The item just added links to its own page, which did not exist before: not a page to revisit.
  const added = one.setup.flatMap((a) => (a.value ? [a.value.toLowerCase()] : []));
  const pages = list.controls.filter((c) => {
    if (added.some((v) => c.name.toLowerCase().includes(v))) return false;
    // A link that is all its list entry holds (a nav bar's) belongs to the page.
    if (c.role !== 'link' || (c.item !== null && c.item !== c.name) || !c.href || c.leaves || !c.name)
      return false;
    const to = new URL(c.href);
    if (to.origin !== new URL(x.pages.url).origin || seen.has(strip(c.href))) return false;
    // With data shared by every session, an item's own page (/tickets/1) shows data another test
    // may change: it is not a page that follows the list.
    if (
      x.options.sharedState &&
      to.pathname.split('/').some((part) => /^\d+$|^[0-9a-f-]{32,36}$/i.test(part))
    )
      return false;
    seen.add(strip(c.href));
    return true;
  });
  for (const [i, link] of pages.slice(0, 2).entries()) {
    if (x.budget.out || x.maxDepth < one.depth + 1)
      return x.budget.skip(pages.slice(i, 2).map((p) => `${p.name} after a change`));
    const visit = (description: string): CandidateAction => ({
      kind: 'link',
      description,
      steps: [{ verb: 'navigate', url: link.href! }],
      control: { role: 'link', name: link.name, item: null, type: 'page' },
      scope: 'page',
      signature: `revisit|${link.name}`,
    });
    const back: CandidateAction = {
      kind: 'link',
      description: 'go back to the start page',
      steps: [{ verb: 'navigate', url: x.pages.url }],
      control: { role: 'link', name: 'start page', item: null, type: 'page' },
      scope: 'page',
      signature: 'back|start',
    };
    const before: State = {
      setup: [visit(`open ${JSON.stringify(link.name)}`), back, ...one.setup],
      depth: one.depth + 1,
    };
    await tryAction(x, before, visit(`open ${JSON.stringify(link.name)} again after the change`));
  }
}
