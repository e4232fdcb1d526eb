import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStep } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { TargetPolicy } from './target-policy';

/**
 * A name a step gives picks what bears exactly that name before what bears it as words, and that
 * before what merely contains it: 'in "Buy milk"' is the row of "Buy milk", never the row of "Buy
 * milk s73fgm" that an earlier run (or another case) left above it.
 */
const LIST = `<!doctype html><title>Tasks</title>
<ul>
  <li><input type="checkbox" aria-label="Done"> <span>Buy milk s73fgm</span> <button>Delete</button></li>
  <li><input type="checkbox" aria-label="Done"> <span>Buy milkshake</span> <button>Delete</button></li>
  <li><input type="checkbox" aria-label="Done"> Buy milk <button>Delete</button></li>
</ul>
<p><button>Address book</button> <button>Add task</button> <button aria-label="Add a note">+</button></p>
<p id="said"></p>
<div class="sums" style="display: flex; gap: 12px"><span>Total: <b>$25.00</b></span><span>Unpaid: <b>$12.50</b></span></div>
<p><label>Kind <select><option>Food</option><option>Travel expenses</option></select></label></p>
<p style="display: none">Refunded: <b>$5.00</b></p>
<script>
  for (const b of document.querySelectorAll('button'))
    b.onclick = () => { document.getElementById('said').textContent = 'Pressed ' + (b.getAttribute('aria-label') ?? b.textContent) + ' in ' + (b.closest('li')?.textContent.replace(/\\s+/g, ' ').trim() ?? 'the page'); };
</script>`;

let server: Server;
let url: string;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(LIST));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('targets and regions named by text', () => {
  it('acts in the row named exactly, though rows whose names contain it come first', async () => {
    const session = await pool.openSession();
    try {
      await session.navigate(url);
      const selector = await session.perform(parseStep('Check the checkbox in "Buy milk"'));
      expect(selector).toBe('li:has(:text-is("Buy milk")) >> role=checkbox');
      const checked = await session.evaluate(
        () => [...document.querySelectorAll('li')].map((li) => li.querySelector('input')?.checked),
        null,
      );
      expect(checked).toEqual([false, false, true]);
      await session.perform(parseStep('Click "Delete" in "Buy milk"'));
      const said = await session.evaluate(() => document.getElementById('said')?.textContent, null);
      expect(said).toBe('Pressed Delete in Buy milk Delete');
    } finally {
      await session.close();
    }
  });

  it('reads a text as it is laid out: two boxes apart are two words, so a gap for a space fails no check', async () => {
    const session = await pool.openSession();
    const fails = (line: string) =>
      session.perform(parseStep(line), { timeoutMs: 300 }).then(
        () => false,
        () => true,
      );
    try {
      await session.navigate(url);
      // The DOM's text reads "Total: $25.00Unpaid: $12.50"; a person reads two words apart.
      await session.perform(parseStep('Verify text "Total: $25.00 Unpaid: $12.50" is visible'));
      expect(await fails('Verify text "Total: $25.00 Unpaid: $12.50" is not visible')).toBe(true);
      // Other figures are still not there.
      expect(await fails('Verify text "Total: $25.00 Unpaid: $25.00" is visible')).toBe(true);
      await session.perform(parseStep('Verify text "Total: $25.00 Unpaid: $25.00" is not visible'));
      // What a person does not read is still not there: a closed list's options, a hidden paragraph.
      await session.perform(parseStep('Verify text "Travel expenses" is not visible'));
      await session.perform(parseStep('Verify text "Refunded: $5.00" is not visible'));
    } finally {
      await session.close();
    }
  });

  it('prefers the name as whole words over a part of a word, and a part when nothing else matches', async () => {
    const session = await pool.openSession();
    const said = () => session.evaluate(() => document.getElementById('said')?.textContent, null);
    try {
      await session.navigate(url);
      // "Address book" comes first and contains "Add"; "Add task" holds it as a word.
      expect(await session.perform(parseStep('Click "Add"'))).toBe('role=button[name~="Add"]');
      expect(await said()).toBe('Pressed Add task in the page');
      // "shake" is only inside a longer word.
      await session.perform(parseStep('Click "Delete" in "shake"'));
      expect(await said()).toBe('Pressed Delete in Buy milkshake Delete');
      // As words, in any letter case: "MILK S73FGM" is only in the first row.
      expect(await session.perform(parseStep('Click "Delete" in "MILK S73FGM"'))).toMatch(/^li:has-text\(~/);
      expect(await said()).toBe('Pressed Delete in Buy milk s73fgm Delete');
    } finally {
      await session.close();
    }
  });
});
