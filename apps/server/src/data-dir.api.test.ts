import { chmod, lstat, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client } from './testing/api-targets';
import { spawnServer } from './testing/spawn-server';

/** Every path under `root` (itself included) with its permission bits. */
async function modes(root: string): Promise<{ path: string; mode: number; dir: boolean }[]> {
  const out: { path: string; mode: number; dir: boolean }[] = [];
  const stack = [root];
  while (stack.length) {
    const path = stack.pop() as string;
    const s = await lstat(path);
    if (s.isSymbolicLink()) continue;
    out.push({ path, mode: s.mode & 0o777, dir: s.isDirectory() });
    if (s.isDirectory()) for (const name of await readdir(path)) stack.push(join(path, name));
  }
  return out;
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

describe('private data directory (PGlite)', () => {
  const parents: string[] = [];
  afterAll(async () => {
    for (const dir of parents) await rm(dir, { recursive: true, force: true });
  });

  it('creates DATA_DIR 0700 and nothing under it is readable or writable by group or others', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'argus-modes-'));
    parents.push(parent);
    const dataDir = join(parent, 'data');
    // The server makes its database itself here: the files initdb writes must be private too.
    const server = await spawnServer({ DATA_DIR: dataDir }, { freshDatabase: true });
    try {
      // A user row, so the database has written more than its initial cluster.
      const api = client(server);
      await api.signUp('modes');
      const all = await modes(dataDir);
      expect(all.length).toBeGreaterThan(50); // the PGlite cluster is there
      expect(octal((await stat(dataDir)).mode & 0o777)).toBe('0700');
      const open = all.filter((e) => e.mode & 0o077).map((e) => `${octal(e.mode)} ${e.path}`);
      expect(open).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('tightens an existing 0755 DATA_DIR and its 0644 files at start', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'argus-modes-'));
    parents.push(parent);
    const dataDir = join(parent, 'data');
    await mkdir(join(dataDir, 'blobs', 'ab'), { recursive: true });
    await writeFile(join(dataDir, 'blobs', 'ab', 'old-file'), 'x');
    await chmod(join(dataDir, 'blobs', 'ab', 'old-file'), 0o644);
    await chmod(join(dataDir, 'blobs', 'ab'), 0o755);
    await chmod(join(dataDir, 'blobs'), 0o755);
    await chmod(dataDir, 0o755);
    const server = await spawnServer({ DATA_DIR: dataDir });
    try {
      expect(octal((await stat(dataDir)).mode & 0o777)).toBe('0700');
      expect(octal((await stat(join(dataDir, 'blobs', 'ab'))).mode & 0o777)).toBe('0700');
      expect(octal((await stat(join(dataDir, 'blobs', 'ab', 'old-file'))).mode & 0o777)).toBe('0600');
    } finally {
      await server.stop();
    }
  });
});
