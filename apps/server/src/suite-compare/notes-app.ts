import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small notes app in two versions, for regenerate-and-compare's test (tests only): version 1 adds,
 * deletes and searches notes; version 2 adds and deletes them the same way, has no search, and archives
 * notes (an Archive button on each moves it to the Archived list). Served on 127.0.0.1 by node:http, its
 * version switched on the server (`setVersion`), its state in the page (each visit starts afresh).
 */

const PAGE = (version: 1 | 2) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Notes</title><link rel="icon" href="data:,">
<style>body{font-family:sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}li{margin:.25rem 0}</style>
</head><body>
<main>
<h1>Notes</h1>
<form id="new"><label for="text">New note</label> <input id="text" name="text" autocomplete="off">
<button type="submit">Add</button></form>
${version === 1 ? '<p><label for="search">Search notes</label> <input id="search" type="search" autocomplete="off"></p>' : ''}
<p id="count" role="status"></p>
<ul id="notes" aria-label="Notes"></ul>
${version === 2 ? '<h2>Archived</h2><ul id="archived" aria-label="Archived notes"></ul>' : ''}
</main>
<script>
const notes = ['Buy milk', 'Call the bank'];
const archived = [];
const list = document.getElementById('notes');
const search = document.getElementById('search');
function item(text, buttons) {
  const li = document.createElement('li');
  const span = document.createElement('span');
  span.textContent = text;
  li.append(span);
  for (const [label, act] of buttons) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.addEventListener('click', act);
    li.append(' ', button);
  }
  return li;
}
function draw() {
  const wanted = search ? search.value.trim().toLowerCase() : '';
  const shown = notes.filter((n) => n.toLowerCase().includes(wanted));
  list.replaceChildren(...shown.map((n) => item(n, [
    ['Delete', () => { notes.splice(notes.indexOf(n), 1); draw(); }],
    ...(${version} === 2 ? [['Archive', () => { notes.splice(notes.indexOf(n), 1); archived.push(n); draw(); }]] : []),
  ])));
  // All the notes, found or not: the counter tells the same on both versions, whatever a search shows.
  document.getElementById('count').textContent = notes.length + (notes.length === 1 ? ' note' : ' notes');
  const box = document.getElementById('archived');
  if (box) box.replaceChildren(...archived.map((n) => item(n, [])));
}
document.getElementById('new').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = document.getElementById('text');
  const text = input.value.trim();
  if (text) notes.push(text);
  input.value = '';
  draw();
});
if (search) search.addEventListener('input', draw);
draw();
</script>
</body></html>`;

export interface NotesApp {
  url: string;
  setVersion(version: 1 | 2): void;
  close(): Promise<void>;
}

export async function serveNotesApp(): Promise<NotesApp> {
  let version: 1 | 2 = 1;
  const server: Server = createServer((request, response) => {
    if (request.url === '/' || request.url?.startsWith('/?')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(PAGE(version));
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('Not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setVersion: (next) => {
      version = next;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
