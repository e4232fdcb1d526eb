import type { Behaviour, Effect } from '@argus/engine';
import type { Step } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { behaviourCases, describeBehaviours } from './behaviour-cases';
import { nameBehaviour, plainName } from './behaviour-names';
import { PROMISES, unkeptPromises } from './behaviour-promises';

const URL = 'http://todo.test/';
const twoItems = [
  { label: 'Buy milk', checked: true, states: ['completed'] },
  { label: 'Walk the dog', checked: false, states: [] },
];
const gone = (label: string): Effect => ({ kind: 'itemRemoved', role: 'listitem', label, text: label });
const shown = (text: string, region?: string): Step => ({
  verb: 'verifyText',
  text,
  visible: true,
  ...(region ? { region } : {}),
});
const absent = (text: string): Step => ({ verb: 'verifyText', text, visible: false });

function behaviour(over: Partial<Behaviour> & Pick<Behaviour, 'kind' | 'effects' | 'assertions'>): Behaviour {
  return {
    url: URL,
    setup: [],
    action: [{ verb: 'click', target: 'x' }],
    description: 'do it',
    control: { role: 'button', name: 'x', item: null, type: 'button' },
    setupActions: [],
    itemsBefore: [],
    signature: over.kind,
    ...over,
  };
}

/** Behaviours whose every effect the namer can name, each with the checks the explorer would keep. */
const FULL: Behaviour[] = [
  behaviour({
    kind: 'add',
    description: 'type into "New todo" and press Enter',
    control: { role: 'textbox', name: 'New todo', item: null, type: 'text' },
    value: 'Buy milk',
    action: [
      { verb: 'fill', field: 'New todo', value: 'Buy milk' },
      { verb: 'press', key: 'Enter', field: 'New todo' },
    ],
    effects: [
      { kind: 'itemAdded', role: 'listitem', label: 'Buy milk', text: 'Buy milk' },
      { kind: 'textAdded', text: '1 item left', item: null, context: null },
    ],
    assertions: [shown('Buy milk'), shown('1 item left')],
  }),
  behaviour({
    kind: 'check',
    description: 'check the checkbox in "Buy milk"',
    control: { role: 'checkbox', name: 'Toggle Buy milk', item: 'Buy milk', type: 'checkbox' },
    effects: [
      { kind: 'checkedChanged', name: 'Toggle Buy milk', role: 'checkbox', item: 'Buy milk', checked: true },
      { kind: 'textChanged', from: '2 items left', to: '1 item left', item: null, context: null },
    ],
    assertions: [{ verb: 'verifyChecked', region: 'Buy milk', checked: true }, shown('1 item left')],
  }),
  behaviour({
    kind: 'check',
    description: 'check "Notify me"',
    control: { role: 'checkbox', name: 'Notify me', item: null, type: 'checkbox' },
    effects: [
      { kind: 'checkedChanged', name: 'Notify me', role: 'checkbox', item: null, checked: true },
      { kind: 'textChanged', from: '0 alerts', to: '1 alert', item: null, context: null },
    ],
    assertions: [{ verb: 'verifyCountOf', text: 'alerts', cell: 'On' }],
  }),
  behaviour({
    kind: 'hoverClick',
    description: 'hover "Buy milk" and click "Delete Buy milk"',
    control: { role: 'button', name: 'Delete Buy milk', item: 'Buy milk', type: 'button' },
    effects: [
      gone('Buy milk'),
      { kind: 'textChanged', from: '2 items left', to: '1 item left', item: null, context: null },
    ],
    assertions: [absent('Buy milk'), shown('1 item left')],
  }),
  behaviour({
    kind: 'click',
    description: 'click "Clear completed"',
    control: { role: 'button', name: 'Clear completed', item: null, type: 'button' },
    itemsBefore: twoItems,
    effects: [gone('Buy milk')],
    assertions: [{ verb: 'verifyExactCount', role: 'listitem', count: 1 }],
  }),
  behaviour({
    kind: 'link',
    description: 'follow the link "Active"',
    control: { role: 'link', name: 'Active', item: null, type: 'a' },
    itemsBefore: twoItems,
    effects: [gone('Buy milk')],
    assertions: [absent('Buy milk'), shown('Walk the dog')],
  }),
  behaviour({
    kind: 'link',
    description: 'follow the link "All"',
    control: { role: 'link', name: 'All', item: null, type: 'a' },
    effects: [{ kind: 'itemAdded', role: 'listitem', label: 'Buy milk', text: 'Buy milk' }],
    assertions: [shown('Buy milk')],
  }),
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
      { kind: 'textChanged', from: '$142.00', to: '$231.00', item: null, context: null },
    ],
    assertions: [shown('$178.00', 'Trail Shoes'), shown('$231.00')],
  }),
  behaviour({
    kind: 'click',
    description: 'click "Recount"',
    control: { role: 'button', name: 'Recount', item: null, type: 'button' },
    effects: [{ kind: 'textChanged', from: 'Total $1', to: 'Total $3', item: null, context: null }],
    assertions: [{ verb: 'verifySum', parts: ['Food', 'Rent'], total: 'Total' }],
  }),
  behaviour({
    kind: 'reload',
    description: 'reload the page',
    action: [{ verb: 'reload' }],
    control: { role: 'page', name: 'page', item: null, type: 'page' },
    effects: [],
    assertions: [shown('Buy milk'), { verb: 'verifyNoConsoleErrors' }],
  }),
];

/** Every choice of the behaviour's checks: the ones the replays would have left. */
function variants(b: Behaviour): Behaviour[] {
  const all = b.assertions;
  return Array.from({ length: 2 ** all.length }, (_, mask) => ({
    ...b,
    assertions: all.filter((_a, i) => mask & (2 ** i)),
  }));
}

const withoutQuotes = (name: string) => name.replace(/"[^"]*"/g, '""');

describe('a behaviour case is named for what its steps check', () => {
  it('names each effect the namer knows (counter, totals, removal, filters, a reload) when a step checks it', () => {
    const names = behaviourCases(describeBehaviours(FULL)).map((c) => withoutQuotes(c.test_name));
    for (const promise of PROMISES)
      expect(
        names.some((n) => promise.promised.test(n)),
        promise.effect,
      ).toBe(true);
  });

  it('never promises an effect no step of the case checks, whichever checks held', () => {
    for (const b of FULL.flatMap(variants)) {
      const [draft] = behaviourCases(describeBehaviours([b]));
      const name = withoutQuotes(draft.test_name);
      for (const promise of PROMISES) {
        if (!promise.promised.test(name)) continue;
        expect(promise.kept(draft.steps), `"${draft.test_name}" with ${JSON.stringify(b.assertions)}`).toBe(
          true,
        );
      }
      // The namer's own rules kept their word: it did not fall back to the plain name.
      if (b.assertions.length > 0) expect(nameBehaviour(b).name, draft.test_name).not.toBe(plainName(b));
    }
  });

  it('drops the counter from a name when no step checks it, and names what is checked', () => {
    const [completing] = FULL.filter((b) => b.kind === 'check');
    expect(nameBehaviour(completing).name).toBe(
      'Completing an item marks it completed and updates the counter',
    );
    const unchecked = { ...completing, assertions: completing.assertions.slice(0, 1) };
    expect(nameBehaviour(unchecked).name).toBe('Completing an item marks it completed');
    expect(unkeptPromises('Checking "Buy milk s73fgm" updates the counter', unchecked.assertions)).toEqual([
      'the counter',
    ]);
  });
});
