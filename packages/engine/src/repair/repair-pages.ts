import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Small pages for the repair tests, each in two versions: `original` (what a saved case was written
 * on) and `changed` (a redesign, or a removed control); a page with a planted bug has a `broken`
 * version too (the original's words, a behaviour gone). Served on 127.0.0.1; the version is switched
 * per test. Unlike the fixture apps on purpose: a greenhouse log, library loans, chores, room booking
 * and notes, so nothing in the rules can lean on the fixtures' names.
 */
export type Version = 'original' | 'changed' | 'broken';

const shell = (title: string, body: string, script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}<script>${script}</script></body></html>`;

/** A seedling log: "Add" renamed "Log seedling" (no word in common), a "Clear" button beside it. */
function seedlings(v: Version): string {
  const submit = v === 'original' ? 'Add' : 'Log seedling';
  return shell(
    'Greenhouse',
    `<nav><a href="/help">Help</a></nav>
<main><h1>Seedlings</h1>
<form id="f"><label for="p">Plant name</label> <input id="p">
<button type="button" id="clear">Clear</button> <button type="submit">${submit}</button></form>
<ul id="list" aria-label="Seedlings"></ul></main>`,
    `f.onsubmit = (e) => { e.preventDefault(); if (!p.value) return; const li = document.createElement('li'); li.textContent = p.value; list.append(li); p.value = ''; };
clear.onclick = () => { p.value = ''; };`,
  );
}

/** Library loans: the field "Borrower" relabelled "Borrowed by", the heading "Lend a book" now "Lend books", the title "Loans" now "Lending desk". */
function loans(v: Version): string {
  const label = v === 'original' ? 'Borrower' : 'Borrowed by';
  const heading = v === 'original' ? 'Lend a book' : 'Lend books';
  return shell(
    v === 'original' ? 'Loans' : 'Lending desk',
    `<h1>${heading}</h1>
<form id="f"><label for="b">${label}</label> <input id="b"> <button>Lend</button></form>
<p id="out" role="status"></p>`,
    `f.onsubmit = (e) => { e.preventDefault(); out.textContent = b.value ? 'Lent to ' + b.value : ''; };`,
  );
}

/** Chores: the filter links moved into a "View" menu. */
function chores(v: Version): string {
  const filters =
    v === 'original'
      ? `<nav aria-label="Filters"><a href="#/all">All</a> <a href="#/open">Open</a> <a href="#/done">Done</a></nav>`
      : `<div class="view"><button id="view" aria-haspopup="menu" aria-expanded="false">View</button>
<div role="menu" id="menu" hidden><a role="menuitem" href="#/all">All</a><a role="menuitem" href="#/open">Open</a><a role="menuitem" href="#/done">Done</a></div></div>`;
  return shell(
    'Chores',
    `<h1>Chores</h1><ul id="list"></ul>${filters}`,
    `const chores = [{ t: 'Water the ficus', done: true }, { t: 'Repot the cactus', done: false }];
function render() { const f = location.hash.replace('#/', '') || 'all'; list.replaceChildren(...chores
  .filter((c) => f === 'all' || (f === 'done') === c.done)
  .map((c) => { const li = document.createElement('li'); li.textContent = c.t; return li; })); }
window.onhashchange = () => { render(); const m = document.getElementById('menu'); if (m) { m.hidden = true; view.setAttribute('aria-expanded', 'false'); } };
const v = document.getElementById('view');
if (v) v.onclick = () => { const open = menu.hidden; menu.hidden = !open; v.setAttribute('aria-expanded', String(open)); };
render();`,
  );
}

/** Room booking: one form, then split in two parts with a "Next" button between them. */
function booking(v: Version): string {
  const split = v === 'changed';
  return shell(
    'Rooms',
    `<h1>Book a room</h1>
<form id="f"><div id="one"><label for="r">Room</label> <input id="r">${split ? ' <button type="button" id="next">Next</button>' : ''}</div>
<div id="two"${split ? ' hidden' : ''}><label for="u">Purpose</label> <input id="u"> <button>Book</button></div></form>
<p id="out"></p>`,
    `f.onsubmit = (e) => { e.preventDefault(); if (r.value && u.value) out.textContent = 'Booking confirmed'; };
const n = document.getElementById('next'); if (n) n.onclick = () => { one.hidden = true; two.hidden = false; };`,
  );
}

/** Notes: "Pin" removed; only "Discard", which does something else, is left beside the field. */
function notes(v: Version): string {
  const pin = v === 'original' ? '<button type="button" id="pin">Pin</button>' : '';
  return shell(
    'Notes',
    `<h1>Notes</h1><form id="f"><label for="n">Note</label> <input id="n"> ${pin}
<button type="button" id="discard">Discard</button></form><p id="out"></p>`,
    `const p = document.getElementById('pin'); if (p) p.onclick = () => { out.textContent = 'Pinned for later'; };
discard.onclick = () => { n.value = ''; out.textContent = ''; };`,
  );
}

/** Recipes: two changes one case meets in turn, the field "Dish" and the button "Save" renamed. */
function recipes(v: Version): string {
  const [field, save] = v === 'original' ? ['Dish', 'Save'] : ['Recipe title', 'Keep recipe'];
  return shell(
    'Recipes',
    `<h1>Recipes</h1><form id="f"><label for="d">${field}</label> <input id="d"> <button>${save}</button></form>
<ol id="list"></ol>`,
    `f.onsubmit = (e) => { e.preventDefault(); const li = document.createElement('li'); li.textContent = d.value; list.append(li); d.value = ''; };`,
  );
}

/**
 * Help-desk tickets: resolving one marks it and shows a button to undo it. Changed: the mark is
 * `is-closed` instead of `resolved`, the button "Bring back" instead of "Reopen". Broken: resolving
 * does nothing.
 */
function tickets(v: Version): string {
  const [mark, undo] = v === 'changed' ? ['is-closed', 'Bring back'] : ['resolved', 'Reopen'];
  return shell(
    'Tickets',
    `<h1>Tickets</h1><ul id="list"></ul>`,
    `const tickets = ['Printer jam', 'VPN drops'];
const done = new Set();
function render() { list.replaceChildren(...tickets.map((t) => { const li = document.createElement('li');
  const title = document.createElement('span'); title.textContent = t; li.append(title);
  if (done.has(t)) { li.className = '${mark}'; const b = document.createElement('button'); b.textContent = '${undo}'; b.onclick = () => { done.delete(t); render(); }; li.append(' ', b); }
  else { const b = document.createElement('button'); b.textContent = 'Resolve'; b.onclick = () => { if (${v !== 'broken'}) done.add(t); render(); }; li.append(' ', b); }
  return li; })); }
render();`,
  );
}

/**
 * Bird sightings, served (no script): a form posting to /sightings, then the list. Changed: the labels
 * renamed ("Species" is "Bird", "Count" is "How many seen"; the fields post the same names) and the
 * form in two parts: "Continue" loads the second (a GET to /sightings?part=2, which repeats what was
 * typed), whose "Log it" posts.
 */
function sightings(v: Version, query: URLSearchParams, seen: string[]): string {
  const list = `<ul aria-label="Sightings">${seen.map((s) => `<li>${s}</li>`).join('')}</ul>`;
  if (v === 'original') {
    return shell(
      'Sightings',
      `<h1>Sightings</h1><form method="post" action="/sightings">
<label for="species">Species</label> <input id="species" name="species">
<label for="count">Count</label> <input id="count" name="count" type="number">
<button type="submit">Record sighting</button> <a href="/sightings">Start over</a></form>${list}`,
      '',
    );
  }
  const bird = (query.get('species') ?? '').replace(/[<&"]/g, '');
  const count = (query.get('count') ?? '').replace(/\D/g, '');
  const form =
    query.get('part') === '2'
      ? `<p>${bird} × ${count}</p><form method="post" action="/sightings">
<input type="hidden" name="species" value="${bird}"><input type="hidden" name="count" value="${count}">
<button type="submit">Log it</button> <a href="/sightings">Start over</a></form>`
      : `<form method="get" action="/sightings"><input type="hidden" name="part" value="2">
<label for="bird">Bird</label> <input id="bird" name="species">
<label for="many">How many seen</label> <input id="many" name="count" type="number">
<button type="submit">Continue</button> <a href="/sightings">Start over</a></form>`;
  return shell('Sightings', `<h1>Sightings</h1>${form}${list}`, '');
}

/**
 * A plant nursery: the nav's "Stock" (marked "active") renamed "Plants" (marked by aria-current) and
 * moved into a side rail; the redesign adds a second link to the same page outside the nav.
 */
function nursery(v: Version): string {
  const body =
    v === 'original'
      ? `<header><nav aria-label="Site"><a href="/nursery" class="active">Stock</a> <a href="/help">Help</a></nav></header>
<main><h1>Stock</h1><p>Lavender, sage, thyme.</p></main>`
      : `<aside><nav aria-label="Sections"><a href="/nursery" aria-current="page">Plants</a> <a href="/help">Help</a></nav></aside>
<main><h1>All plants</h1><p>Lavender, sage, thyme.</p><p><a href="/nursery">Show everything</a></p></main>`;
  return shell('Nursery', body, '');
}

const PAGES: Record<string, (v: Version) => string> = {
  '/tickets': tickets,
  '/recipes': recipes,
  '/seedlings': seedlings,
  '/loans': loans,
  '/chores': chores,
  '/booking': booking,
  '/notes': notes,
  '/nursery': nursery,
};

export interface RepairPages {
  url: string;
  set(version: Version): void;
  close(): Promise<void>;
}

export async function serveRepairPages(): Promise<RepairPages> {
  let version: Version = 'original';
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages.test');
    if (url.pathname === '/sightings') {
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (chunk) => {
          body += chunk;
        });
        req.on('end', () => {
          const form = new URLSearchParams(body);
          if (form.get('species'))
            seen.push(`${form.get('species')?.replace(/[<&"]/g, '')} × ${form.get('count')}`);
          res.writeHead(303, { location: '/sightings?saved=1' }).end();
        });
        return;
      }
      const html = sightings(version, url.searchParams, seen);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const page = PAGES[url.pathname];
    if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(version));
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (v) => {
      version = v;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
