import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkJsonShape, MAX_BODY_DEPTH, MAX_BODY_VALUES, parseFormText, parseJsonText } from './body-limits';
import { parseTrustProxy } from './config';
import { securePrivateDir } from './data-dir';
import { AppError } from './errors';
import { parseWith } from './validation';

const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
  return 'ok';
};

describe('checkJsonShape', () => {
  it('allows nesting up to the limit and refuses one level more', () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(codeOf(() => checkJsonShape(nested(MAX_BODY_DEPTH)))).toBe('ok');
    expect(codeOf(() => checkJsonShape(nested(MAX_BODY_DEPTH + 1)))).toBe('BODY_TOO_DEEP');
    expect(codeOf(() => checkJsonShape(nested(1_000_000)))).toBe('BODY_TOO_DEEP');
  });

  it('ignores brackets, commas and escaped quotes inside strings', () => {
    const text = JSON.stringify({ a: `${'['.repeat(500)}\\"${',{'.repeat(200_000)}` });
    expect(codeOf(() => checkJsonShape(text))).toBe('ok');
  });

  it('counts values: the root, and each element or member', () => {
    const array = (n: number) => `[${Array.from({ length: n }, () => '0').join(',')}]`;
    expect(codeOf(() => checkJsonShape(array(MAX_BODY_VALUES - 1)))).toBe('ok');
    expect(codeOf(() => checkJsonShape(array(MAX_BODY_VALUES)))).toBe('BODY_TOO_MANY_VALUES');
    expect(codeOf(() => checkJsonShape(`[${'[],'.repeat(MAX_BODY_VALUES)}[]]`))).toBe('BODY_TOO_MANY_VALUES');
  });
});

describe('parseWith and NUL characters', () => {
  const Any = z.unknown();

  it('names the path of every NUL, in keys too, without recursion', () => {
    let error: AppError | undefined;
    try {
      parseWith(Any, { a: [{ b: 'x\u0000' }], 'k\u0000': 1 }, 'body');
    } catch (e) {
      error = e as AppError;
    }
    expect(error?.code).toBe('VALIDATION');
    expect((error?.detail as { loc: unknown[] }[] | undefined)?.map((d) => d.loc)).toEqual([
      ['body', 'a', 0, 'b'],
      ['body', 'k\u0000'],
    ]);
  });

  it('refuses a deep value that did not come through a body parser with BODY_TOO_DEEP, not a crash', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(codeOf(() => parseWith(Any, deep, 'body'))).toBe('BODY_TOO_DEEP');
  });

  it('skips the walk only for bodies whose raw text held no NUL', () => {
    expect(codeOf(() => parseWith(Any, parseJsonText('{"a":"x\\u0000"}'), 'body'))).toBe('VALIDATION');
    expect(codeOf(() => parseWith(Any, parseJsonText('{"a":"x"}'), 'body'))).toBe('ok');
    expect(codeOf(() => parseWith(Any, parseFormText('a=x%00'), 'body'))).toBe('VALIDATION');
    expect(parseFormText('a=1&a=2&b=x+y')).toEqual({ a: ['1', '2'], b: 'x y' });
  });

  it('turns unparseable text into MALFORMED_JSON', () => {
    expect(codeOf(() => parseJsonText('{"a":'))).toBe('MALFORMED_JSON');
  });
});

describe('parseTrustProxy', () => {
  it('reads off, on, a hop count and a list of addresses', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    const hops = parseTrustProxy('1') as (address: string, hop: number) => boolean;
    expect([hops('1.2.3.4', 0), hops('1.2.3.4', 1)]).toEqual([true, false]);
  });
});

describe('securePrivateDir', () => {
  it('creates the directory 0700 and strips group/other bits below it, leaving links alone', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'argus-private-'));
    try {
      const root = join(parent, 'data');
      await mkdir(join(root, 'sub'), { recursive: true });
      await writeFile(join(root, 'sub', 'f'), 'x');
      await writeFile(join(parent, 'outside'), 'x');
      await chmod(join(parent, 'outside'), 0o644);
      await symlink(join(parent, 'outside'), join(root, 'link'));
      await chmod(join(root, 'sub', 'f'), 0o664);
      await chmod(join(root, 'sub'), 0o775);
      await chmod(root, 0o755);
      expect(await securePrivateDir(root)).toBe(3);
      const mode = async (p: string) => ((await stat(p)).mode & 0o777).toString(8);
      expect([await mode(root), await mode(join(root, 'sub')), await mode(join(root, 'sub', 'f'))]).toEqual([
        '700',
        '700',
        '600',
      ]);
      expect(await mode(join(parent, 'outside'))).toBe('644');
      expect(await securePrivateDir(root)).toBe(0);
      expect(await securePrivateDir(join(parent, 'fresh'))).toBe(0);
      expect(await mode(join(parent, 'fresh'))).toBe('700');
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
