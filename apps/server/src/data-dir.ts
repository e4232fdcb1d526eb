import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Makes DATA_DIR private to the server's user: creates it 0700, and tightens what an earlier version
 * (or a hand-made directory) left open: directories 0700, files without group/other bits (0600). Symbolic links are left alone
 * and not followed. Iterative, and chmods only what is wrong, so a large blob store costs one lstat each.
 * Returns how many entries were tightened.
 */
export async function securePrivateDir(root: string): Promise<number> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  let tightened = 0;
  const stack = [root];
  while (stack.length) {
    const path = stack.pop() as string;
    const stat = await lstat(path);
    if (stat.isSymbolicLink()) continue;
    // Group and other lose every bit; the owner keeps a file's own bits (0644 becomes 0600).
    const wanted = stat.isDirectory() ? 0o700 : stat.mode & 0o700;
    if ((stat.mode & 0o777) !== wanted) {
      await chmod(path, wanted);
      tightened++;
    }
    if (stat.isDirectory()) for (const name of await readdir(path)) stack.push(join(path, name));
  }
  return tightened;
}
