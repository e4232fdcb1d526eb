import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, spawnServer } from '../apps/server/src/testing/spawn-server';
import { PageOpener, pageToken, registerAccount, signIn, toast } from './support/app';
import { describeViolations, isBlocking, runAxe } from './support/axe';
import { launchBrowser, screenshot } from './support/browser';

/**
 * The project page's Schedules and Notifications panels against the built server (docs/SCHEDULES.md):
 * a weekly schedule in a chosen time zone, a cron expression refused with croner's reason, a webhook
 * URL the target policy refuses, a webhook whose secret is shown once and whose test delivery reaches
 * a receiver on 127.0.0.1 signed with it, listed as delivered; at 1440 and 390 px.
 */

let server: RunningServer;
let browser: Browser;
let receiver: Server;
let receiverUrl = '';
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const pages = new PageOpener(() => browser);

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/argus`;
  [server, browser] = await Promise.all([spawnServer({ ALLOWED_TARGETS: '127.0.0.1' }), launchBrowser()]);
});

afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

async function api(page: Page, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${await pageToken(page)}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const d = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
}

describe('schedules and notifications on the project page', () => {
  it('schedules a suite, refuses what cannot be, and sends a signed test to a webhook', async () => {
    const user = await registerAccount(server.url, 'sched');
    const page = await pages.open();
    await signIn(page, server.url, user);
    const project = await api(page, 'POST', '/api/projects', {
      name: 'Shop',
      environments: [
        { name: 'staging', base_url: 'https://staging.shop.example/' },
        { name: 'production', base_url: 'https://shop.example/' },
      ],
    });
    await api(page, 'POST', `/api/projects/${project.id}/suites`, {
      name: 'Checkout',
      test_cases: [{ test_name: 'Home', steps: ['Navigate to /'] }],
    });
    await page.goto(`${server.url}/projects/${project.id}`);

    // A weekly schedule on production, in Paris time.
    const schedules = page.getByTestId('schedules-panel');
    await schedules.getByRole('button', { name: 'Add schedule' }).click();
    const form = page.getByTestId('schedule-form');
    await form.getByLabel('Environment').selectOption({ label: 'production' });
    await form.getByLabel('Weekly').check();
    await expect.poll(() => form.getByTestId('repeat-hint').textContent()).toContain('Every Monday at 06:00');
    await form.getByLabel('Time zone').selectOption('Europe/Paris');
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'schedules-form-1440');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    const row = schedules.getByTestId('schedule-row');
    await row.first().waitFor();
    expect(await row.first().textContent()).toMatch(
      /Checkout.*on production.*Every Monday at 06:00.*Europe\/Paris.*Next Mon \d+ \w+, 06:00/,
    );

    // A cron expression croner refuses: its reason under the field, nothing saved.
    await schedules.getByRole('button', { name: 'Add schedule' }).click();
    await form.getByLabel('Custom cron').check();
    await form.getByLabel('Cron expression').fill('61 * * * *');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await form.getByText(/Not a valid cron expression/).waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);

    // A webhook to cloud metadata is refused by the target policy.
    const hooks = page.getByTestId('webhooks-panel');
    await hooks.getByRole('button', { name: 'Add webhook' }).click();
    const hookForm = page.getByTestId('webhook-form');
    await hookForm.getByLabel('Name').fill('Ops');
    await hookForm.getByLabel('URL').fill('http://169.254.169.254/latest/meta-data/');
    await hookForm.getByRole('button', { name: 'Save webhook' }).click();
    await hookForm.getByText(/^The server may not call this URL: /).waitFor();

    // One the operator allows (127.0.0.1): its secret is shown once.
    await hookForm.getByLabel('URL').fill(receiverUrl);
    await hookForm.getByLabel('Slack').check();
    await hookForm.getByRole('button', { name: 'Save webhook' }).click();
    const secretBox = page.getByTestId('webhook-secret');
    await secretBox.waitFor();
    const secret = (await secretBox.locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'schedules-webhook-secret-1440');
    await secretBox.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByTestId('webhook-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // 'Send test': delivered to the receiver, signed with that secret, listed as delivered.
    await hooks.getByRole('button', { name: 'Send test' }).click();
    await toast(page, 'Test sent to Ops').waitFor();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    const [delivery] = received;
    const timestamp = delivery.headers['x-argus-timestamp'] as string;
    expect(delivery.headers['x-argus-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest('hex')}`,
    );
    expect(JSON.parse(delivery.body).text).toMatch(/^Argus: test notification from Shop/);
    const listed = hooks.getByTestId('webhook-delivery');
    await expect
      .poll(() => listed.first().getAttribute('data-status'), { timeout: 15_000 })
      .toBe('delivered');
    expect(await listed.first().textContent()).toMatch(/Delivered.*Test → Ops.*1 attempt.*HTTP 204/);

    const violations = describeViolations((await runAxe(page)).filter(isBlocking));
    expect(violations).toEqual([]);
    await screenshot(page, 'schedules-panels-1440');
    await page.getByTestId('schedules-panel').scrollIntoViewIfNeeded();
    await screenshot(page, 'schedules-panel-1440');

    // A phone's width: nothing sticks out.
    const phone = await pages.open({ width: 390, height: 844 });
    await signIn(phone, server.url, user);
    await phone.goto(`${server.url}/projects/${project.id}`);
    await phone.getByTestId('schedule-row').first().waitFor();
    await phone.getByTestId('schedules-panel').scrollIntoViewIfNeeded();
    await screenshot(phone, 'schedules-panel-390');
    await phone.getByTestId('schedules-panel').getByRole('button', { name: 'Add schedule' }).click();
    await phone.getByLabel('Custom cron').check();
    await phone.getByTestId('schedule-form').scrollIntoViewIfNeeded();
    await screenshot(phone, 'schedules-form-390');
    expect(await horizontalOverflow(phone)).toBe(0);
    await phone.getByTestId('schedule-form').getByRole('button', { name: 'Cancel' }).click();
    await phone.getByTestId('webhooks-panel').scrollIntoViewIfNeeded();
    await screenshot(phone, 'webhooks-panel-390');
    expect(await horizontalOverflow(phone)).toBe(0);
  });
});
