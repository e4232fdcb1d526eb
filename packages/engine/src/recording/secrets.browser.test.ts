import type { TestCase } from '@argus/protocol';
import { TestCaseSchema } from '@argus/protocol';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import { TargetPolicy } from '../target-policy';
import { runTestCase } from '../test-runner';
import { type DiagnosticsApp, startDiagnosticsApp } from '../testing/diagnostics-app';
import type { StepVariables } from '../variables';

let app: DiagnosticsApp;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });

// Characters that every encoding writes differently: a space, &, quotes, < and >.
const PASSWORD = `p@ss w0rd&"<x>'`;
const API_KEY = 'key-Zx9 Q&y';
const TOTP = '493817';
const variables: StepVariables = {
  values: new Map([
    ['PASSWORD', { value: PASSWORD, secret: true }],
    ['API_KEY', { value: API_KEY, secret: true }],
    ['USER', { value: 'ada', secret: false }],
  ]),
  source: 'the test',
};

/** Every spelling a value may take in a trace, written out here independently of the engine. */
function spellings(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const uri = encodeURIComponent(value);
  const html = value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
  return [
    ...new Set([
      value,
      json,
      JSON.stringify(json).slice(1, -1),
      uri,
      uri.replace(/%20/g, '+'),
      new URLSearchParams({ v: value }).toString().slice(2),
      html,
      html.replace(/&#39;/g, '&#x27;'),
    ]),
  ];
}

/** Where `spelling` occurs in `bytes`; a code of digits counts only as a token of its own. */
function found(bytes: Buffer, spelling: string): boolean {
  const text = bytes.toString('latin1');
  const needle = Buffer.from(spelling, 'utf8').toString('latin1');
  if (/^\d+$/.test(spelling)) return new RegExp(`(?<![0-9A-Za-z])${needle}(?![0-9A-Za-z])`).test(text);
  return text.includes(needle);
}

beforeAll(async () => {
  app = await startDiagnosticsApp();
});
afterAll(async () => {
  await pool.close();
  await app.close();
});

describe('secrets never enter a trace', () => {
  it('a sign-in that types secrets into a text and a password field, posted as form and JSON, leaves none in any file', async () => {
    const testCase: TestCase = TestCaseSchema.parse({
      test_name: 'sign in',
      steps: [
        `Navigate to ${app.url}/login`,
        'Fill "Username" with "{{API_KEY}}"',
        'Fill "Password" with "{{PASSWORD}}"',
        `Fill "Code" with "${TOTP}"`,
        'Click "Check"',
        'Verify text "Checked" is visible',
        'Click button "Sign in"',
        'Verify text "Signed in as" is visible',
        'Verify text "Never shown" is visible',
      ],
    });
    const outcome = await runTestCase(pool, testCase, {
      baseUrl: app.url,
      stepTimeoutMs: 2_000,
      variables,
      extraSecrets: () => ({ TOTP_CODE: TOTP }),
      recording: { trace: 'on-failure', video: false },
    });
    // The case did what it should: both posts carried the secrets, and it failed at the last step.
    expect(
      outcome.steps
        .map((step) => step.status)
        .slice(0, -1)
        .every((s) => s === 'success'),
    ).toBe(true);
    expect(outcome.failure?.step_index).toBe(8);
    expect(
      app.received.some(
        (body) => body.startsWith('POST /api/login') && body.includes(JSON.stringify(PASSWORD)),
      ),
    ).toBe(true);
    expect(app.received.some((body) => body.startsWith('POST /login') && body.includes('p%40ss+w0rd'))).toBe(
      true,
    );

    const files = unzipSync(outcome.recorded!.trace!);
    const leaks: string[] = [];
    for (const [path, data] of Object.entries(files)) {
      const bytes = Buffer.from(data);
      for (const value of [PASSWORD, API_KEY, TOTP]) {
        for (const spelling of spellings(value))
          if (found(bytes, spelling)) leaks.push(`${path}: ${spelling}`);
      }
    }
    expect(leaks).toEqual([]);

    // The trace still opens: its events parse, with the placeholders where the values were.
    const trace = Buffer.from(files['trace.trace']).toString('utf8');
    const events = trace
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const fills = events.filter((event) => event.type === 'before' && event.method === 'fill');
    expect(fills.map((event) => event.params.value)).toEqual([
      '{{API_KEY}}',
      '{{PASSWORD}}',
      '{{TOTP_CODE}}',
    ]);

    // The text field holding a secret is drawn masked in the DOM snapshots.
    const snapshots = events.filter((event) => event.type === 'frame-snapshot').map((e) => JSON.stringify(e));
    const masked = snapshots.filter(
      (s) => s.includes('"__playwright_value_":"{{API_KEY}}"') && s.includes('-webkit-text-security: disc'),
    );
    expect(masked.length).toBeGreaterThan(0);

    // Credential headers in the trace's network read [redacted]; so do they in the case's network.
    const network = Buffer.from(files['trace.network']).toString('utf8');
    expect(network).not.toContain('s3ss10n-cookie-value');
    expect(network).not.toContain('tok-a1b2c3d4e5');
    expect(network).toContain('[redacted]');
    const entries = outcome.diagnostics!.network;
    const check = entries.find((entry) => entry.url.endsWith('/api/login'));
    expect(check?.response_headers['x-auth-token']).toBe('[redacted]');
    const welcome = entries.find((entry) => entry.url.includes('/welcome'));
    expect(welcome?.url).toContain('user={{API_KEY}}');
    expect(JSON.stringify(outcome.diagnostics)).not.toContain('s3ss10n-cookie-value');
  });
});
