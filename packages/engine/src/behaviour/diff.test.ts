import { describe, expect, it } from 'vitest';
import { persistenceAssertions, proposeAssertions } from './assertions';
import { type CandidateAction, candidateActions } from './candidates';
import { diffSnapshots } from './diff';
import type { PageSnapshot, SnapshotControl, SnapshotItem } from './snapshot';

const item = (label: string, extra: Partial<SnapshotItem> = {}): SnapshotItem => ({
  key: `listitem:${label}`,
  role: 'listitem',
  label,
  text: label,
  states: [],
  checked: false,
  ...extra,
});
const control = (role: string, name: string, extra: Partial<SnapshotControl> = {}): SnapshotControl => ({
  key: `${role}:${name}@${extra.item ?? ''}`,
  role,
  name,
  item: null,
  checked: null,
  value: null,
  states: [],
  disabled: false,
  href: null,
  type: role === 'textbox' ? 'text' : role,
  form: null,
  options: [],
  leaves: false,
  required: false,
  near: null,
  ...extra,
});
const snapshot = (extra: Partial<PageSnapshot> = {}): PageSnapshot => ({
  url: 'http://app.test/',
  title: 'Todos',
  items: [],
  controls: [],
  hiddenControls: [],
  forms: [],
  texts: [],
  dialogs: [],
  counts: {},
  focused: null,
  consoleErrors: 0,
  failedRequests: 0,
  ...extra,
});
const field = control('textbox', 'New todo', { value: '' });
const counter = (text: string) => ({ key: 'footer>span', text, context: null, item: null, states: [] });

describe('diffSnapshots', () => {
  it('sees an item added, the count and the counter change', () => {
    const before = snapshot({
      items: [item('Buy milk')],
      counts: { listitem: 1 },
      texts: [counter('1 item left')],
    });
    const after = snapshot({
      items: [item('Buy milk'), item('Walk the dog')],
      counts: { listitem: 2 },
      texts: [counter('2 items left')],
    });
    expect(diffSnapshots(before, after)).toEqual([
      { kind: 'itemAdded', role: 'listitem', label: 'Walk the dog', text: 'Walk the dog' },
      { kind: 'countChanged', role: 'listitem', from: 1, to: 2 },
      { kind: 'textChanged', from: '1 item left', to: '2 items left', item: null, context: null },
    ]);
  });

  it('sees an item removed, a checkbox checked and a class that marks state', () => {
    const box = (checked: boolean) => control('checkbox', 'Toggle Buy milk', { item: 'Buy milk', checked });
    const before = snapshot({ items: [item('Buy milk'), item('Walk the dog')], controls: [box(false)] });
    const after = snapshot({
      items: [item('Buy milk', { states: ['completed'], checked: true })],
      controls: [box(true)],
    });
    expect(diffSnapshots(before, after)).toEqual([
      { kind: 'itemRemoved', role: 'listitem', label: 'Walk the dog', text: 'Walk the dog' },
      {
        kind: 'stateChanged',
        target: 'Buy milk',
        role: 'listitem',
        item: 'Buy milk',
        state: 'completed',
        marked: true,
      },
      { kind: 'checkedChanged', name: 'Toggle Buy milk', role: 'checkbox', item: 'Buy milk', checked: true },
    ]);
  });

  it('sees the URL, a dialog, a new message, new console errors and failed requests', () => {
    const before = snapshot();
    const after = snapshot({
      url: 'http://app.test/#/active',
      dialogs: ['Confirm'],
      texts: [{ key: 'p', text: 'Invalid coupon code', context: null, item: null, states: [] }],
      consoleErrors: 2,
      failedRequests: 1,
    });
    expect(diffSnapshots(before, after).map((e) => e.kind)).toEqual([
      'textAdded',
      'urlChanged',
      'dialogOpened',
      'consoleErrors',
      'failedRequests',
    ]);
  });

  it('says nothing for the same snapshot', () => {
    const s = snapshot({ items: [item('a')], controls: [field], texts: [counter('1 item left')] });
    expect(diffSnapshots(s, structuredClone(s))).toEqual([]);
  });
});

describe('proposeAssertions', () => {
  const add: CandidateAction = {
    kind: 'add',
    description: 'type into "New todo" and press Enter',
    steps: [],
    control: { role: 'textbox', name: 'New todo', item: null, type: 'text' },
    value: 'Walk the dog',
    scope: 'page',
    signature: 'add|New todo',
  };

  it('counts no entries of a role when some of them are only a link (the filters in a list): the items are checked by name', () => {
    const filters = ['All', 'Active'].map((name) => item('', { key: `listitem:${name}`, text: '' }));
    const before = snapshot({
      items: [item('Buy milk'), ...filters],
      controls: [field],
      counts: { listitem: 3 },
      texts: [counter('1 item left')],
    });
    const after = snapshot({
      items: [item('Buy milk'), item('Walk the dog'), ...filters],
      controls: [field],
      counts: { listitem: 4 },
      texts: [counter('2 items left')],
    });
    const steps = proposeAssertions(before, after, diffSnapshots(before, after), add).map((a) => a.step);
    expect(steps.filter((s) => s.verb === 'verifyExactCount')).toEqual([]);
    expect(steps).toContainEqual({ verb: 'verifyText', text: 'Walk the dog', visible: true });
    expect(steps).toContainEqual({ verb: 'verifyText', text: 'Buy milk', visible: true });
  });

  it('checks the new item, the exact count, the one that stayed, the counter and the emptied field', () => {
    const before = snapshot({
      items: [item('Buy milk')],
      controls: [field],
      counts: { listitem: 1 },
      texts: [counter('1 item left')],
    });
    const after = snapshot({
      items: [item('Buy milk'), item('Walk the dog')],
      controls: [field],
      counts: { listitem: 2 },
      texts: [counter('2 items left')],
    });
    const steps = proposeAssertions(before, after, diffSnapshots(before, after), add).map((a) => a.step);
    expect(steps).toEqual([
      { verb: 'verifyText', text: 'Walk the dog', visible: true },
      { verb: 'verifyExactCount', role: 'listitem', count: 2 },
      { verb: 'verifyText', text: 'Buy milk', visible: true },
      { verb: 'verifyText', text: '2 items left', visible: true },
      { verb: 'verifyText', text: '1 item left', visible: false },
      { verb: 'verifyValue', field: 'New todo', value: '' },
      { verb: 'verifyNoConsoleErrors' },
    ]);
  });

  it('checks the first item and the message it brought, not the captions of the table it appeared in', () => {
    const text = (key: string, value: string, caption = false) => ({
      key,
      text: value,
      context: null,
      item: null,
      states: [],
      caption,
    });
    const before = snapshot({ controls: [field], texts: [text('p', 'No expenses yet.')] });
    const after = snapshot({
      items: [item('Walk the dog')],
      controls: [field],
      counts: { listitem: 1 },
      texts: [
        text('nav>span', 'Show:', true),
        text('th1', 'Description', true),
        text('th2', 'Amount', true),
        text('div', 'Expense added'),
      ],
    });
    const steps = proposeAssertions(before, after, diffSnapshots(before, after), add).map((a) => a.step);
    expect(steps).toContainEqual({ verb: 'verifyText', text: 'Walk the dog', visible: true });
    expect(steps).toContainEqual({ verb: 'verifyText', text: 'Expense added', visible: true });
    expect(steps).toContainEqual({ verb: 'verifyText', text: 'No expenses yet.', visible: false });
    for (const caption of ['Show:', 'Description', 'Amount'])
      expect(JSON.stringify(steps)).not.toContain(`"${caption}"`);
    // Emptied again, the captions that went are not checked gone either.
    const emptied = proposeAssertions(after, before, diffSnapshots(after, before), { ...add, kind: 'click' });
    expect(JSON.stringify(emptied.map((a) => a.step))).not.toContain('Show:');
  });

  it('does not assert volatile texts (times, ids) or an old text still shown elsewhere', () => {
    const before = snapshot({
      texts: [{ key: 'a', text: 'Total $10.00', context: null, item: null, states: [] }],
    });
    const after = snapshot({
      texts: [
        { key: 'a', text: 'Total $20.00', context: null, item: null, states: [] },
        { key: 'b', text: 'Saved at 12:31', context: null, item: null, states: [] },
        { key: 'c', text: 'Was Total $10.00', context: null, item: null, states: [] },
      ],
    });
    const steps = proposeAssertions(before, after, diffSnapshots(before, after), {
      ...add,
      kind: 'click',
    }).map((a) => a.step);
    expect(steps).toContainEqual({ verb: 'verifyText', text: 'Total $20.00', visible: true });
    expect(JSON.stringify(steps)).not.toContain('12:31');
    expect(steps).not.toContainEqual({ verb: 'verifyText', text: 'Total $10.00', visible: false });
  });
});

describe('candidateActions', () => {
  it('types into a field outside any form, toggles, deletes behind a hover, edits, follows hash links', () => {
    const s = snapshot({
      url: 'http://app.test/',
      items: [item('Buy milk')],
      controls: [
        field,
        control('checkbox', 'Toggle Buy milk', { item: 'Buy milk', checked: false }),
        control('link', 'Active', { href: 'http://app.test/#/active' }),
        control('link', 'Elsewhere', { href: 'https://other.test/', leaves: true }),
        control('link', 'About', { href: 'http://app.test/about' }),
        control('button', 'Log out'),
      ],
      hiddenControls: [control('button', 'Delete Buy milk', { item: 'Buy milk' })],
    });
    const actions = candidateActions(s);
    expect(actions.map((a) => a.description)).toEqual([
      'type into "New todo" and press Enter',
      'check the checkbox in "Buy milk"',
      'follow the link "Active"',
      'hover "Buy milk" and click "Delete Buy milk"',
      'double-click "Buy milk" to edit it',
    ]);
    expect(actions[0].steps).toEqual([
      { verb: 'fill', field: 'New todo', value: 'Buy milk' },
      { verb: 'press', key: 'Enter', field: 'New todo' },
    ]);
    expect(actions[3].steps).toEqual([
      { verb: 'hover', target: 'Buy milk' },
      { verb: 'click', target: 'Delete Buy milk', role: 'button', region: 'Buy milk' },
    ]);
  });

  it('never submits a form that posts elsewhere or holds a password', () => {
    const s = snapshot({
      forms: [
        {
          action: 'https://evil.test/collect',
          method: 'post',
          sameOrigin: false,
          sensitive: false,
          submit: 'Send',
        },
        {
          action: 'http://app.test/login',
          method: 'post',
          sameOrigin: true,
          sensitive: true,
          submit: 'Sign in',
        },
        { action: 'http://app.test/', method: 'get', sameOrigin: true, sensitive: false, submit: 'Apply' },
      ],
      controls: [
        control('textbox', 'Email', { form: 0 }),
        control('textbox', 'Password', { form: 1 }),
        control('textbox', 'Coupon code', { form: 2 }),
      ],
    });
    expect(candidateActions(s).map((a) => a.description)).toEqual(['fill the form and press "Apply"']);
  });
});

describe('persistenceAssertions', () => {
  it('checks the items, their checked and marked states and the count when a reload kept them', () => {
    const items = [item('Buy milk', { checked: true, states: ['completed'] }), item('Walk the dog')];
    const s = snapshot({ items, counts: { listitem: 2 } });
    expect(persistenceAssertions(s, structuredClone(s))?.map((a) => a.step)).toEqual([
      { verb: 'verifyText', text: 'Buy milk', visible: true },
      { verb: 'verifyChecked', region: 'Buy milk', checked: true },
      { verb: 'verifyState', target: 'Buy milk', state: 'completed', marked: true },
      { verb: 'verifyText', text: 'Walk the dog', visible: true },
      { verb: 'verifyChecked', region: 'Walk the dog', checked: false },
      { verb: 'verifyExactCount', role: 'listitem', count: 2 },
    ]);
  });

  it('asserts nothing when the reload lost them (the app keeps no state)', () => {
    const before = snapshot({ items: [item('Buy milk')], counts: { listitem: 1 } });
    expect(persistenceAssertions(before, snapshot())).toBeNull();
  });
});
