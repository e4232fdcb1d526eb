import type { SavedSuite } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { RETRY_CHOICES, retriesLabel } from '../../../components/retries-select';
import { retriesSave } from './suites';

const suite: SavedSuite = {
  id: 's1',
  project_id: 'p1',
  name: 'Smoke',
  version: 4,
  test_cases: [{ test_name: 'Home opens', steps: ['Navigate to /'] }] as SavedSuite['test_cases'],
  retries: 0,
  versions: [],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

describe("a saved suite's retries", () => {
  it('offers 0 to 5 retries, each labelled', () => {
    expect(RETRY_CHOICES).toEqual([0, 1, 2, 3, 4, 5]);
    expect(RETRY_CHOICES.map(retriesLabel).slice(0, 3)).toEqual(['No retries', '1 retry', '2 retries']);
  });

  it('saves only the retries: the same name and cases, over the version shown', () => {
    expect(retriesSave(suite, 2)).toEqual({
      name: 'Smoke',
      test_cases: suite.test_cases,
      base_version: 4,
      retries: 2,
    });
  });
});
