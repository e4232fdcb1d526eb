import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStep } from '@argus/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtureApp } from '../../../fixtures/apps/serve';
import { BrowserPool } from './browser-pool';
import type { BrowserSession } from './browser-session';
import { PageTracker } from './page-tracker';
import { performStep } from './perform-step';
import { TargetPolicy } from './target-policy';

/**
 * The step language's behaviour-test steps (regions, double-click, typing into the focused field,
 * checked and marked states, exact counts) against small single-page apps served here on 127.0.0.1:
 * each passes where it should and fails, saying what it expected and found, where it should not.
 */

/** A to-do list that re-renders its whole list on every change, like most small SPAs. */
const TODO = `<!doctype html><title>Todos</title>
<style>
  li .destroy { display: none } li:hover .destroy { display: inline-block }
  li.completed label { text-decoration: line-through } .edit { display: none } li.editing .edit { display: block }
  li.editing .view { display: none }
</style>
<section class="main"><h1>Todos</h1>
  <input class="new-todo" placeholder="What needs to be done?" aria-label="New todo">
  <ul class="todo-list"></ul>
</section>
<footer>
  <span class="todo-count"></span>
  <ul class="filters">
    <li><a href="#/" class="selected">All</a></li><li><a href="#/active">Active</a></li><li><a href="#/completed">Completed</a></li>
  </ul>
  <label><input type="checkbox" id="agree"> I agree</label>
</footer>
<script>
  let todos = [];
  let editing = -1;
  const list = document.querySelector('.todo-list');
  const filter = () => location.hash.replace('#/', '') || 'all';
  function render() {
    list.replaceChildren();
    todos.forEach((t, i) => {
      if ((filter() === 'active' && t.done) || (filter() === 'completed' && !t.done)) return;
      const li = document.createElement('li');
      if (t.done) li.className = 'completed';
      if (i === editing) li.classList.add('editing');
      const view = document.createElement('div');
      view.className = 'view';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = t.done;
      box.setAttribute('aria-label', 'Toggle ' + t.title);
      box.onchange = () => { t.done = box.checked; render(); };
      const label = document.createElement('label');
      label.textContent = t.title;
      label.ondblclick = () => { editing = i; render(); list.querySelector('li.editing .edit').focus(); };
      const destroy = document.createElement('button');
      destroy.className = 'destroy';
      destroy.setAttribute('aria-label', 'Delete ' + t.title);
      destroy.textContent = '×';
      destroy.onclick = () => { todos.splice(i, 1); render(); };
      view.append(box, label, destroy);
      const edit = document.createElement('input');
      edit.className = 'edit';
      edit.value = t.title;
      edit.setAttribute('aria-label', 'Edit ' + t.title);
      edit.onkeydown = (e) => { if (e.key === 'Enter') { t.title = edit.value.trim(); editing = -1; render(); } };
      li.append(view, edit);
      list.append(li);
    });
    const left = todos.filter((t) => !t.done).length;
    document.querySelector('.todo-count').textContent = left + (left === 1 ? ' item left' : ' items left');
    for (const a of document.querySelectorAll('.filters a')) {
      a.classList.toggle('selected', a.getAttribute('href') === '#/' + (filter() === 'all' ? '' : filter()));
    }
  }
  document.querySelector('.new-todo').onkeydown = (e) => {
    if (e.key !== 'Enter' || !e.target.value.trim()) return;
    todos.push({ title: e.target.value.trim(), done: false });
    e.target.value = '';
    render();
  };
  addEventListener('hashchange', render);
  render();
</script>`;

/** A cart: rows with quantity steppers, line totals and a remove button; a coupon. */
const CART = `<!doctype html><title>Cart</title>
<table><tbody id="lines"></tbody></table>
<p id="total"></p>
<form id="coupon"><label>Coupon <input name="coupon"></label><button>Apply</button><p id="msg" role="status"></p></form>
<div><span>Delivery</span> <button>Change</button></div>
<p><label><input type="checkbox" onclick="return false"> Gift wrap (sold out)</label></p>
<div class="promo-card"><span>Gift card</span> <button onclick="this.textContent = 'Added'">Add</button></div>
<script>
  const lines = [{ name: 'Widget', price: 10, qty: 1 }, { name: 'Gadget', price: 25, qty: 2 }];
  let off = 0;
  const money = (n) => '$' + n.toFixed(2);
  function render() {
    const body = document.getElementById('lines');
    body.replaceChildren();
    for (const l of lines) {
      const tr = document.createElement('tr');
      tr.dataset.state = l.qty > 1 ? 'multiple' : 'single';
      tr.innerHTML = '<th></th><td><button class="minus">−</button> <span class="qty"></span> <button class="plus">+</button></td><td class="line"></td><td><button class="remove">Remove</button></td>';
      tr.querySelector('th').textContent = l.name;
      tr.querySelector('.qty').textContent = l.qty;
      tr.querySelector('.line').textContent = money(l.price * l.qty);
      tr.querySelector('.minus').setAttribute('aria-label', 'Decrease quantity of ' + l.name);
      tr.querySelector('.plus').setAttribute('aria-label', 'Increase quantity of ' + l.name);
      tr.querySelector('.minus').onclick = () => { l.qty = Math.max(1, l.qty - 1); render(); };
      tr.querySelector('.plus').onclick = () => { l.qty++; render(); };
      tr.querySelector('.remove').onclick = () => { lines.splice(lines.indexOf(l), 1); render(); };
      body.append(tr);
    }
    const sum = lines.reduce((s, l) => s + l.price * l.qty, 0);
    document.getElementById('total').textContent = 'Total ' + money(sum * (1 - off));
  }
  document.getElementById('coupon').onsubmit = (e) => {
    e.preventDefault();
    const ok = e.target.coupon.value.trim().toUpperCase() === 'SAVE10';
    off = ok ? 0.1 : 0;
    document.getElementById('msg').textContent = ok ? 'Coupon applied' : 'Unknown coupon';
    render();
  };
  render();
</script>`;

/** A desk's list and report: a counter of open rows, a total row, and a bin shown by hovering its heading. */
const DESK = `<!doctype html><title>Desk</title>
<style>.head button { visibility: hidden } .head:hover button { visibility: visible }</style>
<div class="head"><h1>Paper jam</h1><button aria-hidden="false" onclick="document.getElementById('said').textContent='Bin pressed'"><svg width="16" height="16"></svg></button></div>
<p id="said"></p>
<p class="count"><strong id="open">2</strong> open tickets</p>
<table><tbody>
  <tr><td>#1</td><td><a href="#1">Open the door</a></td><td><span>Open</span></td></tr>
  <tr><td>#2</td><td><a href="#2">Printer jam</a></td><td><span>Closed</span></td></tr>
  <tr><td>#3</td><td><a href="#3">Walk the dog</a></td><td><span>Open</span></td></tr>
</tbody></table>`;
const REPORT = `<!doctype html><title>Report</title>
<table><caption>By status</caption><tbody>
  <tr><th scope="row">Open</th><td>2</td></tr><tr><th scope="row">Closed</th><td id="closed">1</td></tr>
</tbody><tfoot><tr><th scope="row">All tickets</th><td>3</td></tr></tfoot></table>`;

const PAGES: Record<string, string> = { '/todo': TODO, '/cart': CART, '/desk': DESK, '/report': REPORT };

let server: Server;
let site: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const page = PAGES[req.url ?? ''];
    if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
afterAll(() => pool.close());

/** Runs lines in one session; each must pass. Answers the selectors. */
async function run(session: BrowserSession, lines: string[]): Promise<(string | null)[]> {
  const selectors: (string | null)[] = [];
  for (const line of lines) {
    try {
      selectors.push(await session.perform(parseStep(line)));
    } catch (error) {
      throw new Error(`${line}: ${(error as Error).message}`);
    }
  }
  return selectors;
}

/**
 * The error a line fails with (within a short timeout: each lookup makes one whole pass over the
 * settled page before its deadline counts, so the message does not depend on it; every failing line
 * waits it out).
 */
async function failure(session: BrowserSession, line: string, timeoutMs = 400): Promise<string> {
  const outcome = await session.perform(parseStep(line), { timeoutMs }).then(
    () => 'passed',
    (error: Error) => error.message,
  );
  expect(outcome, line).not.toBe('passed');
  return outcome;
}

/** A session on the to-do app with "Buy milk" and "Walk the dog" added. */
async function todoSession(): Promise<BrowserSession> {
  const session = await pool.openSession({ viewport: { width: 800, height: 600 } });
  await session.navigate(`${site}/todo`);
  await run(session, [
    'Fill "New todo" with "Buy milk"',
    'Press Enter in "New todo"',
    'Type "Walk the dog"',
    'Press Enter',
    'Verify exactly 2 listitems are visible in "Todos"',
  ]);
  return session;
}

describe('behaviour steps on a to-do list', () => {
  it('adds, completes, filters, edits and deletes items', async () => {
    const session = await todoSession();
    try {
      const lines = [
        'Verify text "2 items left" is visible',
        'Verify the checkbox in "Buy milk" is not checked',
        'Check the checkbox in "Buy milk"',
        'Verify the checkbox in "Buy milk" is checked',
        'Verify "Toggle Buy milk" is checked',
        'Verify "Toggle Walk the dog" is not checked',
        'Verify "Buy milk" is marked "completed"',
        'Verify "Walk the dog" is not marked "completed"',
        'Verify text "1 item left" is visible',
        'Click link "Active"',
        'Verify link "Active" is marked "selected"',
        'Verify link "All" is not marked "selected"',
        'Verify exactly 1 listitem is visible in "Todos"',
        'Verify text "Buy milk" is not visible in "Todos"',
        'Click "All"',
        'Verify exactly 2 listitems are visible in "Todos"',
        'Verify exactly 5 listitems are visible',
        'Verify exactly 3 checkboxes are visible',
        'Uncheck the checkbox in "Buy milk"',
        'Verify "Buy milk" is not marked "completed"',
        'Double-click "Buy milk"',
        'Fill the focused field with "Buy oat milk"',
        'Press Enter',
        'Verify text "Buy oat milk" is visible in "Todos"',
        'Double-click "Walk the dog"',
        'Type " twice"',
        'Press Enter',
        'Verify text "Walk the dog twice" is visible',
        'Click button "Delete" in "Walk the dog twice"',
        'Verify text "Walk the dog twice" is not visible',
        'Verify exactly 1 listitem is visible in "Todos"',
        'Hover "Buy oat milk" in "Todos"',
        'Verify button "Delete" is visible in "Buy oat milk"',
        'Check "I agree"',
        'Verify "I agree" is checked',
      ];
      const selectors = await run(session, lines);
      const selector = (line: string) => selectors[lines.indexOf(line)];
      expect(selector('Check the checkbox in "Buy milk"')).toBe(
        'li:has(:text-is("Buy milk")) >> role=checkbox',
      );
      expect(selector('Click button "Delete" in "Walk the dog twice"')).toBe(
        'li:has(:text-is("Walk the dog twice")) >> role=button[name~="Delete"]',
      );
      expect(selector('Fill the focused field with "Buy oat milk"')).toBe(':focus');
      expect(selector('Double-click "Buy milk"')).toBe('text="Buy milk"');
      expect(selector('Verify "Buy milk" is marked "completed"')).toBe('text="Buy milk"');
    } finally {
      await session.close();
    }
  });

  it('fails each new step where it should not pass, saying what it expected and what it found', async () => {
    const session = await todoSession();
    const url = `${site}/todo`;
    try {
      await run(session, ['Check the checkbox in "Buy milk"']);
      expect(await failure(session, 'Click "Remove" in "Buy bread"')).toBe(
        `No visible region (list item, row, article, group, form, dialog or section) containing "Buy bread" on ${url}`,
      );
      expect(await failure(session, 'Click button "Archive" in "Buy milk"')).toBe(
        // What the region held is said, so a reader sees the step looked in the right item.
        `No visible button matching "Archive" in "Buy milk" on ${url} (the region is the li reading "Buy milk×"; its controls: "Delete Buy milk")`,
      );
      expect(await failure(session, 'Double-click "Buy bread"')).toBe(
        `No visible element matching "Buy bread" on ${url}`,
      );
      expect(await failure(session, 'Verify the checkbox in "Buy milk" is not checked')).toBe(
        `Expected the checkbox in "Buy milk" not to be checked, but it is checked on ${url}`,
      );
      expect(await failure(session, 'Verify "Toggle Walk the dog" is checked')).toBe(
        `Expected "Toggle Walk the dog" to be checked, but it is not checked on ${url}`,
      );
      expect(await failure(session, 'Verify exactly 3 listitems are visible in "Todos"')).toBe(
        `Expected exactly 3 listitems to be visible in "Todos", found 2 on ${url}`,
      );
      expect(await failure(session, 'Verify exactly 1 checkbox is visible')).toBe(
        `Expected exactly 1 checkbox to be visible, found 3 on ${url}`,
      );
      expect(await failure(session, 'Verify text "Walk the dog" is visible in "Buy milk"')).toBe(
        `Expected the text "Walk the dog" to be visible in "Buy milk" on ${url}`,
      );
      expect(await failure(session, 'Verify text "Buy milk" is not visible in "Todos"')).toBe(
        `Expected the text "Buy milk" not to be visible in "Todos" on ${url}`,
      );
      expect(await failure(session, 'Verify button "Delete Walk the dog" is visible in "Buy milk"')).toBe(
        `Expected a button named "Delete Walk the dog" to be visible in "Buy milk" on ${url}`,
      );
      expect(await failure(session, 'Verify "Walk the dog" is marked "completed"')).toBe(
        `Expected "Walk the dog" to be marked "completed", but it is not (li > div.view > label) on ${url}`,
      );
      expect(await failure(session, 'Verify "Buy milk" is not marked "completed"')).toBe(
        `Expected "Buy milk" not to be marked "completed", but it is (li.completed > div.view > label) on ${url}`,
      );
      expect(await failure(session, 'Verify link "Active" is marked "selected"')).toBe(
        `Expected "Active" to be marked "selected", but it is not (li > a) on ${url}`,
      );
      // A checkbox has focus: not a field.
      await run(session, ['Click "I agree"']);
      expect(await failure(session, 'Type "x"')).toBe(
        `Expected a focused field to type "x" into, but <input[type=checkbox]> "I agree" has focus on ${url}`,
      );
      await run(session, ['Click "Todos"']);
      expect(await failure(session, 'Fill the focused field with "x"')).toBe(
        `Expected a focused field to fill with "x", but nothing has focus on ${url}`,
      );
      expect(await failure(session, 'Check the checkbox in "items left"')).toBe(
        `No visible region (list item, row, article, group, form, dialog or section) containing "items left" on ${url}`,
      );
    } finally {
      await session.close();
    }
  });

  it('checks an item that the filter then hides (the checkbox it clicked is gone)', async () => {
    const session = await todoSession();
    try {
      await run(session, [
        'Click link "Active"',
        'Check the checkbox in "Buy milk"',
        'Verify text "Buy milk" is not visible',
        'Check "Toggle Walk the dog"',
        'Verify exactly 0 listitems are visible in "Todos"',
        'Click link "Completed"',
        'Verify the checkbox in "Buy milk" is checked',
        'Uncheck the checkbox in "Walk the dog"',
        'Verify exactly 1 listitem is visible in "Todos"',
      ]);
    } finally {
      await session.close();
    }
  });

  it('takes the screenshot before moving the mouse over a region to reveal a hidden control', async () => {
    await pool.withContext(async (context) => {
      const page: Page = await context.newPage();
      await page.goto(`${site}/todo`);
      const calls: string[] = [];
      const ctx = {
        page,
        tracker: new PageTracker(page),
        timeout: 5_000,
        signal: new AbortController().signal,
        beforeChange: async () => {
          const hovered = await page.evaluate(() => document.querySelectorAll('li:hover').length);
          calls.push(`beforeChange hovered=${hovered}`);
        },
        navigate: async () => ({ requested: '', status: 200 }),
      };
      for (const line of ['Fill "New todo" with "Buy milk"', 'Press Enter in "New todo"']) {
        await performStep(ctx, parseStep(line));
      }
      calls.length = 0;
      await performStep(ctx, parseStep('Click button "Delete" in "Buy milk"'));
      expect(calls[0]).toBe('beforeChange hovered=0');
      expect(await page.locator('.todo-list li').count()).toBe(0);

      // Without a region, a hidden button is revealed by hovering its own item.
      for (const line of [
        'Fill "New todo" with "Walk the dog"',
        'Press Enter in "New todo"',
        'Hover "Todos"',
      ]) {
        await performStep(ctx, parseStep(line));
      }
      calls.length = 0;
      expect(await performStep(ctx, parseStep('Click button "Delete Walk the dog"'))).toBe(
        'role=button[name="Delete Walk the dog" exact]',
      );
      expect(calls[0]).toBe('beforeChange hovered=0');
      expect(await page.locator('.todo-list li').count()).toBe(0);
    });
  });
});

describe('behaviour steps on a shopping cart', () => {
  it('changes quantities, checks line totals, removes a line and applies a coupon', async () => {
    const session = await pool.openSession({ viewport: { width: 800, height: 600 } });
    const url = `${site}/cart`;
    try {
      await session.navigate(url);
      const selectors = await run(session, [
        'Verify exactly 2 rows are visible',
        'Verify text "$10.00" is visible in "Widget"',
        'Click "+" in "Widget"',
        'Click button "Increase quantity" in "Widget"',
        'Verify text "$30.00" is visible in "Widget"',
        'Verify text "$50.00" is visible in "Gadget"',
        'Verify "Widget" is marked "multiple"',
        'Verify text "$50.00" is visible in "Gadget"',
        'Verify exactly 3 buttons are visible in "Gadget"',
        'Verify text "−" is visible in "Gadget"',
        'Click "−" in "Gadget"',
        'Verify "Gadget" is marked "single"',
        'Verify text "Total $55.00" is visible',
        'Click "Remove" in "Gadget"',
        'Verify exactly 1 row is visible',
        'Verify text "Gadget" is not visible',
        'Fill "Coupon" with "save10"',
        'Click "Apply" in "Coupon"',
        'Verify text "Coupon applied" is visible in "Coupon"',
        'Verify text "Total $27.00" is visible',
        'Verify exactly 3 cells are visible in "Widget"',
      ]);
      expect(selectors[2]).toBe('tr:has(:text-is("Widget")) >> text="+"');
      expect(await failure(session, 'Verify text "$30.00" is visible in "Gadget"')).toBe(
        `No visible region (list item, row, article, group, form, dialog or section) containing "Gadget" on ${url}`,
      );
      expect(await failure(session, 'Verify "Widget" is marked "single"')).toBe(
        `Expected "Widget" to be marked "single", but it is not (tr[data-state="multiple"] > th) on ${url}`,
      );
      expect(await failure(session, 'Check "Gift wrap"')).toBe(
        `Clicked the checkbox to check it, but it is still not checked on ${url}`,
      );
      expect(await failure(session, 'Click "Change" in "Delivery"')).toMatch(
        /^No visible region .* "Delivery" on /,
      );
      // No item or group holds it, but an element whose class names a card does.
      expect(
        await run(session, ['Click "Add" in "Gift card"', 'Verify text "Added" is visible in "Gift card"']),
      ).toEqual([
        'div:has(:text-is("Gift card")) >> role=button[name="Add" exact]',
        'div:has(:text-is("Gift card")) >> text*="Added"',
      ]);
    } finally {
      await session.close();
    }
  });
});

/** The worked examples of docs/STEP-LANGUAGE.md (keep them the same), on the fixture apps with no bug on. */
const TODO_EXAMPLE = [
  'Fill "New todo" with "Buy milk"',
  'Press Enter',
  'Type "Walk the dog"',
  'Press Enter',
  'Verify exactly 2 listitems are visible in "Mark all as complete"',
  'Verify text "2 items left" is visible',
  'Check the checkbox in "Buy milk"',
  'Verify "Buy milk" is marked "completed"',
  'Verify text "1 item left" is visible',
  'Click link "Active"',
  'Verify link "Active" is marked "selected"',
  'Verify link "Active" is marked "current"',
  'Verify text "Buy milk" is not visible',
  'Click link "All"',
  'Double-click "Walk the dog"',
  'Fill the focused field with "Walk the dog twice"',
  'Press Enter',
  'Click button "Delete" in "Walk the dog twice"',
  'Verify text "Walk the dog twice" is not visible',
];
const CART_EXAMPLE = [
  'Click button "Increase quantity" in "Trail Running Shoes"',
  'Verify text "$178.00" is visible in "Trail Running Shoes"',
  'Verify field "Quantity of Trail Running Shoes" has value "2"',
  'Click "Remove" in "Merino Wool Socks"',
  'Verify text "Merino Wool Socks" is not visible',
  'Fill "Coupon code" with "SAVE10"',
  'Click button "Apply" in "Coupon code"',
  'Verify text "Coupon SAVE10 applied" is visible in "Coupon code"',
];

describe('the documented examples on the fixture apps', () => {
  for (const [app, lines] of [
    ['todo', TODO_EXAMPLE],
    ['cart', CART_EXAMPLE],
  ] as const) {
    it(`${app}: every step passes`, async () => {
      const served = await serveFixtureApp(app);
      const session = await pool.openSession({ viewport: { width: 1000, height: 800 } });
      try {
        await session.navigate(`${served.url}/`);
        await run(session, lines);
      } finally {
        await session.close();
        await served.close();
      }
    });
  }
});

describe('native states as marks', () => {
  it('a disabled button is marked "disabled" (and an enabled one is not)', async () => {
    const served = await serveFixtureApp('cart');
    const session = await pool.openSession({ viewport: { width: 1000, height: 800 } });
    const url = `${served.url}/`;
    try {
      await session.navigate(url);
      // The shoes start at quantity 1: the cart does not let it go lower.
      await run(session, [
        'Verify button "Decrease quantity" is marked "disabled" in "Trail Running Shoes"',
        'Verify button "Increase quantity" is not marked "disabled" in "Trail Running Shoes"',
      ]);
      expect(
        await failure(
          session,
          'Verify button "Increase quantity" is marked "disabled" in "Trail Running Shoes"',
        ),
      ).toMatch(
        /^Expected "Increase quantity" in "Trail Running Shoes" to be marked "disabled", but it is not/,
      );
      served.setBug('minus-goes-below-one');
      await session.navigate(url);
      expect(
        await failure(
          session,
          'Verify button "Decrease quantity" is marked "disabled" in "Trail Running Shoes"',
        ),
      ).toMatch(
        /^Expected "Decrease quantity" in "Trail Running Shoes" to be marked "disabled", but it is not/,
      );
    } finally {
      await session.close();
      await served.close();
    }
  });
});

describe('the button in a row, named by its place', () => {
  it('is the icon button with no name of its own, not the named one beside it', async () => {
    const served = await serveFixtureApp('ledger');
    const session = await pool.openSession({ viewport: { width: 1000, height: 800 } });
    try {
      await session.navigate(`${served.url}/new`);
      await run(session, [
        'Fill "Description" with "Buy milk"',
        'Fill "Amount" with "12.50"',
        'Click button "Add expense"',
        'Navigate to /new',
        'Fill "Description" with "Walk the dog"',
        'Fill "Amount" with "3"',
        'Click button "Add expense"',
      ]);
      // The row holds "Mark as paid" first, then a bin that holds only an icon.
      const [selector] = await run(session, ['Click the button in "Walk the dog"']);
      expect(selector).toMatch(/>> role=button >> nth=1$/);
      await run(session, [
        'Verify text "Deleted" is visible',
        'Verify text "Total: $12.50" is visible',
        'Verify text "Buy milk" is visible',
        'Verify text "Mark as paid" is visible in "Buy milk"',
      ]);
    } finally {
      await session.close();
      await served.close();
    }
  });
});

describe('the checkbox in a row of plain divs, named by its place', () => {
  it('is ticked and checked in the smallest block holding the text (the shelf redesign: no list item)', async () => {
    const served = await serveFixtureApp('shelf', { redesign: true });
    const session = await pool.openSession({ viewport: { width: 1000, height: 800 } });
    try {
      await session.navigate(`${served.url}/`);
      await run(session, [
        'Fill "Title of your next novel" with "Buy milk"',
        'Press Enter in "Title of your next novel"',
        'Fill "Title of your next novel" with "Walk the dog"',
        'Press Enter in "Title of your next novel"',
        'Check the checkbox in "Walk the dog"',
        'Verify the checkbox in "Walk the dog" is checked',
        'Verify the checkbox in "Buy milk" is not checked',
      ]);
      expect(await failure(session, 'Verify the checkbox in "Buy milk" is checked')).toMatch(
        /^Expected the checkbox in "Buy milk" to be checked, but it is not checked/,
      );
    } finally {
      await session.close();
      await served.close();
    }
  });
});

describe('summaries and counters, whatever the data', () => {
  it('checks that rows add up to their total and that a counter counts the rows it names', async () => {
    const session = await pool.openSession({ viewport: { width: 800, height: 600 } });
    const list = `${site}/desk`;
    const report = `${site}/report`;
    try {
      await session.navigate(report);
      await run(session, ['Verify the rows "Open" + "Closed" add up to "All tickets"']);
      await changePage(session, () => {
        document.getElementById('closed')!.textContent = '4';
      });
      expect(await failure(session, 'Verify the rows "Open" + "Closed" add up to "All tickets"')).toBe(
        `Expected "Open" + "Closed" (2 + 4 = 6) to add up to "All tickets" (3) on ${report}`,
      );
      expect(await failure(session, 'Verify the rows "Open" + "Pending" add up to "All tickets"')).toBe(
        `Expected rows "Open", "Pending", "All tickets" each with one number, but found none for "Pending" on ${report}`,
      );
      // "Open the door" is a subject, not a cell reading "Open": it is not counted.
      await session.navigate(list);
      await run(session, ['Verify the number in "open tickets" counts the rows showing "Open"']);
      await changePage(session, () => {
        document.getElementById('open')!.textContent = '3';
      });
      expect(
        await failure(session, 'Verify the number in "open tickets" counts the rows showing "Open"'),
      ).toBe(`Expected the number in "open tickets" (3) to count the rows showing "Open" (2) on ${list}`);
    } finally {
      await session.close();
    }
  });

  it('finds a nameless button shown on hover by the text of the block it sits in', async () => {
    const session = await pool.openSession({ viewport: { width: 800, height: 600 } });
    try {
      await session.navigate(`${site}/desk`);
      await run(session, ['Click the button in "Paper jam"', 'Verify text "Bin pressed" is visible']);
    } finally {
      await session.close();
    }
  });
});

/** Changes the page as its own script would. */
async function changePage(session: BrowserSession, change: () => void): Promise<void> {
  await session.evaluate(change, undefined);
}
