/**
 * Schedules and webhooks through the API, without running anything: validation (presets, cron
 * expressions, time zones), the target policy on webhook URLs, secrets shown once, ownership.
 * Runs, deliveries and two processes are in schedules/schedules.api.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { RunningServer } from '../testing/spawn-server';

describe.each(apiTargets())('schedules and webhooks API, on $name', ({ start }) => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let alice: { token: string };
  let bob: { token: string };
  let project: { id: string; environments: { id: string; name: string }[] };
  let suite: { id: string };

  beforeAll(async () => {
    // 127.0.0.1 is allowed (as an operator would allow an internal receiver); 10.0.0.0/8 is not.
    server = await start({ ALLOWED_TARGETS: '127.0.0.1', SCHEDULER_ENABLED: 'false' });
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    const created = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: {
        name: 'Shop',
        environments: [
          { name: 'staging', base_url: 'https://staging.shop.test/' },
          { name: 'production', base_url: 'https://shop.test/' },
        ],
      },
    });
    project = created.data;
    const saved = await api.call('POST', `/api/projects/${project.id}/suites`, {
      token: alice.token,
      json: { name: 'Smoke', test_cases: [{ test_name: 'Home', steps: ['Navigate to /'] }] },
    });
    expect(saved.status).toBe(201);
    suite = saved.data;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const schedules = () => `/api/projects/${project.id}/schedules`;
  const webhooks = () => `/api/projects/${project.id}/webhooks`;

  it('creates a nightly schedule from its preset, on the default environment, due at 02:00 in its zone', async () => {
    const res = await api.call('POST', schedules(), {
      token: alice.token,
      json: { suite_id: suite.id, preset: 'nightly', timezone: 'Europe/Paris' },
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      suite_name: 'Smoke',
      environment_name: 'staging',
      cron: '0 2 * * *',
      preset: 'nightly',
      timezone: 'Europe/Paris',
      enabled: true,
      last_outcome: null,
    });
    const next = new Date(res.data.next_run_at);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Paris',
        hour: '2-digit',
        minute: '2-digit',
      }).format(next),
    ).toBe('02:00');
    const list = await api.call('GET', schedules(), { token: alice.token });
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([res.data.id]);
  });

  it('takes a custom cron expression on a named environment, and changes and disables it', async () => {
    const production = project.environments.find((e) => e.name === 'production')!;
    const res = await api.call('POST', schedules(), {
      token: alice.token,
      json: { suite_id: suite.id, environment_id: production.id, cron: '*/15 9-17 * * 1-5', timezone: 'UTC' },
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      preset: null,
      environment_name: 'production',
      cron: '*/15 9-17 * * 1-5',
    });
    const weekly = await api.call('PUT', `${schedules()}/${res.data.id}`, {
      token: alice.token,
      json: { preset: 'weekly' },
    });
    expect(weekly.data).toMatchObject({ preset: 'weekly', cron: '0 6 * * 1' });
    expect(new Date(weekly.data.next_run_at).getUTCDay()).toBe(1);
    const off = await api.call('PUT', `${schedules()}/${res.data.id}`, {
      token: alice.token,
      json: { enabled: false },
    });
    expect(off.data).toMatchObject({ enabled: false, next_run_at: null });
    const gone = await api.call('DELETE', `${schedules()}/${res.data.id}`, { token: alice.token });
    expect(gone.status).toBe(204);
  });

  it.each([
    [{ cron: '61 * * * *', timezone: 'UTC' }, 'cron', /Not a valid cron expression/],
    [{ cron: '* * *', timezone: 'UTC' }, 'cron', /five fields/],
    [{ cron: '* * * * * *', timezone: 'UTC' }, 'cron', /at most once a minute/],
    [{ cron: '0 0 30 2 *', timezone: 'UTC' }, 'cron', /never comes due/],
    [{ preset: 'nightly', timezone: 'Mars/Olympus' }, 'timezone', /Unknown time zone/],
    [{ timezone: 'UTC' }, 'cron', /Choose a preset or write a cron expression/],
    [{ preset: 'daily', timezone: 'UTC' }, 'preset', /./],
  ])('refuses %j with 422 naming %s', async (input, field, message) => {
    const res = await api.call('POST', schedules(), {
      token: alice.token,
      json: { suite_id: suite.id, ...input },
    });
    expect(res.status).toBe(422);
    expect(res.data.code).toBe('VALIDATION');
    const issue = res.data.detail.find((one: { loc: string[] }) => one.loc.includes(field));
    expect(issue?.msg).toMatch(message);
  });

  it('creates a webhook and shows its signing secret once', async () => {
    const res = await api.call('POST', webhooks(), {
      token: alice.token,
      json: {
        name: 'Receiver',
        url: 'http://127.0.0.1:9/hook',
        format: 'slack',
        events: ['failure', 'recovery'],
      },
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      name: 'Receiver',
      format: 'slack',
      events: ['failure', 'recovery'],
      enabled: true,
    });
    expect(res.data.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await api.call('GET', webhooks(), { token: alice.token });
    expect(list.data).toHaveLength(1);
    expect(list.data[0].secret).toBeUndefined();
    expect(JSON.stringify(list.data)).not.toContain(res.data.secret);
    const rotated = await api.call('POST', `${webhooks()}/${res.data.id}/secret`, { token: alice.token });
    expect(rotated.status).toBe(200);
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(res.data.secret);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', /metadata|link-local|private|not allowed|blocked/i],
    ['http://10.1.2.3/hook', /./],
    ['http://[::1]:9/hook', /./],
    [`${'http://127.0.0.1'}:__PORT__/hook`, /./],
  ])('refuses the webhook URL %s with 422 (the target policy)', async (raw, reason) => {
    const url = raw.replace('__PORT__', String(server.port));
    const res = await api.call('POST', webhooks(), { token: alice.token, json: { name: 'Bad', url } });
    expect(res.status).toBe(422);
    expect(res.data.code).toBe('VALIDATION');
    expect(res.data.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_refused' });
    expect(res.data.detail[0].msg).toMatch(/^The server may not call this URL: /);
    expect(res.data.detail[0].msg).toMatch(reason);
  });

  it('refuses a non-http URL and unknown formats and events', async () => {
    for (const json of [
      { name: 'x', url: 'ftp://example.com/' },
      { name: 'x', url: 'https://example.com/', format: 'discord' },
      { name: 'x', url: 'https://example.com/', events: ['sometimes'] },
      { name: 'x', url: 'https://example.com/', events: [] },
    ]) {
      const res = await api.call('POST', webhooks(), { token: alice.token, json });
      expect(res.status, JSON.stringify(json)).toBe(422);
    }
  });

  it('refuses a changed URL the policy refuses', async () => {
    const list = await api.call('GET', webhooks(), { token: alice.token });
    const res = await api.call('PUT', `${webhooks()}/${list.data[0].id}`, {
      token: alice.token,
      json: { url: 'http://192.168.1.1/' },
    });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'url']);
  });

  it("answers 404 for another user's project, schedule and webhook, as for missing ones", async () => {
    const list = await api.call('GET', webhooks(), { token: alice.token });
    const mine = await api.call('GET', schedules(), { token: alice.token });
    const hookId = list.data[0].id;
    const scheduleId = mine.data[0].id;
    for (const [method, path, json] of [
      ['GET', schedules(), undefined],
      ['POST', schedules(), { suite_id: suite.id, preset: 'hourly' }],
      ['PUT', `${schedules()}/${scheduleId}`, { enabled: false }],
      ['DELETE', `${schedules()}/${scheduleId}`, undefined],
      ['GET', webhooks(), undefined],
      ['GET', `${webhooks()}/deliveries`, undefined],
      ['PUT', `${webhooks()}/${hookId}`, { name: 'mine now' }],
      ['POST', `${webhooks()}/${hookId}/secret`, undefined],
      ['POST', `${webhooks()}/${hookId}/test`, undefined],
      ['DELETE', `${webhooks()}/${hookId}`, undefined],
    ] as const) {
      const res = await api.call(method, path, { token: bob.token, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.data.code).toBe('PROJECT_NOT_FOUND');
    }
    const missing = await api.call('PUT', `${schedules()}/00000000-0000-4000-8000-000000000000`, {
      token: alice.token,
      json: { enabled: false },
    });
    expect(missing.status).toBe(404);
    expect(missing.data.code).toBe('SCHEDULE_NOT_FOUND');
    const missingHook = await api.call('DELETE', `${webhooks()}/00000000-0000-4000-8000-000000000000`, {
      token: alice.token,
    });
    expect(missingHook.data.code).toBe('WEBHOOK_NOT_FOUND');
    const otherSuite = await api.call('POST', schedules(), {
      token: alice.token,
      json: { suite_id: '00000000-0000-4000-8000-000000000000', preset: 'hourly' },
    });
    expect(otherSuite.data.code).toBe('SUITE_NOT_FOUND');
    const otherEnvironment = await api.call('POST', schedules(), {
      token: alice.token,
      json: { suite_id: suite.id, environment_id: '00000000-0000-4000-8000-000000000000', preset: 'hourly' },
    });
    expect(otherEnvironment.status).toBe(404);
    expect(otherEnvironment.data.code).toBe('ENVIRONMENT_NOT_FOUND');
  });
});
