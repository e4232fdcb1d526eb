/**
 * The exported support file finds what a step names as Argus's engine does (the same page-functions
 * code): 'in "Buy milk"' is the row of "Buy milk", not of "Buy milk s73fgm" above it, "Add" the
 * button "Add task", not "Address book" before it, and a text as it is laid out.
 */
import { findChromium } from '@argus/engine';
import type { Page } from '@playwright/test';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectText, region, target } from './argus';

const LIST = `<!doctype html><title>Tasks</title>
<ul>
  <li><input type="checkbox" aria-label="Done"> <span>Buy milk s73fgm</span></li>
  <li><input type="checkbox" aria-label="Done"> <span>Buy milkshake</span></li>
  <li><input type="checkbox" aria-label="Done"> Buy milk</li>
</ul>
<p><button>Address book</button> <button>Add task</button></p>
<div style="display: flex; gap: 12px"><span>Total: <b>$25.00</b></span><span>Unpaid: <b>$12.50</b></span></div>`;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: findChromium() });
  // playwright-core's page is @playwright/test's at run time (the same library underneath).
  page = (await browser.newPage()) as unknown as Page;
  await page.setContent(LIST);
});
afterAll(async () => {
  await browser?.close();
});

describe("the export's support file names things as the engine does", () => {
  it('takes the row whose text is exactly the region, though rows containing it come first', async () => {
    const row = await region(page, 'Buy milk');
    await row.getByRole('checkbox').check();
    const checked = await page.evaluate(() =>
      [...document.querySelectorAll('li input')].map((box) => (box as HTMLInputElement).checked),
    );
    expect(checked).toEqual([false, false, true]);
    expect(await (await region(page, 'shake')).textContent()).toContain('Buy milkshake');
  });

  it('takes a control named with the words before one whose name merely contains them', async () => {
    expect(await (await target(page, 'Add')).textContent()).toBe('Add task');
  });

  it('reads a text as it is laid out, as the engine does: two boxes apart are two words', async () => {
    // The DOM's text reads "Total: $25.00Unpaid: $12.50"; getByText alone would not find it.
    expect(await page.getByText('Total: $25.00 Unpaid: $12.50').count()).toBe(0);
    await expectText(page, 'Total: $25.00 Unpaid: $12.50', true);
    await expectText(page, 'Total: $25.00 Unpaid: $25.00', false);
  });
});
