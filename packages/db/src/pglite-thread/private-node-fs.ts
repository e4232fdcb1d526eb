import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** Emscripten's file system calls, as far as the permission hook below needs them. */
interface EmscriptenFs {
  doChmod(stream: unknown, node: unknown, mode: number, dontFollow: boolean): void;
}

/**
 * PGlite's Node file system, except that no file or directory it creates or chmods gets group or
 * other permission bits. Its WebAssembly PostgreSQL chmods new files to 0666 itself, which the
 * process umask cannot stop; this keeps the database files private (0600, directories 0700).
 */
export class PrivateNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const ownerOnly = (mod: { FS: EmscriptenFs }) => {
      const doChmod = mod.FS.doChmod;
      mod.FS.doChmod = (stream, node, mode, dontFollow) =>
        doChmod.call(mod.FS, stream, node, mode & ~0o077, dontFollow);
    };
    const preRun = [ownerOnly, ...((emscriptenOpts.preRun ?? []) as unknown[])];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } as typeof emscriptenOpts };
  }
}
