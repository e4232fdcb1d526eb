// `npm run build` and `npm start`: the web app, then the server bundle, in one process (each step returns in a
// few hundred milliseconds when its inputs are unchanged, so `npm start` stays quick to restart).
await import('./build-web.mjs');
await import('./build-server.mjs');
