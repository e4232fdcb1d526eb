import { describe, expect, it } from 'vitest';
import { keptOnSharedData, relatesToRows } from './own-data';

// Behind a login shared by every session, another session may add or close rows while a check reads
// the page; with an account per lane (ownData) nothing else touches this session's rows.
describe('checks relating a number to the rows on the same page, on shared data', () => {
  const counter = { verb: 'verifyCountOf' as const, text: 'open tickets', cell: 'Open' };
  const total = { verb: 'verifySum' as const, parts: ['Food', 'Rent'], total: 'Total' };

  it('keeps a counter and a total when each session has an account of its own', () => {
    expect(keptOnSharedData(counter, true)).toBe(true);
    expect(keptOnSharedData(total, true)).toBe(true);
  });

  it('drops them when sessions share one account', () => {
    expect(keptOnSharedData(counter, false)).toBe(false);
    expect(keptOnSharedData(total, false)).toBe(false);
  });

  it('leaves every other check to the shared-data rule, whatever the accounts', () => {
    const text = { verb: 'verifyText' as const, text: 'Ticket created', visible: true };
    expect(relatesToRows(text)).toBe(false);
    expect(keptOnSharedData(text, false)).toBe(true);
  });
});
