import { type SavedSuite, SavedSuiteInputSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { TRACE_POLICY_LABELS } from '../../../components/recording-fields';
import { RETRY_CHOICES, retriesLabel } from '../../../components/retries-select';
import { recordingSave, retriesSave, visualEachCaseSave } from './suites';

const suite: SavedSuite = {
  id: 's1',
  project_id: 'p1',
  name: 'Smoke',
  version: 4,
  test_cases: [{ test_name: 'Home opens', steps: ['Navigate to /'] }] as SavedSuite['test_cases'],
  retries: 0,
  recording: { trace: 'on-failure', video: false },
  visual_each_case: false,
  versions: [],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

describe("a saved suite's retries", () => {
  it('offers every count of retries a save accepts and no other, each labelled', () => {
    const accepted = Array.from({ length: 12 }, (_, n) => n - 1).filter(
      (n) => SavedSuiteInputSchema.safeParse(retriesSave(suite, n)).success,
    );
    expect(RETRY_CHOICES).toEqual(accepted);
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

describe("a saved suite's recording", () => {
  it('saves only the recording, over the version shown, in a shape a save accepts', () => {
    const input = recordingSave(suite, { trace: 'always', video: true });
    expect(input).toEqual({
      name: 'Smoke',
      test_cases: suite.test_cases,
      base_version: 4,
      recording: { trace: 'always', video: true },
    });
    expect(SavedSuiteInputSchema.safeParse(input).success).toBe(true);
  });

  it('names every trace policy', () => {
    expect(Object.values(TRACE_POLICY_LABELS)).toEqual(['On failure', 'Always', 'Off']);
  });
});

describe("a saved suite's visual check after every case", () => {
  it('saves only the setting, over the version shown, in a shape a save accepts', () => {
    const input = visualEachCaseSave(suite, true);
    expect(input).toEqual({
      name: 'Smoke',
      test_cases: suite.test_cases,
      base_version: 4,
      visual_each_case: true,
    });
    const parsed = SavedSuiteInputSchema.parse(input);
    expect(parsed.visual_each_case).toBe(true);
    // Neither the retries nor the recording ride along: the server keeps them as they are.
    expect(parsed).not.toHaveProperty('retries');
    expect(parsed).not.toHaveProperty('recording');
    expect(visualEachCaseSave({ ...suite, visual_each_case: true }, false).visual_each_case).toBe(false);
  });
});
