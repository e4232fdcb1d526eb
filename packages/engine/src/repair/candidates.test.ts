import { describe, expect, it } from 'vitest';
import { type CandidateContext, findCandidates } from './candidates';
import type { PageControl, PageTexts } from './page-controls';

let nextId = 0;
const control = (role: string, name: string, extra: Partial<PageControl> = {}): PageControl => ({
  id: nextId++,
  role,
  name,
  tag: role === 'radio' ? 'input' : role === 'link' ? 'a' : 'button',
  type: role === 'radio' ? 'radio' : '',
  disabled: false,
  collapsed: false,
  form: null,
  near: {},
  refs: [],
  href: null,
  inItem: false,
  inRegion: false,
  key: null,
  ...extra,
});
const page = (controls: PageControl[], texts: string[] = []): PageTexts => ({
  path: '/',
  title: 'Shelf',
  controls,
  region: false,
  texts,
});
const context = (extra: Partial<CandidateContext> = {}): CandidateContext => ({
  failedIndex: 3,
  stepCount: 8,
  lastRole: null,
  lastUrl: null,
  nameRequired: false,
  isCheck: false,
  effect: { ledTo: null, urlChecks: [] },
  ...extra,
});
const rename = { from: 'Everything', to: 'All books', seenIn: 'The Everything link opens #/' };

describe('findCandidates', () => {
  it("takes the field that keeps the form field name the step's field had, whatever its label now", () => {
    const shown = page([
      control('searchbox', 'Look for', { tag: 'input', key: { id: 'search' } }),
      control('textbox', 'What is it?', { tag: 'input', key: { id: 'what', name: 'description' } }),
      control('spinbutton', 'Cost', { tag: 'input', key: { id: 'cost', name: 'amount' } }),
    ]);
    const found = findCandidates(
      { want: 'field', name: 'Description' },
      shown,
      context({ nameRequired: true, lastElement: { id: 'description', name: 'description' } }),
    );
    expect(found.map((c) => c.name)).toEqual(['What is it?']);
    expect(found[0].signals).toContain('the same field name as when the case last passed ("description")');
  });

  it('takes the one submit button of a form for a click right after the case filled a form, and only then', () => {
    const shown = page([
      control('link', 'Entries'),
      control('link', 'Discard', { form: '' }),
      control('button', 'Record it', { type: 'submit', form: '' }),
    ]);
    const target = { want: 'clickable' as const, name: 'Add expense' };
    const found = findCandidates(target, shown, context({ afterFormInput: true }));
    expect(found[0]).toMatchObject({ name: 'Record it', weak: false });
    expect(found[0].signals).toContain(
      'the only submit button of a form, after the case filled one, on the page',
    );
    expect(findCandidates(target, shown, context()).find((c) => !c.weak)).toBeUndefined();
  });

  it("takes only a control of the role the step's element had when the case passes without the step", () => {
    const shown = page([
      control('link', 'Discard', { form: '', href: 'http://app.test/' }),
      control('button', 'Record it', { type: 'submit', form: '' }),
    ]);
    const found = findCandidates(
      { want: 'clickable', name: 'Add expense', role: 'button' },
      shown,
      context({
        afterFormInput: true,
        roleRequired: 'button',
        effect: { ledTo: 'http://app.test/', urlChecks: [] },
      }),
    );
    expect(found.map((c) => c.name)).toEqual(['Record it']);
  });

  it('takes the one link that still leads where the checked link led, for a check naming it, and not when two do', () => {
    const nav = [
      control('link', 'Entries', { key: { href: '/' } }),
      control('link', 'New entry', { key: { href: '/new' } }),
      control('heading', 'All entries'),
    ];
    const target = { want: 'element' as const, name: 'Expenses' };
    const check = context({ nameRequired: true, isCheck: true, lastElement: { href: '/' } });
    const found = findCandidates(target, page(nav), check);
    expect(found.map((c) => c.name)).toEqual(['Entries']);
    expect(found[0].signals).toContain('the same link address as when the case last passed ("/")');
    const withHome = page([...nav, control('link', 'Household ledger', { key: { href: '/' } })]);
    expect(findCandidates(target, withHome, check)).toEqual([]);
  });

  it("ignores an attribute more than one control shares (a radio group's name, a test id per item)", () => {
    const shown = page([
      control('radio', 'Paid', { key: { name: 'paid' } }),
      control('radio', 'Unpaid', { key: { name: 'paid' } }),
    ]);
    const found = findCandidates(
      { want: 'check', name: 'Settled' },
      shown,
      context({ nameRequired: true, lastElement: { name: 'paid' } }),
    );
    expect(found).toEqual([]);
  });

  it('takes a radio button for a link that switched a view (the views turned into a radio group)', () => {
    const shown = page([
      control('radio', 'To read now'),
      control('button', 'Put away read books', { near: {} }),
    ]);
    const found = findCandidates({ want: 'clickable', name: 'To read', role: 'link' }, shown, context());
    expect(found.map((c) => `${c.role} ${c.name}`)).toContain('radio To read now');
  });

  it('puts first, whatever its role now, the control a rename proved elsewhere names; even for a check that names a role', () => {
    const shown = page([
      control('radio', 'All books'),
      control('radio', 'Unread'),
      control('link', 'Everything else'),
    ]);
    const found = findCandidates(
      { want: 'element', name: 'Everything', role: 'link' },
      shown,
      context({ isCheck: true, nameRequired: true, renamed: { name: 'All books', rename } }),
    );
    expect(found[0]).toMatchObject({ name: 'All books', role: 'radio' });
    expect(found[0].signals[0]).toBe(
      'renamed the same way in case "The Everything link opens #/" ("Everything" → "All books")',
    );
  });

  it('offers a renamed text only when the page shows it, and never a control another step uses', () => {
    const renamed = {
      name: 'Finished them all',
      rename: { ...rename, from: 'Mark all as read', to: 'Finished them all' },
    };
    const text = { want: 'text' as const, name: 'Mark all as read' };
    expect(
      findCandidates(text, page([], ['Finished them all']), context({ isCheck: true, renamed }))[0],
    ).toMatchObject({
      name: 'Finished them all',
      score: 2,
    });
    expect(findCandidates(text, page([], ['Something else']), context({ isCheck: true, renamed }))).toEqual(
      [],
    );
    const used = page([control('button', 'Finished them all', { refs: [5] })]);
    const clicked = findCandidates(
      { want: 'clickable', name: 'Mark all as read' },
      used,
      context({ renamed }),
    );
    expect(clicked.some((c) => c.name === 'Finished them all')).toBe(false);
  });
});
