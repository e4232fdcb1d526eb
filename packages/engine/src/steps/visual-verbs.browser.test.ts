import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestCase, TestCaseSchema, VisualCheckOutcomeSchema } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import { TargetPolicy } from '../target-policy';
import { runTestCase } from '../test-runner';
import type { VisualCheckRequest, VisualChecks, VisualVerdict } from '../visual/visual-checks';

// The engine's side of `Verify … looks as approved`: the request the port is asked, the verdicts as
// the case's outcome lists them, and the step without a port. The pictures themselves are
// design-diff's (visual-checks.browser.test.ts there).

const PAGE = `<!doctype html><html><head><style>
  body { margin: 0; font: 16px sans-serif; }
  #spacer { height: 1400px; }
  section { margin: 0 40px; padding: 20px; width: 300px; }
</style></head><body>
  <h1>Plans</h1><div id="spacer"></div>
  <section><h2>Pricing</h2><p>$10 a month</p></section>
  <input aria-label="Note">
</body></html>`;

let server: Server;
let site: string;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });
const testCase = (steps: string[]): TestCase => TestCaseSchema.parse({ test_name: 'case', steps });

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A port that answers the verdicts given, in turn, and keeps what it was asked. */
function scriptedPort(
  verdicts: VisualVerdict[],
): VisualChecks & { asked: Omit<VisualCheckRequest, 'session'>[] } {
  const asked: Omit<VisualCheckRequest, 'session'>[] = [];
  return {
    asked,
    async check({ session, ...request }) {
      // The session handed over is one a capture can be taken with.
      const shot = await session.capturePage({ fullPage: false, settleMs: 0 });
      expect(shot.width).toBe(request.viewport.width);
      asked.push(request);
      const verdict = verdicts.shift();
      if (!verdict) throw new Error('no verdict scripted');
      return verdict;
    },
  };
}

describe('Verify … looks as approved', () => {
  it('fails, naming why, when the run was given no visual checks', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([`Navigate to ${site}`, 'Verify the page looks as approved']),
      {
        baseUrl: site,
        screenshots: false,
      },
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/^Visual checks need approved baselines, and this run keeps none/);
    expect(outcome.visualChecks).toEqual([]);
  });

  it("asks the port by the check's name, with the region's box on the page, and lists every verdict without stopping the case", async () => {
    const changed: VisualVerdict = {
      status: 'changed',
      issues: [{ kind: 'colour', message: 'colour changed', box: { x: 1, y: 2, width: 3, height: 4 } }],
      message: 'Changed since approved',
    };
    const port = scriptedPort([
      { status: 'new', issues: [], message: 'New visual check: review it' },
      changed,
      { status: 'same', issues: [], message: 'Looks as approved' },
    ]);
    const outcome = await runTestCase(
      pool,
      testCase([
        `Navigate to ${site}`,
        'Verify the page looks as approved',
        'Verify "Pricing" looks as approved',
        'Fill "Note" with "after the difference"',
        'Verify the page looks as approved',
        'Verify field "Note" has value "after the difference"',
      ]),
      { baseUrl: site, screenshots: false, viewport: { width: 800, height: 600 }, visual: port },
    );
    expect(outcome.error).toBeNull();
    expect(outcome.status).toBe('passed');
    expect(outcome.steps.map((s) => s.status)).toEqual(Array(6).fill('success'));
    expect(port.asked.map((r) => [r.name, r.region])).toEqual([
      ['page', null],
      ['Pricing', 'Pricing'],
      ['page #2', null],
    ]);
    expect(port.asked[0]).toMatchObject({ box: null, url: site, viewport: { width: 800, height: 600 } });
    // The section below a 1400 px spacer: its box is in page coordinates, not the scrolled viewport's.
    const box = port.asked[1].box;
    expect(box?.y).toBeGreaterThan(1400);
    expect(box).toMatchObject({ x: 40, width: 340 });
    expect(port.asked[1].timeoutMs).toBeGreaterThan(0);
    expect(outcome.visualChecks).toEqual([
      {
        name: 'page',
        region: null,
        status: 'new',
        issues: [],
        message: 'New visual check: review it',
        step_index: 1,
      },
      { name: 'Pricing', region: 'Pricing', ...changed, step_index: 2 },
      {
        name: 'page #2',
        region: null,
        status: 'same',
        issues: [],
        message: 'Looks as approved',
        step_index: 4,
      },
    ]);
    for (const check of outcome.visualChecks ?? []) VisualCheckOutcomeSchema.parse(check);
    expect(outcome.logs.map((l) => `${l.level} ${l.message}`)).toContain(
      'warn Step 3: visual check "Pricing": Changed since approved',
    );
  });
});
