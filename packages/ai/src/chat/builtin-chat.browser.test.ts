/**
 * The built-in chat planner in real Chromium against the fixture site (fixtures/site) and the to-do
 * app (fixtures/apps/todo): step-language lines and plain phrasings performed as step-language lines
 * reported as they happen, questions answered from the page with no action, an honest reply to what
 * it does not understand, a refused target ending with the policy's reason, and a stop.
 */
import { AbortedError, BrowserPool, type BrowserSession, parseStep, TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { type FixtureSite, serveFixtureSite } from '../../../../fixtures/site/serve';
import { BuiltinChatPlanner } from './builtin-chat';
import type { ChatAction } from './chat-planner';

let pool: BrowserPool;
let site: FixtureSite;
let todo: FixtureApp;
const planner = new BuiltinChatPlanner();

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  site = await serveFixtureSite();
  todo = await serveFixtureApp('todo');
});
afterAll(async () => {
  await todo?.close();
  await site?.close();
  await pool?.close();
});

async function on<T>(path: string, work: (session: BrowserSession) => Promise<T>): Promise<T> {
  const session = await pool.openSession({ viewport: { width: 1000, height: 600 } });
  try {
    await session.navigate(path.startsWith('http') ? path : `${site.url}/${path}`);
    return await work(session);
  } finally {
    await session.close();
  }
}

/** A turn, with the actions told through onAction collected too. */
async function say(session: BrowserSession, message: string, signal?: AbortSignal) {
  const told: ChatAction[] = [];
  const turn = await planner.turn(session, message, { signal, onAction: (a) => told.push(a) });
  expect(turn.engine).toBe('built-in (rule-based)');
  expect(told).toEqual(turn.actions);
  return { ...turn, lines: turn.actions.map((a) => a.line) };
}

const holds = async (session: BrowserSession, line: string) => {
  await session.perform(parseStep(line), { timeoutMs: 5000 });
};

describe('BuiltinChatPlanner', () => {
  it('performs step-language lines as they are, one after another', async () => {
    await on('index.html', async (session) => {
      const turn = await say(session, `Click link "Products" then Verify text "Hiking Boots" is visible`);
      expect(turn.lines).toEqual(['Click link "Products"', 'Verify text "Hiking Boots" is visible']);
      expect(turn.actions[0]).toMatchObject({
        message: 'Clicked the "Products" link',
        url: `${site.url}/products.html`,
      });
      expect(turn.reply).toContain('Now on "Products – Acme Outfitters"');
    });
  });

  it('goes to a page named in words through its link, and to an address', async () => {
    await on('index.html', async (session) => {
      let turn = await say(session, 'go to the products page');
      expect(turn.lines).toEqual(['Click link "Products"']);
      expect(session.url).toBe(`${site.url}/products.html`);
      turn = await say(session, 'open contact');
      expect(turn.lines).toEqual(['Click link "Contact"']);
      expect(session.url).toBe(`${site.url}/contact.html`);
      turn = await say(session, `navigate to ${site.url}/about.html`);
      expect(turn.lines).toEqual([`Navigate to ${site.url}/about.html`]);
      expect(turn.reply).toMatch(/^Opened .*about\.html\.\nNow on "About/);
      turn = await say(session, 'go back, then reload');
      expect(turn.lines).toEqual(['Go back', 'Reload the page']);
      expect(session.url).toBe(`${site.url}/contact.html`);
    });
  });

  it('searches through the search page, and signs in by filling fields and pressing the button', async () => {
    await on('index.html', async (session) => {
      const turn = await say(session, 'search for shoes');
      expect(turn.lines).toEqual([
        'Click link "Search"',
        'Fill "Search products" with "shoes"',
        'Press Enter in "Search products"',
      ]);
      await holds(session, 'Verify text "2 results" is visible');
      expect(session.url).toContain('q=shoes');
    });
    await on('index.html', async (session) => {
      const turn = await say(
        session,
        'go to the login page, fill the email with demo@acme.test, type Password1 into password and then press the Sign in button',
      );
      expect(turn.lines).toEqual([
        'Click link "Login"',
        'Fill "Email" with "demo@acme.test"',
        'Fill "Password" with "Password1"',
        'Click button "Sign in"',
      ]);
      await holds(session, 'Verify text "Welcome back, Demo" is visible');
    });
  });

  it('selects, hovers, presses keys, waits and scrolls', async () => {
    await on('contact.html', async (session) => {
      let turn = await say(
        session,
        "select 'Order support' from topic; enter 'Hello there' in the message box; hover over Products; press escape; wait 1 second",
      );
      expect(turn.lines).toEqual([
        'Select "Order support" from "Topic"',
        'Fill "Message" with "Hello there"',
        'Hover "Products"',
        'Press Escape',
        'Wait 1 second',
      ]);
      await holds(session, 'Verify field "Message" has value "Hello there"');
      const before = (await session.screenshot()).data;
      turn = await say(session, 'scroll down');
      expect(turn.actions.map((a) => a.message)).toEqual(['Scrolled down']);
      let moved = false;
      for (let i = 0; i < 20 && !moved; i++) {
        moved = !(await session.screenshot()).data.equals(before);
        if (!moved) await new Promise((r) => setTimeout(r, 100));
      }
      expect(moved).toBe(true);
      turn = await say(session, 'scroll to the top');
      expect(turn.lines).toEqual(['Scroll to top']);
    });
  });

  it('adds and ticks a to-do in the to-do app', async () => {
    await on(`${todo.url}/`, async (session) => {
      const turn = await say(session, 'type Buy milk into new todo then press enter, then check Buy milk');
      expect(turn.lines).toEqual([
        'Fill "New todo" with "Buy milk"',
        'Press Enter',
        'Check "Toggle Buy milk"',
      ]);
      await holds(session, 'Verify "Buy milk" is marked "completed"');
    });
  });

  it('answers questions from the page without acting', async () => {
    await on('index.html', async (session) => {
      const what = await say(session, 'What is on this page?');
      expect(what.actions).toEqual([]);
      expect(what.reply).toContain('Outdoor gear for every trail');
      expect(what.reply).toContain('"Products"');
      expect((await say(session, 'where am I?')).reply).toContain(
        '"Acme Outfitters – Outdoor gear for every trail"',
      );
      expect((await say(session, 'what links are there?')).reply).toMatch(
        /Navigation: .*"Search"|navigation: .*"Search"/i,
      );
      expect((await say(session, 'what does the heading say?')).reply).toContain(
        'The main heading says "Outdoor gear for every trail"',
      );
      expect((await say(session, 'what can I do here?')).reply).toContain('say "go to the Products page"');
      expect((await say(session, 'is there a search box?')).reply).toBe(
        'No, I see no "search" box on this page. There is a link "Search".',
      );
      expect(session.url).toBe(`${site.url}/index.html`);
    });
    await on('login.html', async (session) => {
      expect((await say(session, 'is there a sign in button?')).reply).toBe('Yes: a button "Sign in".');
      expect((await say(session, 'is there a checkout button?')).reply).toMatch(
        /^No, I see no "checkout" button on this page/,
      );
      expect((await say(session, 'what forms are there?')).reply).toContain('"Email", "Password"');
    });
  });

  it('says honestly what it does not understand, and what the page does not offer', async () => {
    await on('index.html', async (session) => {
      const unknown = await say(session, 'make the shop cheaper');
      expect(unknown.actions).toEqual([]);
      expect(unknown.reply).toContain('I could not understand "make the shop cheaper"');
      expect(unknown.reply).toContain('"search for shoes"');
      expect(unknown.reply).toContain('LLM engine');
      const missing = await say(session, 'go to products then click Add to basket');
      expect(missing.lines).toEqual(['Click link "Products"']);
      expect(missing.reply).toContain('I found nothing called "Add to basket" to click on this page');
      expect(missing.reply).toContain('Now on "Products');
    });
  });

  it('ends with the target policy’s reason when an address is refused, keeping what was done', async () => {
    await on('index.html', async (session) => {
      const turn = await say(session, 'open about then go to http://169.254.169.254/latest/meta-data/');
      expect(turn.lines).toEqual(['Click link "About"']);
      expect(turn.reply).toMatch(
        /Then this failed: Navigate to http:\/\/169\.254\.169\.254\/latest\/meta-data\/ — .*link-local/,
      );
    });
  });

  it('stops at once when told to', async () => {
    await on('index.html', async (session) => {
      const stop = new AbortController();
      const started = Date.now();
      setTimeout(() => stop.abort(), 300);
      await expect(
        say(session, 'wait 1 second then wait 5 seconds then go to products', stop.signal),
      ).rejects.toBeInstanceOf(AbortedError);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(session.url).toBe(`${site.url}/index.html`);
      await expect(planner.turn(session, 'reload', { signal: stop.signal })).rejects.toBeInstanceOf(
        AbortedError,
      );
    });
  });
});
