import { describe, expect, it } from 'vitest';
import { costChart, daySeconds, designChart, passRateChart, passRateTable } from './series';

const day = (d: string, runs: number, passed: number) => ({
  day: d,
  runs,
  passed_runs: passed,
  failed_runs: runs - passed,
  pass_rate: runs ? passed / runs : 0,
  tests: runs * 2,
  failed_tests: runs - passed,
  flaky_tests: 0,
});

describe('analytics series', () => {
  it('puts a value on every day of the range: a gap in the rate, zero runs, where nothing ran', () => {
    const chart = passRateChart([day('2026-11-02', 4, 3)], ['2026-11-01', '2026-11-02']);
    expect(chart.x).toEqual([daySeconds('2026-11-01'), daySeconds('2026-11-02')]);
    expect(chart.series.map((s) => s.values)).toEqual([
      [0, 4],
      [null, 75],
    ]);
    expect(passRateTable([day('2026-11-02', 4, 3)]).rows).toEqual([['2026-11-02', 4, 3, 1, 75, 8, 1, 0]]);
  });

  it('draws one series per engine, zero on days it made no call', () => {
    const chart = costChart(
      [
        {
          day: '2026-11-01',
          engine: 'openai · gpt',
          calls: 2,
          input_tokens: 10,
          output_tokens: 5,
          cost_usd: 0.5,
        },
        { day: '2026-11-02', engine: 'built-in', calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      ],
      ['2026-11-01', '2026-11-02'],
    );
    expect(chart.series.map((s) => [s.label, s.values])).toEqual([
      ['built-in ($)', [0, 0]],
      ['openai · gpt ($)', [0.5, 0]],
    ]);
  });

  it('aligns design scores of several sites on one time axis, with gaps, and copes with none', () => {
    const chart = designChart([
      {
        site: 'https://a.test',
        points: [{ created_at: '2026-11-01T10:00:00Z', score: 91.24, comparison_id: 'c1' }],
      },
      {
        site: 'https://b.test',
        points: [{ created_at: '2026-11-02T10:00:00Z', score: 80, comparison_id: 'c2' }],
      },
    ]);
    expect(chart.x).toHaveLength(2);
    expect(chart.series.map((s) => s.values)).toEqual([
      [91.2, null],
      [null, 80],
    ]);
    expect(designChart([])).toEqual({ x: [], series: [] });
  });
});
