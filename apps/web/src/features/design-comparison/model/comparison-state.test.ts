import { type ComparisonResults, ComparisonResultsSchema, type ServerMessage } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  type ComparisonEvent,
  type ComparisonState,
  comparisonReducer,
  concernsComparison,
  eventOf,
  INITIAL_STATE,
} from './comparison-state';

const results: ComparisonResults = ComparisonResultsSchema.parse({
  overall_similarity: 83.4,
  quality_rating: 'Good',
});

function run(...events: ComparisonEvent[]): ComparisonState {
  return events.reduce(comparisonReducer, INITIAL_STATE);
}

describe('the comparison state (docs/PRODUCT.md#comparison-progress)', () => {
  it('idle → running → completed at 100% with "Comparison completed!"', () => {
    const running = run({ type: 'start' });
    expect(running.status).toBe('running');
    expect(running.progress).toBe(0);
    const progressed = comparisonReducer(running, {
      type: 'progress',
      message: 'Capturing desktop',
      percentage: 40,
    });
    expect(progressed).toMatchObject({ status: 'running', message: 'Capturing desktop', progress: 40 });
    const done = comparisonReducer(progressed, { type: 'completed', results });
    expect(done).toMatchObject({
      status: 'completed',
      message: 'Comparison completed!',
      progress: 100,
      results,
    });
  });

  it('progress is clamped and never runs backwards', () => {
    const state = run(
      { type: 'start' },
      { type: 'progress', message: 'a', percentage: 60 },
      { type: 'progress', message: 'b', percentage: 30 },
    );
    expect(state).toMatchObject({ message: 'b', progress: 60 });
    expect(run({ type: 'start' }, { type: 'progress', message: 'c', percentage: 250 }).progress).toBe(100);
  });

  it('failed: "Comparison failed" at 0% with the server text', () => {
    const state = run(
      { type: 'start' },
      { type: 'progress', message: 'x', percentage: 70 },
      { type: 'failed', error: 'Site unreachable' },
    );
    expect(state).toMatchObject({
      status: 'failed',
      message: 'Comparison failed',
      progress: 0,
      error: 'Site unreachable',
    });
  });

  it('a permission error fails it and says the file must be shared', () => {
    const state = run({ type: 'start' }, { type: 'permission_error' });
    expect(state).toMatchObject({
      status: 'failed',
      message: 'Comparison failed',
      error: 'Figma file access required. Please share your file.',
      permissionError: true,
    });
  });

  it('stopped: "Comparison stopped", and what comes after is ignored', () => {
    const stopped = run(
      { type: 'start' },
      { type: 'progress', message: 'x', percentage: 20 },
      { type: 'stopped' },
    );
    expect(stopped).toMatchObject({ status: 'stopped', message: 'Comparison stopped', progress: 20 });
    expect(comparisonReducer(stopped, { type: 'completed', results })).toBe(stopped);
    expect(comparisonReducer(stopped, { type: 'progress', message: 'late', percentage: 90 })).toBe(stopped);
    expect(comparisonReducer(stopped, { type: 'failed', error: 'late' })).toBe(stopped);
  });

  it('starting clears the previous results', () => {
    const done = run({ type: 'start' }, { type: 'completed', results });
    const again = comparisonReducer(done, { type: 'start' });
    expect(again.results).toBeNull();
    expect(again.status).toBe('running');
  });

  it('New Comparison goes back to idle, but not while running', () => {
    const done = run({ type: 'start' }, { type: 'completed', results });
    expect(comparisonReducer(done, { type: 'reset' })).toEqual(INITIAL_STATE);
    const running = run({ type: 'start' });
    expect(comparisonReducer(running, { type: 'reset' })).toBe(running);
  });

  it('a reopened comparison shows as completed, unless one is running', () => {
    expect(run({ type: 'restored', results })).toMatchObject({ status: 'completed', progress: 100, results });
    const running = run({ type: 'start' });
    expect(comparisonReducer(running, { type: 'restored', results })).toBe(running);
  });

  it('messages without a running comparison change nothing', () => {
    expect(comparisonReducer(INITIAL_STATE, { type: 'completed', results })).toBe(INITIAL_STATE);
    expect(comparisonReducer(INITIAL_STATE, { type: 'stopped' })).toBe(INITIAL_STATE);
  });
});

function message(value: unknown): ServerMessage {
  return value as ServerMessage;
}

describe('which messages are the screen’s', () => {
  it('design messages of its session, or of none', () => {
    const progress = message({
      type: 'vision_comparison_progress',
      session_id: 's1',
      data: { message: 'x', progress_percentage: 5 },
    });
    expect(concernsComparison(progress, 's1')).toBe(true);
    expect(concernsComparison(progress, 's2')).toBe(false);
    expect(
      concernsComparison(message({ type: 'figma_sharing_instructions', session_id: null, data: {} }), null),
    ).toBe(true);
  });
  it('not other features’ messages, nor their errors', () => {
    expect(
      concernsComparison(
        message({ type: 'progress_update', session_id: 's1', data: { message: 'x' } }),
        's1',
      ),
    ).toBe(false);
    expect(
      concernsComparison(
        message({ type: 'error', session_id: 's1', data: { message: 'x', feature: 'automation' } }),
        's1',
      ),
    ).toBe(false);
    expect(
      concernsComparison(
        message({ type: 'error', session_id: 's1', data: { message: 'x', feature: 'design' } }),
        's1',
      ),
    ).toBe(true);
  });
  it('maps each message to its event', () => {
    expect(
      eventOf(
        message({
          type: 'vision_comparison_progress',
          session_id: 's',
          data: { message: 'm', progress_percentage: 7 },
        }),
      ),
    ).toEqual({ type: 'progress', message: 'm', percentage: 7 });
    expect(
      eventOf(message({ type: 'vision_comparison_error', session_id: 's', data: { error: ' ' } })),
    ).toEqual({
      type: 'failed',
      error: 'Comparison failed',
    });
    expect(eventOf(message({ type: 'figma_permission_error', session_id: 's', data: {} }))).toEqual({
      type: 'permission_error',
    });
    expect(eventOf(message({ type: 'figma_sharing_instructions', session_id: 's', data: {} }))).toBeNull();
  });
});
