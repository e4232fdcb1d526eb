// Each workspace's README is its map: what lives where under src/. A map that names a file which is
// gone, or leaves out a folder, sends a newcomer the wrong way (issue 34 found the web README still
// describing placeholders, and four READMEs missing whole folders). So:
// - every path a README names in backticks (`src/automation/`, `perform-step.ts`, `model/restore.ts`)
//   must exist in that workspace (or, for a path from the repository's root, in the repository);
//   Names of what the workspace writes elsewhere (an exported project's files, a report) are listed
//   in the README in a comment, `<!-- readme-paths: not in the repository: report.json, … -->`;
// - every folder under the workspace's src/, two levels down (`src/x/` and `src/x/y/`), must be
//   mentioned by its path below src/ (`x/`, `x/y/`, with or without `src/`) or, for a second-level
//   folder, by its name with a slash (`components/`) when that is how the README speaks of all of them,
//   or as the head of a list item (`- \`analytics\`: …` under `src/features/<feature>/`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A backticked token that reads as a path of the repository, not a command, a URL or a placeholder. */
const PATH_LIKE = /^(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*\/?$/;
const FILE_END = /\.(ts|tsx|mts|mjs|cjs|js|json|sql|md|css|html|sh)$/;
const NOT_SOURCE = new Set(['node_modules', 'dist', 'data', '.git', 'coverage']);

/** The paths named in a README's backticks that should exist (placeholders and outside things left out). */
function namedPaths(markdown: string): string[] {
  const paths: string[] = [];
  for (const match of markdown.matchAll(/`([^`\n]+)`/g)) {
    const token = (match[1] ?? '').trim();
    if (!PATH_LIKE.test(token)) continue;
    if (!token.includes('/') && !FILE_END.test(token)) continue; // a word, a name, a command
    if (token.startsWith('/') || token.startsWith('node_modules') || token.includes('dist/')) continue;
    const first = token.split('/')[0] ?? '';
    if (/^[A-Z0-9_]+$/.test(first) && first.includes('_')) continue; // DATA_DIR/…, an environment setting
    if (/NNNN|XXXX|\b0*N_/.test(token)) continue; // a placeholder: src/migrations/000N_what.sql
    paths.push(token.replace(/^\.\//, ''));
  }
  const outside = new Set(
    [...markdown.matchAll(/<!--\s*readme-paths: not in the repository:([^>]*)-->/g)].flatMap((m) =>
      (m[1] ?? '').split(',').map((name) => name.trim()),
    ),
  );
  return paths.filter((path) => !outside.has(path));
}

/** The workspace's files and folders (relative to it, with `/`), build output and dependencies left out. */
function tree(dir: string, prefix = ''): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  if (!existsSync(dir)) return { files, dirs };
  for (const name of readdirSync(dir)) {
    if (NOT_SOURCE.has(name)) continue;
    const path = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(path).isDirectory()) {
      const inner = tree(path, rel);
      if (inner.files.length === 0) continue; // git keeps no empty folder: a fresh clone has none
      dirs.push(rel, ...inner.dirs);
      files.push(...inner.files);
    } else files.push(rel);
  }
  return { files, dirs };
}

interface Workspace {
  files: string[];
  dirs: string[];
  /** Whether a path from the repository's root exists. */
  inRepo: (path: string) => boolean;
}

/** Whether `token` names something of the workspace: below it, below its src/, or from the repository's root. */
function resolves(token: string, ws: Workspace): boolean {
  const folder = token.endsWith('/');
  const path = token.replace(/\/$/, '').replace(/^(\.\.\/)+/, '');
  const pool = folder ? ws.dirs : [...ws.files, ...ws.dirs];
  if (pool.includes(path) || pool.includes(`src/${path}`)) return true;
  if (!path.includes('/')) return pool.some((p) => basename(p) === path) || ws.inRepo(path);
  // A path below some folder (`model/restore.ts` said inside a feature's paragraph).
  if (pool.some((p) => p.endsWith(`/${path}`))) return true;
  return ws.inRepo(path);
}

/** The folders under src/, two levels down, that the README does not mention. */
function unmentionedFolders(markdown: string, srcDirs: string[]): string[] {
  const mentioned = (dir: string) => {
    const name = (text: string) => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
    // `x/` or `src/x/` as a path of its own (not the end of another path: `/api/auth/` is no mention of auth/).
    const asPath = new RegExp(`(^|[\\s\`(])(src/)?${name(dir)}/`, 'm');
    const asNamed = new RegExp(`(^|[\\s\`(])${name(basename(dir))}/`, 'm');
    const listHead = new RegExp(`^\\s*- \`${name(basename(dir))}\``, 'm');
    if (asPath.test(markdown)) return true;
    return dir.includes('/') && (asNamed.test(markdown) || listHead.test(markdown));
  };
  return srcDirs.filter((dir) => dir.split('/').length <= 2 && !mentioned(dir));
}

const workspaces = ['apps', 'packages'].flatMap((group) =>
  readdirSync(join(repo, group))
    .map((name) => `${group}/${name}`)
    .filter((dir) => existsSync(join(repo, dir, 'README.md'))),
);

describe('workspace READMEs', () => {
  it('finds the workspaces', () => {
    expect(workspaces).toContain('apps/server');
    expect(workspaces).toContain('packages/engine');
  });

  for (const dir of workspaces) {
    it(`${dir}/README.md names only paths that exist, and every folder of its src/`, () => {
      const markdown = readFileSync(join(repo, dir, 'README.md'), 'utf8');
      const { files, dirs } = tree(join(repo, dir));
      const ws: Workspace = { files, dirs, inRepo: (p) => existsSync(join(repo, p)) };
      const missing = namedPaths(markdown).filter((token) => !resolves(token, ws));
      const srcDirs = dirs.filter((d) => d.startsWith('src/')).map((d) => d.slice('src/'.length));
      const unmentioned = unmentionedFolders(markdown, srcDirs);
      const report = [
        ...missing.map((m) => `names \`${m}\`, which does not exist`),
        ...unmentioned.map((d) => `does not mention src/${d}/`),
      ];
      expect(report, `${dir}/README.md`).toEqual([]);
    });
  }

  describe('what it finds', () => {
    const ws: Workspace = {
      files: ['README.md', 'src/index.ts', 'src/model/restore.ts', 'src/features/a/model/state.ts'],
      dirs: ['src', 'src/model', 'src/features', 'src/features/a', 'src/features/a/model'],
      inRepo: (p) => p === 'docs/TESTING.md',
    };

    it('reads paths, not commands, URLs, settings or placeholders', () => {
      expect(
        namedPaths(
          'See `src/index.ts`, `model/`, `restore.ts`, `npm test`, `/api/runs`, `DATA_DIR/db`, ' +
            '`src/migrations/NNNN_name.sql`, `000N_what.sql`, `@argus/db`, `docs/TESTING.md`, `Services`, ' +
            '`report.json`. <!-- readme-paths: not in the repository: report.json -->',
        ),
      ).toEqual(['src/index.ts', 'model/', 'restore.ts', 'docs/TESTING.md']);
    });

    it('resolves paths below the workspace, its src/, a folder, or the repository', () => {
      for (const token of [
        'src/index.ts',
        'index.ts',
        'model/',
        'model/restore.ts',
        'features/a/',
        'docs/TESTING.md',
      ])
        expect(resolves(token, ws), token).toBe(true);
    });

    it('refuses a file or folder that is gone', () => {
      for (const token of ['src/gone.ts', 'gone.ts', 'hooks/', 'model/gone.ts', 'other/GONE.md'])
        expect(resolves(token, ws), token).toBe(false);
    });

    it('names the folders a README leaves out', () => {
      const srcDirs = ['model', 'features', 'features/a', 'features/a/model'];
      expect(unmentionedFolders('`src/model/` and `features/`', srcDirs)).toEqual(['features/a']);
      expect(unmentionedFolders('`model/`, `features/`, `features/a/`', srcDirs)).toEqual([]);
      expect(unmentionedFolders('`model/`, `features/<feature>/`:\n  - `a`: the first', srcDirs)).toEqual([]);
      expect(unmentionedFolders('`model/`, `features/<feature>/`:\n  - `b`: not a', srcDirs)).toEqual([
        'features/a',
      ]);
      expect(unmentionedFolders('`model/`, `features/`, the `a` feature', srcDirs)).toEqual(['features/a']);
      expect(unmentionedFolders('`/api/model/`, `features/`, `features/a/`', srcDirs)).toEqual(['model']);
    });
  });
});
