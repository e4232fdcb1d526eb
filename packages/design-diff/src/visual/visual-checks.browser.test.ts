import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserPool, runTestCase, TargetPolicy } from '@argus/engine';
import { TestCaseSchema } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intersection } from '../regions';
import { createVisualChecks, MemoryBaselineStore } from './visual-checks';

// Visual checks in a test case, end to end: the engine's runner carries out `Verify … looks as
// approved` through `createVisualChecks` over a baseline store in memory, on real Chromium.

/** What the page shows; each test changes it between runs. */
const look = { button: '#1e88e5', banner: 'Welcome', clock: false };
const BUTTON = { x: 100, y: 300, width: 160, height: 48 };

const page = () => `<!doctype html><html><head><style>
  body { margin: 0; font: 20px/1.2 sans-serif; background: #fff; }
  #banner { position: absolute; left: 40px; top: 30px; }
  #clock { position: absolute; left: 600px; top: 30px; font-family: monospace; }
  #buy { position: absolute; left: ${BUTTON.x}px; top: ${BUTTON.y}px; width: ${BUTTON.width}px;
    height: ${BUTTON.height}px; border: 0; color: #fff; background: ${look.button}; font: inherit; }
  #pricing { position: absolute; left: 500px; top: 400px; width: 300px; padding: 10px; }
</style></head><body>
  <p id="banner">${look.banner}</p>
  ${look.clock ? '<div id="clock"></div>' : ''}
  <button id="buy" onclick="document.getElementById('done').textContent = 'Bought'">Buy</button>
  <p id="done"></p>
  <input aria-label="Note" style="position: absolute; left: 40px; top: 500px">
  <section id="pricing"><h2>Pricing</h2><p>$10 a month</p></section>
  <script>
    const clock = document.getElementById('clock');
    const tick = () => {
      const now = new Date();
      clock.textContent = now.toISOString().slice(11, 19) + '.' + String(now.getMilliseconds()).padStart(3, '0');
    };
    if (clock) { tick(); setInterval(tick, 100); }
  </script>
</body></html>`;

const VIEWPORT = { width: 1024, height: 600 };
let server: Server;
let site: string;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function run(store: MemoryBaselineStore, steps: string[]) {
  return runTestCase(
    pool,
    TestCaseSchema.parse({ test_name: 'visual', steps: [`Navigate to ${site}`, ...steps] }),
    {
      baseUrl: site,
      viewport: VIEWPORT,
      screenshots: false,
      visual: createVisualChecks(store),
    },
  );
}

const statuses = (outcome: Awaited<ReturnType<typeof run>>) =>
  (outcome.visualChecks ?? []).map((c) => `${c.name}: ${c.status}`);

describe('Verify … looks as approved, through createVisualChecks', () => {
  it("is new on its first run, the same on the next, and changed with a colour issue at the button whose colour changed; the case's later steps still run", async () => {
    Object.assign(look, { button: '#1e88e5', banner: 'Welcome', clock: false });
    const store = new MemoryBaselineStore();
    const steps = ['Verify the page looks as approved', 'Click "Buy"', 'Verify text "Bought" is visible'];

    const first = await run(store, steps);
    expect(first.status).toBe('passed');
    expect(statuses(first)).toEqual(['page: new']);
    expect(store.isPending({ name: 'page', viewport: VIEWPORT })).toBe(true);

    const second = await run(store, steps);
    expect(second.error).toBeNull();
    expect(statuses(second)).toEqual(['page: same']);

    look.button = '#e53935';
    const third = await run(store, steps);
    expect(statuses(third)).toEqual(['page: changed']);
    const [check] = third.visualChecks ?? [];
    expect(check.step_index).toBe(1);
    expect(check.issues.length).toBeGreaterThan(0);
    const colour = check.issues.find((i) => i.kind === 'colour');
    expect(colour?.message).toMatch(/colour/);
    expect(intersection(colour?.box ?? { x: 0, y: 0, width: 0, height: 0 }, BUTTON)).toBeGreaterThan(0);
    // Every issue is at the button: nothing else changed.
    for (const issue of check.issues)
      expect(intersection(issue.box, BUTTON), issue.message).toBeGreaterThan(0);
    // A difference is for review: the click and the check after it ran and passed.
    expect(third.status).toBe('passed');
    expect(third.steps.map((s) => s.status)).toEqual(['success', 'success', 'success', 'success']);
  });

  it('stays the same over runs on a page with a ticking clock (what moves by itself is masked)', async () => {
    Object.assign(look, { button: '#1e88e5', banner: 'Welcome', clock: true });
    const store = new MemoryBaselineStore();
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await run(store, ['Verify the page looks as approved']));
    expect(runs.map(statuses)).toEqual([['page: new'], ['page: same'], ['page: same']]);
    // Not by chance: the clock was seen moving, and masked.
    const key = { name: 'page', viewport: VIEWPORT };
    expect((await store.baselineOf(key))?.masks.length).toBeGreaterThan(0);
  });

  it('masks the elements a user named by text or role, wherever they are now: their changes are not reported', async () => {
    Object.assign(look, { button: '#1e88e5', banner: 'Welcome', clock: false });
    const store = new MemoryBaselineStore();
    const key = { name: 'page', viewport: VIEWPORT };
    expect(statuses(await run(store, ['Verify the page looks as approved']))).toEqual(['page: new']);
    store.approve(key);
    // The banner's words and the button's colour change; both are masked by name.
    store.maskElements(key, [{ text: 'welcome' }, { role: 'button' }]);
    Object.assign(look, { button: '#e53935', banner: 'Welcome back' });
    expect(statuses(await run(store, ['Verify the page looks as approved']))).toEqual(['page: same']);
    // Without the button's mask, its colour is a change again (the banner's mask still holds).
    store.maskElements(key, [{ text: 'welcome' }]);
    const outcome = await run(store, ['Verify the page looks as approved']);
    expect(statuses(outcome)).toEqual(['page: changed']);
    for (const issue of outcome.visualChecks?.[0]?.issues ?? [])
      expect(intersection(issue.box, BUTTON), issue.message).toBeGreaterThan(0);
  });

  it('leaves the page as the case had it: the field that had the focus has it back, its caret where it was', async () => {
    Object.assign(look, { button: '#1e88e5', banner: 'Welcome', clock: false });
    const outcome = await run(new MemoryBaselineStore(), [
      'Fill "Note" with "ab"',
      'Verify the page looks as approved',
      'Type "cd"',
      'Verify field "Note" has value "abcd"',
    ]);
    expect(outcome.error).toBeNull();
    expect(statuses(outcome)).toEqual(['page: new']);
  });

  it('compares a region check within the region only: a change elsewhere on the page leaves it the same', async () => {
    Object.assign(look, { button: '#1e88e5', banner: 'Welcome', clock: false });
    const store = new MemoryBaselineStore();
    const steps = ['Verify "Pricing" looks as approved', 'Verify the page looks as approved'];
    const first = await run(store, steps);
    expect(statuses(first)).toEqual(['Pricing: new', 'page: new']);

    look.banner = 'Welcome back, this banner is new';
    const second = await run(store, steps);
    // The page check sees the banner; the region check, within the pricing section, does not.
    expect(statuses(second)).toEqual(['Pricing: same', 'page: changed']);
    const baseline = await store.baselineOf({ name: 'Pricing', viewport: VIEWPORT });
    expect(baseline?.png.readUInt32BE(16)).toBe(320);
  });
});
