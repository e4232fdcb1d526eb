import { describe, expect, it } from 'vitest';
import { holdsOnAnyData } from './explore-behaviours';

// Behind a login, every session (and every later run) finds what the earlier ones left on the server.
describe('checks kept when the data is shared between sessions', () => {
  const own = ['Printer jam'];

  it('keeps checks about the item the behaviour typed, by its text or as its region', () => {
    expect(holdsOnAnyData({ verb: 'verifyText', text: 'Printer jam', visible: true }, own)).toBe(true);
    expect(
      holdsOnAnyData({ verb: 'verifyText', text: 'High', visible: true, region: 'Printer jam' }, own),
    ).toBe(true);
    expect(
      holdsOnAnyData({ verb: 'verifyState', target: 'Printer jam', state: 'closed', marked: true }, own),
    ).toBe(true);
  });

  it('drops counts, numbers and what it did not make: an earlier run may have changed them', () => {
    expect(holdsOnAnyData({ verb: 'verifyExactCount', role: 'row', count: 2 }, own)).toBe(false);
    expect(holdsOnAnyData({ verb: 'verifyText', text: '3 open tickets', visible: true }, own)).toBe(false);
    expect(holdsOnAnyData({ verb: 'verifyText', text: 'Dana', visible: false }, own)).toBe(false);
    // Absent: another behaviour, or an earlier run, typed the same value.
    expect(holdsOnAnyData({ verb: 'verifyText', text: 'Printer jam', visible: false }, own)).toBe(false);
    // An item that was there before: another test may close or delete it.
    expect(
      holdsOnAnyData({ verb: 'verifyText', text: 'Add Dana', visible: true }, own, [
        '#2 Add Dana to billing',
      ]),
    ).toBe(false);
    expect(
      holdsOnAnyData({ verb: 'verifyText', text: 'Closed', visible: true, region: 'Add Dana' }, own),
    ).toBe(false);
  });

  it("keeps an item's absence when its text bears the run's id: no other run typed it", () => {
    const unique = ['Printer jam {{RUN_ID}}'];
    expect(
      holdsOnAnyData({ verb: 'verifyText', text: 'Printer jam {{RUN_ID}}', visible: false }, unique),
    ).toBe(true);
    expect(holdsOnAnyData({ verb: 'verifyText', text: 'Printer jam', visible: false }, unique)).toBe(false);
  });

  it("keeps the page's own texts and controls", () => {
    expect(holdsOnAnyData({ verb: 'verifyText', text: 'Ticket created', visible: true }, own)).toBe(true);
    expect(
      holdsOnAnyData({ verb: 'verifyElement', role: 'dialog', name: 'New ticket', visible: true }, own),
    ).toBe(true);
  });
});
