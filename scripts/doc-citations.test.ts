// Comments and docs cite documents a clone of the repository has: docs/ARCHITECTURE.md, docs/DECISIONS.md,
// docs/PRODUCT.md and the rest of docs/, by file and heading. They must not cite the design brief or the
// product specification the project started from (they live outside the repository), and every
// `docs/<FILE>.md#heading` they name must exist.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Source and documentation files: where comments and prose live. Lock files hold no prose. */
const CHECKED = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|md|json|css|html|yml|yaml|sh)$/;
const SKIPPED = /(^|\/)(node_modules|dist|coverage|data)\/|(^|\/)package-lock\.json$/;
/** This file: its examples of what is refused are refused. */
const SELF = 'scripts/doc-citations.test.ts';

// Built from parts so that this file does not cite what it forbids.
const SECTION = '\u00a7';
const FORBIDDEN: { pattern: RegExp; what: string }[] = [
  { pattern: new RegExp(`DESIGN\\.md\\s*${SECTION}`, 'i'), what: 'a section of the design brief' },
  { pattern: new RegExp(`\\bspec\\s*${SECTION}`, 'i'), what: 'a section of the product specification' },
  { pattern: new RegExp(`\\.\\./${'shared'}\\b`), what: 'the shared folder outside the repository' },
  {
    pattern: new RegExp(`(?<![\\w/.-])(${'DESIGN'}|${'STACK-NOTES'})\\.md\\b`),
    what: 'a brief outside the repository',
  },
  {
    pattern: new RegExp(`\\b${'product-spec'}\\.md\\b`),
    what: 'the product specification outside the repository',
  },
];

interface Violation {
  file: string;
  line: number;
  text: string;
  problem: string;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const slug = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Reads a document of the repository, null when it is not there. */
type ReadDoc = (path: string) => string | null;

function checkTarget(target: string, anchor: string | undefined, readDoc: ReadDoc): string | null {
  const text = readDoc(target);
  if (text === null) return `cites ${target}, which does not exist`;
  if (anchor && !anchorsOf(text).has(anchor))
    return `cites ${target}#${anchor}, a heading ${target} does not have`;
  return null;
}

/**
 * What is wrong with the citations in one file (`file` relative to the repository, with `/`):
 * a forbidden citation; `docs/NAME.md[#anchor]` naming a missing file or heading; in Markdown, a
 * relative link `[…](path.md#anchor)` likewise; inside docs/, `NAME.md#anchor` of a sibling likewise.
 */
function citationViolations(file: string, text: string, readDoc: ReadDoc): Violation[] {
  const violations: Violation[] = [];
  const lines = text.split('\n');
  const isMarkdown = file.endsWith('.md');
  const inDocs = file.startsWith('docs/') && !file.slice('docs/'.length).includes('/');
  lines.forEach((content, index) => {
    const report = (problem: string) =>
      violations.push({ file, line: index + 1, text: content.trim(), problem });
    const forbidden = FORBIDDEN.find(({ pattern }) => pattern.test(content));
    if (forbidden) report(`cites ${forbidden.what}: cite a heading of docs/ instead`);
    for (const match of content.matchAll(/(?<![\w./-])docs\/([\w.-]+\.md)(?:#([\w-]+))?/g)) {
      const problem = checkTarget(`docs/${match[1]}`, match[2], readDoc);
      if (problem) report(problem);
    }
    if (isMarkdown) {
      for (const match of content.matchAll(/\]\(([^)\s#]+\.md)(?:#([^)\s]+))?\)/g)) {
        const href = match[1] ?? '';
        if (/^[a-z]+:/i.test(href)) continue;
        const target = posix.normalize(posix.join(posix.dirname(file), href));
        const problem = checkTarget(target, match[2], readDoc);
        if (problem) report(problem);
      }
    }
    if (inDocs) {
      for (const match of content.matchAll(/(?<![\w./-])(?<!\]\()([A-Z][\w-]*\.md)#([\w-]+)/g)) {
        const problem = checkTarget(`docs/${match[1]}`, match[2], readDoc);
        if (problem) report(problem);
      }
    }
  });
  return violations;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === '.git' || name === 'node_modules') return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(repo, path).split('\\').join('/')];
  });
}

/** The repository's files (tracked, plus new ones not ignored); every file when it is not a git checkout. */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\n')
      .filter(Boolean);
  } catch {
    return walk(repo);
  }
}

const readRepoDoc: ReadDoc = (path) => {
  const full = join(repo, path);
  return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : null;
};

describe('citations of documents', () => {
  it('every comment and doc cites docs/ files and headings that exist, never the briefs outside the repository', () => {
    const files = repositoryFiles().filter(
      (file) => CHECKED.test(file) && !SKIPPED.test(file) && file !== SELF && existsSync(join(repo, file)),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('docs/PRODUCT.md');
    const violations = files.flatMap((file) =>
      citationViolations(file, readFileSync(join(repo, file), 'utf8'), readRepoDoc),
    );
    const report = violations.map((v) => `${v.file}:${v.line}: ${v.problem}\n    ${v.text}`).join('\n');
    expect(report, `${violations.length} citation(s) to fix`).toBe('');
  });

  describe('what it finds', () => {
    const docs: Record<string, string> = {
      'docs/PRODUCT.md':
        '# Product\n\n## Automation\n\n### Step log\n\n```\n## Not a heading\n```\n\n## Automation\n',
      'docs/ARCHITECTURE.md':
        '# Architecture\n\n## The server (`apps/server`)\n\n## Departures from the spec (and why)\n',
    };
    const readDoc: ReadDoc = (path) => docs[path] ?? null;
    const problems = (file: string, text: string) =>
      citationViolations(file, text, readDoc).map((v) => v.problem);

    it("computes GitHub's anchors", () => {
      expect([...anchorsOf(docs['docs/PRODUCT.md'] ?? '')]).toEqual([
        'product',
        'automation',
        'step-log',
        'automation-1',
      ]);
      expect([...anchorsOf(docs['docs/ARCHITECTURE.md'] ?? '')]).toEqual([
        'architecture',
        'the-server-appsserver',
        'departures-from-the-spec-and-why',
      ]);
    });

    it('accepts citations of existing files and headings', () => {
      expect(
        problems('a/b.ts', '/** The log (docs/PRODUCT.md#step-log), see docs/ARCHITECTURE.md. */'),
      ).toEqual([]);
      expect(
        problems('docs/ARCHITECTURE.md', 'Runs stop (PRODUCT.md#automation-1), [x](PRODUCT.md#step-log).'),
      ).toEqual([]);
      expect(problems('apps/web/README.md', '[Product](../../docs/PRODUCT.md#automation)')).toEqual([]);
    });

    it('refuses the briefs outside the repository', () => {
      for (const text of [
        `// as ${'DESIGN'}.md ${SECTION}5 says`,
        `/** ${'Spec'} ${SECTION}2: the route table */`,
        `see (${'spec'} ${SECTION}4, ${SECTION}9)`,
        `in ../${'shared'}/spec`,
        `measured (${'STACK-NOTES'}.md)`,
      ]) {
        expect(problems('x.ts', text), text).toHaveLength(1);
      }
    });

    it('refuses missing files and headings', () => {
      expect(problems('x.ts', '// docs/NOPE.md')).toEqual(['cites docs/NOPE.md, which does not exist']);
      expect(problems('x.ts', '// docs/PRODUCT.md#no-such-heading')).toEqual([
        'cites docs/PRODUCT.md#no-such-heading, a heading docs/PRODUCT.md does not have',
      ]);
      expect(problems('x.ts', '// docs/PRODUCT.md#not-a-heading')).toHaveLength(1);
      expect(problems('packages/db/README.md', '[x](../../docs/PRODUCT.md#missing)')).toHaveLength(1);
      expect(problems('packages/db/README.md', '[x](../docs/PRODUCT.md)')).toEqual([
        'cites packages/docs/PRODUCT.md, which does not exist',
      ]);
      expect(problems('docs/ARCHITECTURE.md', 'run → failed (PRODUCT.md#stopping)')).toHaveLength(1);
    });
  });
});
