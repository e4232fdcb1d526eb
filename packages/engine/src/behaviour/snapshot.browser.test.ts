import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findChromium } from '../chromium';
import { readSnapshot } from './snapshot';

/** What the page reader calls a caption (SnapshotText.caption), in real Chromium. */
const PAGE = `<!doctype html><title>Ledger</title><main>
<nav aria-label="Categories"><span>Show:</span> <a href="/">All</a> <a href="/?c=food">Food</a></nav>
<table>
  <thead><tr><th scope="col">Description</th><th scope="col">Amount</th></tr></thead>
  <tbody><tr><td>Bread</td><td>$3.00</td></tr></tbody>
</table>
<table><tr><th scope="row">Food</th><td>1</td></tr></table>
<dl><div><dt>Status</dt><dd>Unpaid</dd></div></dl>
<p>Total: <strong>$3.00</strong></p>
<p role="status">Expense added</p>
</main>`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

describe('the page snapshot', () => {
  it('marks the texts that caption what sits beside them (column headers, terms, "Show:"), not data or messages', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(PAGE);
      const { texts } = await readSnapshot(page);
      const captions = Object.fromEntries(texts.map((t) => [t.text, t.caption]));
      expect(captions).toMatchObject({
        'Show:': true,
        Description: true,
        Amount: true,
        Status: true,
        Bread: false,
        '$3.00': false,
        Food: false,
        Unpaid: false,
        'Total: $3.00': false,
        'Expense added': false,
      });
    } finally {
      await page.close();
    }
  });
});
