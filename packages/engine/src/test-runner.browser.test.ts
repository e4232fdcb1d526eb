import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtureSite } from '../../../fixtures/site/serve';
import { BrowserPool } from './browser-pool';
import { TargetPolicy } from './target-policy';
import { runTestCase } from './test-runner';

let site: Awaited<ReturnType<typeof serveFixtureSite>>;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
const testCase = (steps: string[]): TestCase => TestCaseSchema.parse({ test_name: 'case', steps });

beforeAll(async () => {
  site = await serveFixtureSite();
});
afterAll(async () => {
  await pool.close();
  await site.close();
});

describe('runTestCase against the fixture site', () => {
  it("signs in through the login form, reporting each step twice with a JPEG, the selector used and the element's stable attributes", async () => {
    const updates: { status: string; selector?: string | null; element?: unknown; shot?: boolean }[] = [];
    const outcome = await runTestCase(
      pool,
      testCase([
        `Navigate to ${site.url}/login.html`,
        'Fill "Email" with "demo@acme.test"',
        'Fill "Password" with "Password1"',
        'Click button "Sign in"',
        'Verify URL contains "account"',
        'Verify heading "Welcome back, Demo" is visible',
      ]),
      {
        baseUrl: site.url,
        onStep: (u, shot) =>
          updates.push({ status: u.status, selector: u.selector, element: u.element, shot: !!shot }),
      },
    );
    expect(outcome.error).toBeNull();
    expect(outcome.status).toBe('passed');
    expect(updates.filter((u) => u.status === 'pending')).toHaveLength(6);
    const done = updates.filter((u) => u.status === 'success');
    expect(done).toHaveLength(6);
    expect(done.every((u) => u.shot)).toBe(true);
    expect(done[1].selector).toBe('label="Email"');
    expect(done[1].element).toEqual({ id: 'email', name: 'email', landmark: 'main' });
    // The button has neither id nor name: it is known by the form it submits; a URL check acts on no element.
    expect(done[3].element).toEqual({ action: 'post /login.html', landmark: 'main' });
    expect(done[4].element).toBeUndefined();
    expect(outcome.screenshots[0].data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('fails a step whose target does not exist, naming it, and stops there', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([
        `Navigate to ${site.url}/`,
        'Click "Buy the moon"',
        'Verify text "never reached" is visible',
      ]),
      { baseUrl: site.url, stepTimeoutMs: 1_000 },
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/^No visible element matching "Buy the moon" on http/);
    expect(outcome.steps.map((s) => s.status)).toEqual(['success', 'error']);
  });

  it('fails before opening a browser when a line is not in the step language', async () => {
    const outcome = await runTestCase(pool, testCase(['Navigate to /', 'Make it pop']), {
      baseUrl: site.url,
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/Cannot understand the step "Make it pop".*STEP-LANGUAGE\.md/);
    expect(outcome.steps).toEqual([]);
  });

  it('starts on the case URL when the steps do not navigate first', async () => {
    const outcome = await runTestCase(
      pool,
      TestCaseSchema.parse({
        test_name: 't',
        url: `${site.url}/products.html`,
        steps: ['Verify at least 3 rows are visible'],
      }),
      { baseUrl: site.url },
    );
    expect(outcome.status).toBe('passed');
    expect(outcome.steps[0].description).toBe(`Navigate to ${site.url}/products.html`);
  });

  it('stops at once when its signal aborts, mid-step', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 1_500);
    const outcome = await runTestCase(
      pool,
      testCase([`Navigate to ${site.url}/`, 'Wait 8 seconds', 'Verify text "x" is visible']),
      {
        baseUrl: site.url,
        signal: controller.signal,
      },
    );
    expect(outcome).toMatchObject({ status: 'failed', error: 'Stopped by the user' });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(pool.stats().active).toBe(0);
  });

  it('fails a test whose browser dies with a clear error, and the next test runs', async () => {
    const running = runTestCase(pool, testCase([`Navigate to ${site.url}/`, 'Wait 5 seconds']), {
      baseUrl: site.url,
    });
    await new Promise((r) => setTimeout(r, 1_500));
    process.kill((await pool.browserPid())!, 'SIGKILL');
    const outcome = await running;
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/closed|crashed|Target/i);
    const next = await runTestCase(
      pool,
      testCase([`Navigate to ${site.url}/`, 'Verify title contains "Acme"']),
      {
        baseUrl: site.url,
      },
    );
    expect(next.status).toBe('passed');
  });

  it('refuses a private target the policy does not allow, with the policy’s reason', async () => {
    const strict = new BrowserPool({ policy: new TargetPolicy() });
    try {
      const outcome = await runTestCase(strict, testCase([`Navigate to ${site.url}/`]), {
        baseUrl: site.url,
      });
      expect(outcome.error).toBe(
        'Blocked by the target policy: 127.0.0.1 is a loopback address; add it to ALLOWED_TARGETS to test it',
      );
    } finally {
      await strict.close();
    }
  });
});
