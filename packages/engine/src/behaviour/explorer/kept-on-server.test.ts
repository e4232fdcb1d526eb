import { describe, expect, it } from 'vitest';
import type { CandidateAction } from '../candidates';
import type { Effect } from '../diff';
import { changedInPlaceOnServer, thenReload } from './kept-on-server';

const tick: CandidateAction = {
  kind: 'check',
  description: 'check the checkbox in "Buy milk"',
  steps: [{ verb: 'check', checked: true, region: 'Buy milk' }],
  control: { role: 'checkbox', name: '', item: 'Buy milk', type: 'checkbox' },
  scope: 'item',
  signature: 'check|checkbox|',
};
const ticked: Effect[] = [
  { kind: 'checkedChanged', item: 'Buy milk', name: '', role: 'checkbox', checked: true },
];

describe('a state changed in place and sent to the server', () => {
  it('is one when the same document sent a request and an item changed state', () => {
    expect(changedInPlaceOnServer(tick, ticked, { document: 1, sent: 0 }, { document: 1, sent: 1 })).toBe(
      true,
    );
  });

  it('is not one when nothing was sent (only drawn), the page was loaded again, or no state changed', () => {
    expect(changedInPlaceOnServer(tick, ticked, { document: 1, sent: 2 }, { document: 1, sent: 2 })).toBe(
      false,
    );
    expect(changedInPlaceOnServer(tick, ticked, { document: 1, sent: 0 }, { document: 2, sent: 1 })).toBe(
      false,
    );
    expect(changedInPlaceOnServer(tick, [], { document: 1, sent: 0 }, { document: 1, sent: 1 })).toBe(false);
    const menu: Effect[] = [
      {
        kind: 'stateChanged',
        target: 'Menu',
        role: 'button',
        item: null,
        state: 'aria-expanded',
        marked: true,
      },
    ];
    expect(changedInPlaceOnServer(tick, menu, { document: 1, sent: 0 }, { document: 1, sent: 1 })).toBe(
      false,
    );
    expect(changedInPlaceOnServer(tick, ticked, null, { document: 1, sent: 1 })).toBe(false);
  });

  it('is tried again with a reload after it, which is not followed by another', () => {
    const again = thenReload(tick);
    expect(again.steps).toEqual([...tick.steps, { verb: 'reload' }]);
    expect(again.description).toBe('check the checkbox in "Buy milk", then reload the page');
    expect(changedInPlaceOnServer(again, ticked, { document: 1, sent: 0 }, { document: 1, sent: 1 })).toBe(
      false,
    );
  });
});
