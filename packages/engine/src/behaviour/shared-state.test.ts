import { describe, expect, it } from 'vitest';
import { countAssertions, sumAssertions } from './assertions';
import { holdsOnAnyData } from './explorer/shared-data';

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

describe('summaries that hold on any data', () => {
  const row = (label: string, text: string) => ({
    key: `row:${label}`,
    role: 'row',
    label,
    text,
    states: [],
    checked: null,
  });
  const page = (items: ReturnType<typeof row>[]) =>
    ({ url: 'http://127.0.0.1/reports', items }) as unknown as Parameters<typeof sumAssertions>[0];

  it('checks that the fewest rows right above a total add up to it', () => {
    const rows = [
      row('High', 'High 14'),
      row('Low', 'Low 1'),
      row('Open', 'Open 28'),
      row('Closed', 'Closed 5'),
      row('All tickets', 'All tickets 33'),
    ];
    expect(sumAssertions(page(rows))).toEqual([
      { step: { verb: 'verifySum', parts: ['Open', 'Closed'], total: 'All tickets' } },
    ]);
  });

  it('reads money, and proposes nothing when no run of rows adds up or a row holds several numbers', () => {
    expect(
      sumAssertions(
        page([row('Food', 'Food $1,200.50'), row('Rent', 'Rent $99.50'), row('Total', 'Total $1,300.00')]),
      ),
    ).toEqual([{ step: { verb: 'verifySum', parts: ['Food', 'Rent'], total: 'Total' } }]);
    expect(sumAssertions(page([row('A', 'A 1'), row('B', 'B 2'), row('Total', 'Total 4')]))).toEqual([]);
    expect(
      sumAssertions(
        page([row('Widget', 'Widget 2 × $10 $20'), row('Gadget', 'Gadget $5'), row('Total', 'Total $25')]),
      ),
    ).toEqual([]);
  });
});

describe('counters that hold on any data', () => {
  const text = (t: string, item: string | null = null) => ({
    key: `${item}:${t}`,
    text: t,
    context: null,
    item,
    states: [],
  });
  const row = (label: string) => ({
    key: `row:${label}`,
    role: 'row',
    label,
    text: label,
    states: [],
    checked: null,
  });
  const page = (texts: ReturnType<typeof text>[], rows: string[]) =>
    ({ url: 'http://127.0.0.1/tickets', items: rows.map(row), texts }) as unknown as Parameters<
      typeof countAssertions
    >[0];

  it('checks that a counter names a state and counts the rows in it', () => {
    const shown = page(
      [
        text('2 open tickets'),
        text('Open', 'Jam'),
        text('Closed', 'Dana'),
        text('Open', 'Milk'),
        text('High', 'Milk'),
      ],
      ['Jam', 'Dana', 'Milk'],
    );
    expect(countAssertions(shown)).toEqual([
      { step: { verb: 'verifyCountOf', text: 'open tickets', cell: 'Open' } },
    ]);
  });

  it('proposes nothing when the number is not that count, or the words name no cell', () => {
    expect(countAssertions(page([text('3 open tickets'), text('Open', 'Jam')], ['Jam']))).toEqual([]);
    expect(countAssertions(page([text('1 ticket'), text('Open', 'Jam')], ['Jam']))).toEqual([]);
  });
});
