import { unlink } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';

/** The embedded database is open in another live process. */
export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';
}

/** Unix socket paths are short (108 bytes on Linux, 104 on macOS, with the NUL). */
const MAX_SOCKET_PATH = 100;

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Holds the embedded database's directory for this process, so a second process (another server on
 * the same DATA_DIR, or `npm run user:add` while the server runs) is refused instead of opening the
 * same files: PGlite does not guard against that, and two writers would corrupt the database.
 *
 * The lock is a Unix socket beside the directory (`<dir>.lock`) that this process listens on. A live
 * holder answers a connection; a socket file left by a process that died answers nothing and is
 * replaced, so there is no stale lock to clear by hand and no process id to be fooled by. Where a
 * socket cannot be made (a path too long for one, Windows, a file system without sockets) the
 * directory is opened unlocked, as before. Resolves to the function that lets go.
 */
export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const path = `${dir}.lock`;
  const unlocked = async () => {};
  if (process.platform === 'win32' || Buffer.byteLength(path) > MAX_SOCKET_PATH) return unlocked;
  const busy = () =>
    new DatabaseInUseError(
      `The embedded database in ${dir} is in use by another process (a running Argus server?). ` +
        'Stop it first, or use PostgreSQL (DATABASE_URL), which any number of processes can share.',
    );
  for (let attempt = 0; attempt < 2; attempt++) {
    const server = createServer((socket) => socket.end());
    const failure = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      server.once('error', resolve);
      server.listen(path, () => resolve(null));
    });
    if (!failure) {
      server.unref();
      return () => new Promise<void>((resolve) => server.close(() => resolve()));
    }
    if (failure.code !== 'EADDRINUSE') return unlocked;
    if (await answers(path)) throw busy();
    // Left by a process that is gone.
    await unlink(path).catch(() => {});
  }
  throw busy();
}
