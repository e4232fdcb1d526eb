import { describe, expect, it } from 'vitest';
import { daysOf, queryFromView, searchFromView, viewFromSearch } from './range';

const TODAY = '2026-11-26';

describe('the analytics range in the address', () => {
  it('is the last 30 days by default, and 7 or 90 when asked, today included', () => {
    expect(viewFromSearch(new URLSearchParams(''), TODAY)).toEqual({
      project: '',
      preset: '30',
      from: '2026-10-28',
      to: TODAY,
    });
    expect(viewFromSearch(new URLSearchParams('range=7&project=p1'), TODAY)).toMatchObject({
      project: 'p1',
      from: '2026-11-20',
    });
    expect(viewFromSearch(new URLSearchParams('range=90'), TODAY).from).toBe('2026-08-29');
  });

  it('keeps custom dates only when both are dates in order, and round-trips them', () => {
    const custom = viewFromSearch(new URLSearchParams('range=custom&from=2026-11-01&to=2026-11-03'), TODAY);
    expect(custom).toEqual({ project: '', preset: 'custom', from: '2026-11-01', to: '2026-11-03' });
    expect(searchFromView(custom).toString()).toBe('range=custom&from=2026-11-01&to=2026-11-03');
    expect(
      viewFromSearch(new URLSearchParams('range=custom&from=2026-11-05&to=2026-11-03'), TODAY).preset,
    ).toBe('30');
    expect(searchFromView(viewFromSearch(new URLSearchParams(''), TODAY)).toString()).toBe('');
  });

  it('lists every day of the range and asks the server in the browser time zone', () => {
    expect(daysOf('2026-10-30', '2026-11-02')).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    expect(daysOf(TODAY, TODAY)).toEqual([TODAY]);
    const view = viewFromSearch(new URLSearchParams('project=p1&range=7'), TODAY);
    expect(queryFromView(view, 'Europe/Paris')).toEqual({
      project_id: 'p1',
      from: '2026-11-20',
      to: TODAY,
      tz: 'Europe/Paris',
    });
  });
});
