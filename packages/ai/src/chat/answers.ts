import type { BrowserSession, PageObservation, PageSnapshot } from '@argus/engine';
import { q } from '@argus/protocol';
import { describeWhere, mainHeading } from './chat-common';
import { listNames, rank, similarity } from './match';

/** What the built-in engine answers about: said when a question is none of these. */
const QUESTIONS_HELP =
  'Without an AI model I can tell you where you are, what is on the page, its headings, links, buttons and forms, how many of them there are, and whether something is there ("is there a sign in button?"). An LLM engine (Settings) answers anything about the page.';

const ROLE_WORDS: Record<string, string[]> = {
  button: ['button'],
  link: ['link'],
  field: ['textbox', 'searchbox', 'combobox', 'spinbutton'],
  box: ['textbox', 'searchbox', 'checkbox'],
  input: ['textbox', 'searchbox', 'spinbutton'],
  checkbox: ['checkbox'],
  dropdown: ['combobox', 'listbox'],
  menu: ['combobox', 'menuitem'],
  tab: ['tab'],
};

/**
 * Answers a question about the page from what the engine observes (title, URL, headings, links,
 * buttons, forms, visible texts): a few lines, no action. A question it has no rule for gets an honest
 * answer saying what it can tell.
 */
export async function answerQuestion(
  session: BrowserSession,
  question: string,
  signal?: AbortSignal,
): Promise<string> {
  const observation = await session.observe({ signal });
  const snapshot = await session.snapshot({ signal });
  return answerFrom(question, observation, snapshot);
}

export function answerFrom(question: string, page: PageObservation, snapshot: PageSnapshot): string {
  const text = question
    .trim()
    .toLowerCase()
    .replace(/[?!.]+$/, '')
    .replace(/^(?:(?:please|hey|ok|so),?\s+)+/, '');
  const heading = mainHeading(page);
  const where = `You are on ${describeWhere({ title: page.title, url: page.url, heading })}.`;

  const exists =
    /^(?:is there|are there|do you see|can you see|can i see|can you find|can i find|is there any|does (?:it|the page|this page|the site) (?:have|show|contain|offer)|do (?:they|we) have|has (?:it|the page) got)\s+(?:an?\s+|any\s+|some\s+|the\s+)?(.+?)(?:\s+(?:on|in) (?:this|the) (?:page|site|screen)|\s+here)?$/.exec(
      text,
    );
  if (exists) return existence(exists[1], page, snapshot);

  const howMany = /^how many\s+(\w+)/.exec(text);
  if (howMany) return counting(howMany[1], page, snapshot);

  if (
    /\b(?:where am i|what(?:'s| is) (?:the |this )?(?:url|address|current page)|which page|what page)\b/.test(
      text,
    )
  )
    return where;
  if (/\btitle\b/.test(text)) return `The page title is ${q(page.title)}.`;
  if (/\bheadings?\b|\bheadlines?\b/.test(text)) return headings(page);
  if (/\blinks?\b/.test(text)) return links(page);
  if (/\bbuttons?\b/.test(text)) return buttons(page);
  if (/\b(?:forms?|fields?|inputs?)\b/.test(text)) return forms(page);
  if (
    /\bwhat can (?:i|you|we) do\b|\bwhat (?:can|could|should) i (?:try|ask)\b|\bwhat do you understand\b|\bhelp\b/.test(
      text,
    )
  )
    return possibilities(page, snapshot);
  if (
    /\bwhat(?:'s| is)? (?:on|in) (?:this|the) (?:page|screen|site)\b|\bwhat do you see\b|\bdescribe\b|\bsummar|\boverview\b|\bwhat(?:'s| is) (?:here|this)\b|\bwhat(?:'s| is) (?:this|the) (?:page|site) about\b|\bwhat does (?:the|this) page (?:show|say)\b|\bwhat am i looking at\b/.test(
      text,
    )
  )
    return summary(page);
  return `I cannot answer "${question.trim().slice(0, 200)}" from the page without an AI model. ${where}\n${QUESTIONS_HELP}`;
}

/** The links a person would follow: no skip links, no jumps within the page. */
function realLinks(page: PageObservation): PageObservation['links'] {
  const here = page.url.split('#')[0];
  return page.links.filter(
    (l) => l.text.trim() !== '' && !/^skip to\b/i.test(l.text) && l.href.split('#')[0] !== here,
  );
}

/** The main headings (h1, h2), else all of them. */
function mainHeadings(page: PageObservation): string[] {
  const main = page.headings.filter((h) => h.level <= 2);
  return (main.length ? main : page.headings).map((h) => h.text);
}

function headings(page: PageObservation): string {
  if (page.headings.length === 0) return `This page has no headings; its title is ${q(page.title)}.`;
  const main = mainHeading(page);
  const others = mainHeadings(page).filter((h) => h !== main);
  return `The main heading says ${q(main ?? '')}.${others.length ? ` Other headings: ${listNames(others, 8)}.` : ''}`;
}

function links(page: PageObservation): string {
  const all = realLinks(page);
  if (all.length === 0) return 'This page has no links.';
  const nav = all.filter((l) => l.inNav).map((l) => l.text);
  const other = all.filter((l) => !l.inNav).map((l) => l.text);
  const parts = [
    nav.length ? `In the navigation: ${listNames(nav, 12)}.` : '',
    other.length ? `${nav.length ? 'Elsewhere' : 'Links'}: ${listNames(other, 10)}.` : '',
  ].filter(Boolean);
  return `${all.length} link${all.length === 1 ? '' : 's'} on this page. ${parts.join(' ')}`;
}

function buttons(page: PageObservation): string {
  return page.buttons.length
    ? `Buttons on this page: ${listNames(page.buttons, 12)}.`
    : 'There are no buttons on this page.';
}

function formLine(form: PageObservation['forms'][number]): string {
  const kind = form.isSearch ? 'a search form' : form.hasPassword ? 'a sign-in form' : 'a form';
  const fields = form.fields.map((f) => f.label || f.name).filter(Boolean);
  return `${kind}${form.name ? ` (${q(form.name)})` : ''} with ${fields.length ? listNames(fields, 8) : 'no fields'}${form.submit ? ` and a ${q(form.submit)} button` : ''}`;
}

function forms(page: PageObservation): string {
  if (page.forms.length === 0) return 'There is no form on this page.';
  return `On this page: ${page.forms.map(formLine).join('; ')}.`;
}

function summary(page: PageObservation): string {
  const lines = [`This is ${describeWhere({ title: page.title, url: page.url, heading: null })}.`];
  if (page.headings.length)
    lines.push(
      `Headings: ${listNames(
        page.headings.map((h) => h.text),
        6,
      )}.`,
    );
  const nav = page.links.filter((l) => l.inNav).map((l) => l.text);
  const other = page.links.filter((l) => !l.inNav).map((l) => l.text);
  if (nav.length) lines.push(`Navigation: ${listNames(nav, 10)}.`);
  if (other.length) lines.push(`Other links: ${listNames(other, 6)}.`);
  if (page.buttons.length) lines.push(`Buttons: ${listNames(page.buttons, 8)}.`);
  if (page.forms.length) lines.push(`Forms: ${page.forms.map(formLine).join('; ')}.`);
  if (page.tables.length)
    lines.push(
      `Tables: ${page.tables.map((t) => `${t.caption ? q(t.caption) : 'a table'} (${t.rows.length} rows)`).join(', ')}.`,
    );
  return lines.join('\n');
}

function possibilities(page: PageObservation, snapshot: PageSnapshot): string {
  const lines = [`On ${q(page.title || page.url)} you can:`];
  const here = realLinks(page).filter((l) => l.sameOrigin);
  const links = [...here.filter((l) => l.inNav), ...here.filter((l) => !l.inNav)].map((l) => l.text);
  const example =
    here.find((l) => l.inNav && l.href !== page.url && !/^home$/i.test(l.text))?.text ?? links[0];
  if (links.length) lines.push(`- follow a link: ${listNames(links, 8)} (say "go to the ${example} page")`);
  for (const form of page.forms.slice(0, 3)) {
    const field = form.fields.find((f) => f.tag !== 'select')?.label;
    lines.push(
      `- fill ${formLine(form)}${form.isSearch ? ' (say "search for …")' : field ? ` (say "fill the ${field} with …")` : ''}`,
    );
  }
  const loose = page.buttons.filter((b) => !page.forms.some((f) => f.submit === b));
  if (loose.length) lines.push(`- press a button: ${listNames(loose, 8)} (say "click ${loose[0]}")`);
  if (snapshot.items.some((i) => i.checked !== null)) lines.push('- tick an item ("check <its text>")');
  lines.push('- scroll, go back, reload, or ask what is on the page.');
  return lines.join('\n');
}

function counting(what: string, page: PageObservation, snapshot: PageSnapshot): string {
  const w = what.replace(/s$/, '');
  const n = (count: number, noun: string) =>
    `There ${count === 1 ? 'is' : 'are'} ${count} ${noun}${count === 1 ? '' : 's'} on this page.`;
  if (w === 'link') return n(realLinks(page).length, 'link');
  if (w === 'button') return n(page.buttons.length, 'button');
  if (w === 'heading') return n(page.headings.length, 'heading');
  if (w === 'form') return n(page.forms.length, 'form');
  if (w === 'image' || w === 'picture') return n(page.images.length, 'image');
  if (w === 'field' || w === 'input')
    return n(
      page.forms.reduce((s, f) => s + f.fields.length, 0),
      'field',
    );
  if (w === 'item' || w === 'product' || w === 'row' || w === 'result')
    return n(snapshot.items.length, 'item');
  return `I cannot count "${what}" without an AI model; I can count links, buttons, headings, forms, fields, images and items.`;
}

function existence(phrase: string, page: PageObservation, snapshot: PageSnapshot): string {
  let words = phrase.trim();
  let roles: string[] | undefined;
  const role = /\s+(button|link|field|box|input|checkbox|dropdown|menu|tab)s?$/.exec(words);
  if (role) {
    roles = ROLE_WORDS[role[1]];
    words = words.slice(0, role.index).trim();
  }
  words = words.replace(/^["'“‘]|["'”’]$/g, '');
  if (!words && roles) {
    const found = snapshot.controls.filter((c) => roles?.includes(c.role));
    return found.length
      ? `Yes: ${listNames(
          found.map((c) => `${c.name}`),
          8,
        )}.`
      : `No, I see no ${role?.[1]} on this page.`;
  }
  const controls = [...snapshot.controls, ...snapshot.hiddenControls].filter(
    (c) => !roles || roles.includes(c.role),
  );
  const control = rank(controls, (c) => similarity(c.name, words))[0];
  if (control && control.score >= 0.6) {
    const c = control.item;
    const kind = c.role === 'textbox' || c.role === 'searchbox' ? 'field' : c.role;
    return `Yes: a ${kind} ${q(c.name)}${c.item ? ` (in ${q(c.item)})` : ''}${c.disabled ? ', disabled' : ''}.`;
  }
  if (!roles) {
    const heading = rank(page.headings, (h) => similarity(h.text, words))[0];
    if (heading && heading.score >= 0.6) return `Yes: the heading ${q(heading.item.text)}.`;
    const text = rank(snapshot.texts, (t) => similarity(t.text, words))[0];
    if (text && text.score >= 0.6) return `Yes, the page shows ${q(text.item.text.slice(0, 160))}.`;
  }
  // Something of another kind by that name ('a search box?' on a page with a Search link).
  const other = rank([...snapshot.controls, ...snapshot.hiddenControls], (c) => similarity(c.name, words))[0];
  const near =
    other && other.score >= 0.6
      ? ` There is a ${other.item.role} ${q(other.item.name)}.`
      : control
        ? ` The closest is ${q(control.item.name)}.`
        : '';
  return `No, I see no ${q(words)}${role ? ` ${role[1]}` : ''} on this page.${near}`;
}
