import type { Behaviour, Effect } from '@argus/engine';
import { formatStep, parseStep, type Step } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { behaviourCases, describeBehaviours, matchCommand, nameBehaviour, stem } from './behaviour-cases';
import { BuiltinPlanner } from './builtin-planner';

const URL = 'http://todo.test/';
const add = {
  kind: 'add' as const,
  description: 'type into "New todo" and press Enter',
  control: { role: 'textbox', name: 'New todo', item: null, type: 'text' },
};
const typed = (value: string): Step[] => [
  { verb: 'fill', field: 'New todo', value },
  { verb: 'press', key: 'Enter', field: 'New todo' },
];

function behaviour(over: Partial<Behaviour> & Pick<Behaviour, 'kind' | 'effects'>): Behaviour {
  return {
    url: URL,
    setup: [],
    action: [{ verb: 'click', target: 'x' }],
    description: 'do it',
    control: { role: 'button', name: 'x', item: null, type: 'button' },
    setupActions: [],
    assertions: [{ verb: 'verifyText', text: 'x', visible: true }],
    itemsBefore: [],
    signature: over.kind,
    ...over,
  };
}

const counter = (from: string, to: string): Effect => ({
  kind: 'textChanged',
  from,
  to,
  item: null,
  context: null,
});
const twoItems = [
  { label: 'Buy milk', checked: true, states: ['completed'] },
  { label: 'Walk the dog', checked: false, states: [] },
];

const TODO: Behaviour[] = [
  behaviour({
    ...add,
    value: 'Buy milk',
    action: typed('Buy milk'),
    effects: [
      { kind: 'itemAdded', role: 'listitem', label: 'Buy milk', text: 'Buy milk' },
      { kind: 'textAdded', text: '1 item left', item: null, context: null },
    ],
    assertions: [
      { verb: 'verifyText', text: 'Buy milk', visible: true },
      { verb: 'verifyText', text: '1 item left', visible: true },
    ],
  }),
  behaviour({
    kind: 'check',
    description: 'check the checkbox in "Buy milk"',
    control: { role: 'checkbox', name: 'Toggle Buy milk', item: 'Buy milk', type: 'checkbox' },
    effects: [
      {
        kind: 'stateChanged',
        target: 'Buy milk',
        role: 'listitem',
        item: 'Buy milk',
        state: 'completed',
        marked: true,
      },
      { kind: 'checkedChanged', name: 'Toggle Buy milk', role: 'checkbox', item: 'Buy milk', checked: true },
      counter('2 items left', '1 item left'),
    ],
    assertions: [
      { verb: 'verifyChecked', region: 'Buy milk', checked: true },
      { verb: 'verifyText', text: '1 item left', visible: true },
    ],
  }),
  behaviour({
    kind: 'hoverClick',
    description: 'hover "Buy milk" and click "Delete Buy milk"',
    control: { role: 'button', name: 'Delete Buy milk', item: 'Buy milk', type: 'button' },
    effects: [{ kind: 'itemRemoved', role: 'listitem', label: 'Buy milk', text: 'Buy milk' }],
    assertions: [{ verb: 'verifyText', text: 'Buy milk', visible: false }],
  }),
  behaviour({
    kind: 'link',
    description: 'follow the link "Active"',
    control: { role: 'link', name: 'Active', item: null, type: 'a' },
    itemsBefore: twoItems,
    effects: [
      { kind: 'itemRemoved', role: 'listitem', label: 'Buy milk', text: 'Buy milk' },
      { kind: 'urlChanged', from: URL, to: `${URL}#/active` },
    ],
    assertions: [
      { verb: 'verifyText', text: 'Buy milk', visible: false },
      { verb: 'verifyText', text: 'Walk the dog', visible: true },
    ],
  }),
  behaviour({
    kind: 'link',
    description: 'follow the link "Completed"',
    control: { role: 'link', name: 'Completed', item: null, type: 'a' },
    itemsBefore: twoItems,
    effects: [{ kind: 'itemRemoved', role: 'listitem', label: 'Walk the dog', text: 'Walk the dog' }],
    assertions: [{ verb: 'verifyText', text: 'Walk the dog', visible: false }],
  }),
  behaviour({
    kind: 'click',
    description: 'click "Clear completed"',
    control: { role: 'button', name: 'Clear completed', item: null, type: 'button' },
    itemsBefore: twoItems,
    effects: [{ kind: 'itemRemoved', role: 'listitem', label: 'Buy milk', text: 'Buy milk' }],
    assertions: [{ verb: 'verifyExactCount', role: 'listitem', count: 1 }],
  }),
  behaviour({
    kind: 'edit',
    description: 'double-click "Buy milk" to edit it',
    control: { role: 'listitem', name: 'Buy milk', item: 'Buy milk', type: 'item' },
    effects: [
      { kind: 'itemRemoved', role: 'listitem', label: 'Buy milk', text: 'Buy milk' },
      { kind: 'itemAdded', role: 'listitem', label: 'Water the plants', text: 'Water the plants' },
    ],
  }),
];

const CART: Behaviour[] = [
  behaviour({
    kind: 'click',
    description: 'click "Increase quantity of Trail Shoes"',
    control: {
      role: 'button',
      name: 'Increase quantity of Trail Shoes',
      item: 'Trail Shoes',
      type: 'button',
    },
    effects: [
      { kind: 'textChanged', from: '$89.00', to: '$178.00', item: 'Trail Shoes', context: null },
      counter('$142.00', '$231.00'),
    ],
    assertions: [
      { verb: 'verifyText', text: '$178.00', visible: true, region: 'Trail Shoes' },
      { verb: 'verifyText', text: '$231.00', visible: true },
    ],
  }),
  behaviour({
    kind: 'submit',
    description: 'fill the form and press "Apply"',
    action: [
      { verb: 'fill', field: 'Coupon code', value: 'NOTACODE99' },
      { verb: 'click', target: 'Apply', role: 'button' },
    ],
    control: { role: 'button', name: 'Apply', item: null, type: 'text' },
    effects: [{ kind: 'textAdded', text: 'Invalid coupon code', item: null, context: null }],
  }),
];

describe('naming behaviours', () => {
  it('names what a QA engineer would, from the action and its effects', () => {
    expect([...TODO, ...CART].map((b) => nameBehaviour(b).name)).toEqual([
      'Adding an item shows it in the list and updates the counter',
      'Completing an item marks it completed and updates the counter',
      'Deleting an item removes it from the list',
      'The Active filter hides completed items',
      'The Completed filter hides active items',
      'Clear completed removes only completed items',
      'Editing an item by double-click saves the new title',
      'Increasing the quantity of Trail Shoes updates the line total and the totals',
      'An invalid coupon code shows an error',
    ]);
  });

  it('writes one Functional case per behaviour, core ones high, every step a line of the language', () => {
    const cases = behaviourCases(describeBehaviours(TODO));
    expect(cases).toHaveLength(TODO.length);
    for (const c of cases) {
      expect(c.category).toBe('Functional');
      expect(c.priority).toBe('high');
      expect(c.steps[0]).toEqual({ verb: 'navigate', url: URL });
      for (const s of c.steps) expect(parseStep(formatStep(s))).toEqual(s);
    }
    expect(cases[0].expected_result).toBe('"Buy milk" is shown and "1 item left" is shown.');
  });
});

describe('command mode over behaviours', () => {
  const named = describeBehaviours([...TODO, ...CART]);
  const names = (command: string) => matchCommand(command, named).chosen.map((n) => n.name);

  it('stems the way commands and names are written', () => {
    expect(['adding', 'add', 'adds'].map(stem)).toEqual(['add', 'add', 'add']);
    expect(['completing', 'completed', 'complete'].map(stem)).toEqual(['complet', 'complet', 'complet']);
    expect(['filters', 'filter'].map(stem)).toEqual(['filter', 'filter']);
  });

  it('picks the behaviours each clause asks for', () => {
    expect(names('verify the Active filter hides completed items')).toEqual([
      'The Active filter hides completed items',
    ]);
    expect(names('test adding a todo')).toEqual([
      'Adding an item shows it in the list and updates the counter',
    ]);
    expect(names('check that the cart total updates when I change the quantity')).toEqual([
      'Increasing the quantity of Trail Shoes updates the line total and the totals',
    ]);
    const all = names('test adding a todo, completing it, deleting it, the filters and the counter');
    for (const wanted of ['Adding', 'Completing', 'Deleting', 'The Active filter', 'The Completed filter'])
      expect(
        all.some((n) => n.startsWith(wanted)),
        wanted,
      ).toBe(true);
    expect(names('test the coupon code')).toEqual(['An invalid coupon code shows an error']);
  });

  it('says so when nothing matches, instead of unrelated page checks', async () => {
    expect(matchCommand('check the weather widget', named)).toEqual({
      chosen: [],
      unmatched: ['check the weather widget'],
      clauses: [{ clause: 'check the weather widget', matched: [] }],
    });
    const notices: string[] = [];
    const cases = await new BuiltinPlanner().generate(
      { url: URL, command: 'check the weather widget', pages: [page()], behaviours: TODO },
      { onNotice: (m) => notices.push(m) },
    );
    expect(cases).toEqual([]);
    expect(notices[0]).toMatch(
      /nothing matching "check the weather widget".*Adding an item.*Configure an LLM/,
    );
  });

  it('names the part of a command nothing matched, and writes tests for the rest', async () => {
    const notices: string[] = [];
    const cases = await new BuiltinPlanner().generate(
      { url: URL, command: 'test adding a todo and the weather widget', pages: [page()], behaviours: TODO },
      { onNotice: (m) => notices.push(m) },
    );
    expect(cases.map((c) => c.test_name)).toEqual([
      'Adding an item shows it in the list and updates the counter',
    ]);
    expect(notices).toEqual([
      expect.stringMatching(/nothing matching "the weather widget"; the tests cover the rest/),
    ]);
  });

  it('writes behaviour tests first in full mode, page checks after', async () => {
    const cases = await new BuiltinPlanner().generate({ url: URL, pages: [page()], behaviours: TODO });
    expect(cases[0].test_name).toBe('Adding an item shows it in the list and updates the counter');
    expect(cases.slice(0, TODO.length).every((c) => c.category === 'Functional')).toBe(true);
    expect(cases.some((c) => c.category === 'Smoke')).toBe(true);
  });
});

function page() {
  return {
    url: URL,
    status: 200,
    title: 'Todos',
    headings: [{ level: 1, text: 'todos' }],
    links: [],
    forms: [],
    buttons: [],
    images: [],
    tables: [],
    listItems: [],
    aria: '',
    consoleErrors: [],
    failedRequests: [],
  };
}

describe('names for what server-rendered apps do', () => {
  const form = { role: 'button', name: 'Add expense', item: null, type: 'form' };
  it('names a form sent empty, a save on an item’s own page, and a page opened before and after a change', () => {
    const empty = behaviour({
      kind: 'submit',
      control: form,
      value: '',
      effects: [{ kind: 'textAdded', text: 'The expense was not saved.', item: null, context: null }],
    });
    expect(nameBehaviour(empty).name).toBe(
      'Sending "Add expense" with the form empty shows an error and saves nothing',
    );
    const saved = behaviour({
      kind: 'submit',
      control: { ...form, name: 'Save changes' },
      value: 'Pay the bills',
      setupActions: [
        { kind: 'submit', description: 'fill the form', control: form },
        {
          kind: 'link',
          description: 'open "Buy milk"',
          control: { role: 'link', name: 'Buy milk', item: 'Buy milk', type: 'link' },
        },
      ],
      effects: [{ kind: 'itemAdded', role: 'row', label: 'Pay the bills', text: 'Pay the bills $12.50' }],
    });
    expect(nameBehaviour(saved).name).toBe(
      'Saving "Buy milk" with "Save changes" on its page keeps the new values',
    );
    const summary = behaviour({
      kind: 'link',
      control: { role: 'link', name: 'Summary', item: null, type: 'page' },
      signature: 'revisit|Summary|link>back>submit',
      effects: [{ kind: 'urlChanged', from: 'http://l.test/', to: 'http://l.test/summary' }],
    });
    expect(nameBehaviour(summary).name).toMatch(
      /^The "Summary" page follows the data: opened before and after adding an /,
    );
    const [named] = describeBehaviours([saved]);
    expect(matchCommand('editing an expense', [named]).chosen).toHaveLength(1);
  });
});
