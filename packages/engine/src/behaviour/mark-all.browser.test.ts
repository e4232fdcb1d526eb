/**
 * A 'mark all' control whose visible label is only a chevron or an icon (its words hidden from sight
 * but not from assistive technology) is found by its accessible name and tried, in real Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import { TargetPolicy } from '../target-policy';
import { type Behaviour, exploreBehaviours } from './explore-behaviours';
import { html, type Served, serve } from './testing/serve';

/**
 * A to-do list drawn in the page. `bulk` is the 'mark all' control, placed where TodoMVC places it:
 * shown only once there is something to mark.
 */
const page = (bulk: string, css: string) => `<!doctype html><html lang="en"><head><title>Todos</title>
<style>
  main { position: relative; width: 500px; margin: 60px auto; }
  .list { position: relative; }
  ${css}
</style></head><body><main>
  <h1>todos</h1>
  <input id="new" class="new" placeholder="What needs to be done?" autofocus>
  <section class="list" hidden>${bulk}<ul id="items"></ul></section>
  <p id="left"></p>
<script>
  const todos = [];
  const render = () => {
    document.querySelector('.list').hidden = todos.length === 0;
    const ul = document.getElementById('items');
    ul.innerHTML = '';
    for (const t of todos) {
      const li = document.createElement('li');
      if (t.done) li.className = 'completed';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = t.done;
      box.onchange = () => { t.done = box.checked; render(); };
      const label = document.createElement('label');
      label.textContent = t.title;
      li.append(box, label);
      ul.append(li);
    }
    const left = todos.filter((t) => !t.done).length;
    document.getElementById('left').textContent = left + (left === 1 ? ' item left' : ' items left');
    const all = document.getElementById('toggle-all');
    if (all && 'checked' in all && all.type === 'checkbox') all.checked = todos.length > 0 && left === 0;
  };
  const markAll = (done) => { for (const t of todos) t.done = done; render(); };
  document.getElementById('new').addEventListener('keydown', (e) => {
    const v = e.target.value.trim();
    if (e.key !== 'Enter' || !v) return;
    todos.push({ title: v, done: false });
    e.target.value = '';
    render();
  });
  const all = document.getElementById('toggle-all');
  if (all.type === 'checkbox') all.onchange = () => markAll(all.checked);
  else all.onclick = () => markAll(todos.some((t) => !t.done));
  render();
</script></main></body></html>`;

/**
 * TodoMVC's own (todomvc-app-css): the checkbox shrunk to a pixel, see-through, just outside the list;
 * its label's words at font size 0, a ❯ drawn before them and turned on its side.
 */
const CHEVRON_CHECKBOX = {
  bulk: '<input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label>',
  css: `.list { z-index: 2; border-top: 1px solid #e6e6e6; }
  .toggle-all { width: 1px; height: 1px; border: none; opacity: 0; position: absolute; right: 100%; bottom: 100%; }
  .toggle-all + label { width: 60px; height: 34px; font-size: 0; position: absolute; top: -52px; left: -13px; transform: rotate(90deg); }
  .toggle-all + label:before { content: '❯'; font-size: 22px; color: #e6e6e6; padding: 10px 27px 10px 27px; }`,
};

/** A button showing two ticks, its words in a span clipped out of sight (a "visually hidden" class). */
const HIDDEN_TEXT_BUTTON = {
  bulk: '<button id="toggle-all" class="bulk"><span aria-hidden="true">✓✓</span><span class="sr">Mark all done</span></button>',
  css: `.sr { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }`,
};

let pool: BrowserPool;
let app: Served;

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  app = await serve((req, _body, res) => {
    const which = req.url?.startsWith('/hidden-text') ? HIDDEN_TEXT_BUTTON : CHEVRON_CHECKBOX;
    html(res, page(which.bulk, which.css));
  });
});

afterAll(async () => {
  await pool?.close();
  await app?.close();
});

const marksAll = (b: Behaviour) => /mark all/i.test(b.control.name);

describe("a 'mark all' control with no visible words", () => {
  it('finds the chevron checkbox by its hidden label and checks that it completes every item', async () => {
    const found = await exploreBehaviours(pool, `${app.url}/`, { timeBudgetMs: 150_000 });
    const all = found.find(marksAll);
    expect(all?.action).toEqual([{ verb: 'check', target: 'Mark all as complete', checked: true }]);
    expect(all?.assertions).toEqual(
      expect.arrayContaining([{ verb: 'verifyText', text: '0 items left', visible: true }]),
    );
  }, 200_000);

  it('finds the icon button by its visually hidden words (its icon aria-hidden) and clicks it', async () => {
    const found = await exploreBehaviours(pool, `${app.url}/hidden-text`, { timeBudgetMs: 150_000 });
    const all = found.find(marksAll);
    // Named as a screen reader names it (the ticks are aria-hidden), so the step finds it by role and name.
    expect(all?.action).toEqual([{ verb: 'click', target: 'Mark all done', role: 'button' }]);
    expect(all?.assertions).toEqual(
      expect.arrayContaining([
        { verb: 'verifyChecked', region: 'Walk the dog', checked: true },
        { verb: 'verifyText', text: '0 items left', visible: true },
      ]),
    );
  }, 200_000);
});
