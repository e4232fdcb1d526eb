import './zod-config';
import './styles.css';

// The app, React and the protocol's schemas load only after zod is configured (zod-config.ts). A
// static import here would not guarantee it: the bundler may move modules the entry shares with the
// lazily loaded screens (react, zod, @argus/protocol) into a chunk of their own, which the browser runs
// before this file's body, so the protocol's schemas were built before `jitless` was set and zod's eval
// probe broke the Content-Security-Policy (e2e/auth-shell.e2e.test.ts).
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
void import('./app/mount').then(({ mount }) => mount(root));
