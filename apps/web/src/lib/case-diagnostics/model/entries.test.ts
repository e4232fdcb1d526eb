import type { ConsoleEntry, NetworkEntry } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import type { CaseStep } from './case-steps';
import {
  consoleGroups,
  formatMs,
  isFailedRequest,
  NO_FILTERS,
  networkGroups,
  requestOutcome,
} from './entries';

const steps: CaseStep[] = [
  { index: 0, line: 'Navigate to /shop', status: 'success', error: null },
  { index: 1, line: 'Click "Place order"', status: 'success', error: null },
  { index: 2, line: 'Verify text "Order confirmed" is visible', status: 'error', error: 'not visible' },
];

function log(
  at_ms: number,
  step_index: number | null,
  level: ConsoleEntry['level'],
  text: string,
): ConsoleEntry {
  return { at_ms, step_index, level, text, location: null };
}

function request(
  at_ms: number,
  step_index: number | null,
  url: string,
  status: number | null,
  failure: string | null = null,
): NetworkEntry {
  return {
    at_ms,
    step_index,
    method: 'GET',
    url,
    status,
    resource_type: 'fetch',
    duration_ms: 10,
    request_bytes: 0,
    response_bytes: 10,
    failure,
    request_headers: {},
    response_headers: {},
  };
}

const diagnostics = {
  console: [
    log(300, 2, 'log', 'rendering'),
    log(5, null, 'info', 'boot'),
    log(310, 2, 'error', 'Order failed: 500'),
    log(20, 0, 'warning', 'deprecated API'),
  ],
  network: [
    request(200, 2, '/api/cart', 200),
    request(210, 2, '/api/orders', 500),
    request(220, 2, '/api/track', null, 'net::ERR_CONNECTION_REFUSED'),
    request(10, 0, '/shop', 200),
    request(12, 0, '/missing.png', 404),
  ],
};

describe('consoleGroups', () => {
  it('puts each message under the step that was running, steps in order, what came before first', () => {
    const groups = consoleGroups(diagnostics, steps, 2, NO_FILTERS);
    expect(groups.map((g) => [g.heading, g.entries.map((e) => e.text)])).toEqual([
      ['Before the first step', ['boot']],
      ['Step 1: Navigate to /shop', ['deprecated API']],
      ['Step 3: Verify text "Order confirmed" is visible', ['Order failed: 500', 'rendering']],
    ]);
    expect(groups.map((g) => g.failing)).toEqual([false, false, true]);
  });

  it('keeps only errors and page errors with "Errors only", dropping steps left empty', () => {
    const groups = consoleGroups(
      { console: [...diagnostics.console, log(400, 1, 'pageerror', 'TypeError: x is undefined')] },
      steps,
      2,
      { errorsOnly: true, failedOnly: false },
    );
    expect(groups.map((g) => [g.stepIndex, g.entries.map((e) => e.level)])).toEqual([
      [1, ['pageerror']],
      [2, ['error']],
    ]);
  });
});

describe('networkGroups', () => {
  it('lists the failing step’s failed requests (≥ 400 or no answer) first, then the rest in time order', () => {
    const groups = networkGroups(diagnostics, steps, 2, NO_FILTERS);
    const failing = groups.find((g) => g.failing);
    expect(failing?.entries.map((e) => e.url)).toEqual(['/api/orders', '/api/track', '/api/cart']);
    // Other steps stay in time order.
    expect(groups.find((g) => g.stepIndex === 0)?.entries.map((e) => e.url)).toEqual([
      '/shop',
      '/missing.png',
    ]);
  });

  it('keeps only failed requests with "Failed requests only"', () => {
    const groups = networkGroups(diagnostics, steps, 2, { errorsOnly: false, failedOnly: true });
    expect(groups.flatMap((g) => g.entries.map((e) => e.url))).toEqual([
      '/missing.png',
      '/api/orders',
      '/api/track',
    ]);
  });

  it('with no failing step, no group is put first', () => {
    const groups = networkGroups(diagnostics, steps, null, NO_FILTERS);
    expect(groups.every((g) => !g.failing)).toBe(true);
    expect(groups.find((g) => g.stepIndex === 2)?.entries.map((e) => e.url)).toEqual([
      '/api/cart',
      '/api/orders',
      '/api/track',
    ]);
  });
});

describe('a request’s outcome', () => {
  it('counts 4xx, 5xx and unanswered requests as failed, and says how each ended', () => {
    expect(isFailedRequest({ status: 399, failure: null })).toBe(false);
    expect(isFailedRequest({ status: 400, failure: null })).toBe(true);
    expect(isFailedRequest({ status: null, failure: 'net::ERR_ABORTED' })).toBe(true);
    expect(requestOutcome({ status: 500, failure: null })).toBe('500');
    expect(requestOutcome({ status: null, failure: 'net::ERR_ABORTED' })).toBe('net::ERR_ABORTED');
    expect(requestOutcome({ status: null, failure: null })).toBe('no answer');
    expect([formatMs(null), formatMs(120.4), formatMs(1420)]).toEqual(['–', '120 ms', '1.4 s']);
  });
});
