import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cronProblem, nextDue } from '../schedules/schedule-service';
import {
  formatNotice,
  loggableUrl,
  newWebhookSecret,
  type RunNotice,
  retryDelayMs,
  runEvent,
  signDelivery,
  verifyDelivery,
  webhookWants,
} from './webhooks';

const notice: RunNotice = {
  event: 'failure',
  project: { id: 'p1', name: 'Shop' },
  suite: { id: 's1', name: 'Checkout', version: 3 },
  environment: { id: 'e1', name: 'staging' },
  run: {
    id: 'r1',
    status: 'completed',
    trigger: 'schedule',
    total_tests: 4,
    passed_tests: 3,
    failed_tests: 1,
    flaky_tests: 0,
    started_at: '2026-11-26T02:00:00.000Z',
    completed_at: '2026-11-26T02:00:09.000Z',
  },
  previous_run: null,
  repairs: { proposed: 0, bugs: 0 },
  visual: { to_review: 0, branch: null },
};

describe('webhook signatures', () => {
  it('signs "<timestamp>.<body>" with HMAC-SHA256, as a receiver checks it', () => {
    const secret = newWebhookSecret();
    const body = '{"event":"failure"}';
    const signature = signDelivery(secret, '1764122400', body);
    expect(signature).toBe(
      `sha256=${createHmac('sha256', secret).update(`1764122400.${body}`).digest('hex')}`,
    );
    expect(verifyDelivery(secret, '1764122400', body, signature)).toBe(true);
    expect(verifyDelivery(secret, '1764122401', body, signature)).toBe(false);
    expect(verifyDelivery(secret, '1764122400', `${body} `, signature)).toBe(false);
    expect(verifyDelivery(newWebhookSecret(), '1764122400', body, signature)).toBe(false);
    expect(verifyDelivery(secret, '1764122400', body, 'sha256=00')).toBe(false);
  });

  it('makes a fresh 32-byte secret each time', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});

describe('when a webhook is called', () => {
  const ok = { status: 'completed', failed_tests: 0 };
  const failedTest = { status: 'completed', failed_tests: 2 };
  const stopped = { status: 'stopped', failed_tests: 0 };
  it('tells failure, recovery and success from the run and the previous one', () => {
    expect(runEvent(failedTest, undefined)).toBe('failure');
    expect(runEvent(stopped, ok)).toBe('failure');
    expect(runEvent(ok, failedTest)).toBe('recovery');
    expect(runEvent(ok, { status: 'error', failed_tests: 0 })).toBe('recovery');
    expect(runEvent(ok, ok)).toBe('success');
    expect(runEvent(ok, undefined)).toBe('success');
  });
  it('takes a run whose only non-passes are flaky for a success, and says the flaky tests', () => {
    const flaky = { status: 'completed', failed_tests: 0, flaky_tests: 1 };
    expect(runEvent(flaky, ok)).toBe('success');
    expect(runEvent(flaky, failedTest)).toBe('recovery');
    const run = { ...notice.run, passed_tests: 3, failed_tests: 0, flaky_tests: 1 };
    expect(JSON.parse(formatNotice('slack', { ...notice, event: 'success', run }, new Date())).text).toBe(
      'Argus: Checkout on staging passed (Shop): 3 passed, 1 flaky, 0 failed of 4 (run completed, started by schedule)',
    );
  });
  it('calls each webhook for the events it asked for', () => {
    expect(webhookWants(['failure'], 'failure')).toBe(true);
    expect(webhookWants(['failure'], 'recovery')).toBe(false);
    expect(webhookWants(['failure', 'recovery'], 'success')).toBe(false);
    expect(webhookWants(['always'], 'success')).toBe(true);
    expect(webhookWants(['recovery'], 'test')).toBe(true);
  });
  it('waits twice as long before each retry', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, 30_000))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000,
    ]);
  });
});

describe('payload formats', () => {
  const at = new Date('2026-11-26T02:00:10.000Z');
  it('generic: the notice itself, with a title and when it was sent', () => {
    expect(JSON.parse(formatNotice('generic', notice, at))).toEqual({
      ...notice,
      title: 'Argus: Checkout on staging failed (Shop)',
      sent_at: '2026-11-26T02:00:10.000Z',
    });
  });
  it('slack: text and blocks', () => {
    const body = JSON.parse(formatNotice('slack', notice, at));
    expect(body.text).toBe(
      'Argus: Checkout on staging failed (Shop): 3 passed, 1 failed of 4 (run completed, started by schedule)',
    );
    expect(body.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Argus: Checkout on staging failed (Shop)' },
    });
  });
  it('says how many repairs wait for review and how many failures look like a bug', () => {
    const repaired = { ...notice, repairs: { proposed: 2, bugs: 1 } };
    expect(JSON.parse(formatNotice('generic', repaired, at)).repairs).toEqual({ proposed: 2, bugs: 1 });
    expect(JSON.parse(formatNotice('slack', repaired, at)).text).toBe(
      'Argus: Checkout on staging failed (Shop): 3 passed, 1 failed of 4 (run completed, started by schedule); 2 repairs wait for review, 1 failure looks like a bug',
    );
    const one = { ...notice, repairs: { proposed: 1, bugs: 0 } };
    expect(JSON.parse(formatNotice('slack', one, at)).text).toMatch(/; 1 repair waits for review$/);
  });
  it('says how many visual changes wait for review, and nothing when none do', () => {
    const changed = { ...notice, visual: { to_review: 2, branch: 'feature/x' } };
    expect(JSON.parse(formatNotice('generic', changed, at)).visual).toEqual({
      to_review: 2,
      branch: 'feature/x',
    });
    expect(JSON.parse(formatNotice('slack', changed, at)).text).toMatch(
      /; changes to review: 2 visual checks$/,
    );
    const one = { ...notice, visual: { to_review: 1, branch: null } };
    expect(JSON.parse(formatNotice('slack', one, at)).text).toMatch(/; changes to review: 1 visual check$/);
    expect(JSON.parse(formatNotice('slack', notice, at)).text).not.toMatch(/visual/);
  });
  it('teams: a message with an Adaptive Card', () => {
    const body = JSON.parse(formatNotice('teams', { ...notice, event: 'recovery' }, at));
    expect(body.type).toBe('message');
    expect(body.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(body.attachments[0].content.type).toBe('AdaptiveCard');
    expect(body.attachments[0].content.body[0].text).toBe('Argus: Checkout on staging recovered (Shop)');
  });
  it('logs only a URL’s origin (a Slack URL’s path is its secret)', () => {
    expect(loggableUrl('https://hooks.slack.com/services/T0/B0/secretpart')).toBe('https://hooks.slack.com');
  });
});

describe('cron expressions', () => {
  it('checks expressions and time zones with croner', () => {
    expect(cronProblem('0 2 * * *', 'Europe/Paris')).toBeNull();
    expect(cronProblem('61 * * * *', 'UTC')).toMatch(/^Not a valid cron expression/);
    expect(cronProblem('0 2 * * *', 'Mars/Olympus')).toMatch(/^Unknown time zone/);
    expect(cronProblem('*/10 * * * * *', 'UTC')).toBe('A schedule may run at most once a minute');
    expect(cronProblem('0 0 30 2 *', 'UTC')).toBe('This cron expression never comes due');
  });
  it('finds the next due time in the schedule’s zone, across a change of daylight saving time', () => {
    // 02:00 in Paris is 01:00 UTC in winter, 00:00 UTC in summer.
    expect(nextDue('0 2 * * *', 'Europe/Paris', new Date('2026-11-26T10:00:00Z'))?.toISOString()).toBe(
      '2026-11-27T01:00:00.000Z',
    );
    expect(nextDue('0 2 * * *', 'Europe/Paris', new Date('2026-06-01T10:00:00Z'))?.toISOString()).toBe(
      '2026-06-02T00:00:00.000Z',
    );
    expect(nextDue('* * * * *', 'UTC', new Date('2026-11-26T10:00:30Z'))?.toISOString()).toBe(
      '2026-11-26T10:01:00.000Z',
    );
  });
});
