import { TestCaseSchema } from '@argus/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { SignedInSessions, type SignInPlan } from './sign-in';
import { TargetPolicy } from './target-policy';
import { runTestCase } from './test-runner';
import { type ExpiringApp, startExpiringApp } from './testing/expiring-app';
import type { StepVariables } from './variables';

// The app's sessions expire on a signal from the test, just before the request a step's action sends:
// the expiry falls exactly where it hurts, with no timing in the test.
let app: ExpiringApp;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
beforeAll(async () => {
  app = await startExpiringApp();
});
afterAll(async () => {
  await pool.close();
  await app.close();
});
beforeEach(() => app.reset());

const plan: SignInPlan = { mode: 'credentials', loginUrl: '/login', username: 'EMAIL', password: 'PASSWORD' };

async function signedIn(): Promise<SignedInSessions> {
  const variables: StepVariables = {
    source: 'environment "staging" of project "Items"',
    values: new Map([
      ['EMAIL', { value: app.account.email, secret: false }],
      ['PASSWORD', { value: app.account.password, secret: true }],
    ]),
  };
  const sessions = new SignedInSessions(pool, plan, { baseUrl: app.url, variables });
  await sessions.start();
  return sessions;
}

async function run(steps: string[]) {
  const sessions = await signedIn();
  return runTestCase(sessions, TestCaseSchema.parse({ test_name: 'signed in', steps }), {
    baseUrl: app.url,
    renewal: sessions.renewal,
  });
}

const ADD = [
  'Navigate to /items',
  'Fill "Title" with "Buy milk"',
  'Click button "Add"',
  'Verify text "Buy milk" is visible',
];
const TOGGLE = [
  'Navigate to /items',
  'Check the checkbox in "Walk the dog"',
  'Reload',
  'Verify the checkbox in "Walk the dog" is checked',
];
const messages = (logs: { message: string }[]) => logs.map((l) => l.message);

describe('a session that expires mid-step', () => {
  it('redoes a form post sent to the sign-in page with the fields filled again, and the item is made once', async () => {
    app.expireBefore('POST /items');
    const outcome = await run(ADD);
    expect(outcome.error).toBeNull();
    expect(app.items().filter((i) => i.title === 'Buy milk')).toHaveLength(1);
    expect(messages(outcome.logs)).toContain(
      `Session expired during step 3; signed in again and redid it (POST /items was sent to the sign-in page; redone from ${app.url}/items, after doing step 2 again)`,
    );
    // Two sign-ins: the run's, and the one after the expiry.
    expect(app.signIns()).toBe(2);
  });

  it('redoes a fetch answered 401, and the state is kept after a reload', async () => {
    app.expireBefore('POST /api/items/');
    const outcome = await run(TOGGLE);
    expect(outcome.error).toBeNull();
    expect(app.items().find((i) => i.title === 'Walk the dog')?.done).toBe(true);
    expect(messages(outcome.logs)).toContain(
      `Session expired during step 2; signed in again and redid it (POST /api/items/1/done was answered 401; redone from ${app.url}/items)`,
    );
  });

  it('fails with a clear error when the session expires again while the step is redone', async () => {
    app.expireBefore('POST /items', 2);
    const outcome = await run(ADD);
    expect(outcome.error).toBe(
      'Signed out again while redoing step 3 (Click button "Add") after signing in again: POST /items was sent to the sign-in page',
    );
    expect(outcome.steps.map((s) => s.status)).toEqual(['success', 'success', 'error']);
    expect(app.items().filter((i) => i.title === 'Buy milk')).toHaveLength(0);
  });

  it('does nothing more when the session lasts (one sign-in, no redo)', async () => {
    const outcome = await run(ADD);
    expect(outcome.error).toBeNull();
    expect(app.signIns()).toBe(1);
    expect(messages(outcome.logs).some((m) => m.startsWith('Session expired'))).toBe(false);
  });

  it('does not sign in again for a step that opens the sign-in page, nor after one that logs out', async () => {
    const outcome = await run([
      'Navigate to /login',
      'Verify button "Sign in" is visible',
      'Navigate to /items',
      'Click button "Log out"',
      'Navigate to /items',
      'Verify URL contains "/login"',
    ]);
    expect(outcome.error).toBeNull();
    expect(app.signIns()).toBe(1);
  });
});
