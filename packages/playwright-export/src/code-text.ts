import { type TargetRole, variablesIn } from '@argus/protocol';

// Writing TypeScript as text: names, literals, `{{NAME}}` as code, indented lines.

/** A name fit for a file: lowercase words joined by `-`. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'suite';
}

/** A JavaScript string literal in single quotes. */
export function literal(text: string): string {
  const escaped = text.replace(/[\\'\n\r\t\u2028\u2029]/g, (c) =>
    c === '\\'
      ? '\\\\'
      : c === "'"
        ? "\\'"
        : c === '\n'
          ? '\\n'
          : c === '\r'
            ? '\\r'
            : c === '\t'
              ? '\\t'
              : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `'${escaped}'`;
}

const VARIABLE = /\{\{\s*([A-Z][A-Z0-9_]{0,63})\s*\}\}/g;

/** A `/…/` literal matching `text` as it is. */
export function regexLiteral(text: string): string {
  const source = text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\n/g, '\\n');
  return `/${source}/`;
}

/** What one test's code knows while it is written. */
export interface Scope {
  /** Whether `{{RUN_ID}}` is the built-in (no project variable of that name). */
  builtinRunId: boolean;
  usesRunId: boolean;
  usesHealth: boolean;
  helpers: Set<string>;
  usesEnv: boolean;
  /** The visual checks' screenshot names so far in this test, with how many times each was used. */
  screenshotNames?: Map<string, number>;
}

/** A string argument as code: a literal, or a template literal reading each `{{NAME}}` from the environment. */
export function str(text: string, scope: Scope): string {
  if (variablesIn(text).length === 0) return literal(text);
  const value = (name: string) => {
    if (name === 'RUN_ID' && scope.builtinRunId) {
      scope.usesRunId = true;
      return 'runId';
    }
    scope.usesEnv = true;
    return `env(${literal(name)})`;
  };
  const whole = text.match(/^\{\{\s*([A-Z][A-Z0-9_]{0,63})\s*\}\}$/);
  if (whole) return value(whole[1]);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(VARIABLE)) {
    out += templatePart(text.slice(last, m.index));
    out += `\${${value(m[1])}}`;
    last = (m.index ?? 0) + m[0].length;
  }
  out += templatePart(text.slice(last));
  return `\`${out}\``;
}

const templatePart = (text: string) => text.replace(/[\\`]|\$\{/g, (c) => `\\${c}`);

/** A name for the const holding a located element, by its role. */
export function nameFor(role: TargetRole | undefined, fallback: string): string {
  if (!role) return fallback;
  return role === 'listitem' ? 'item' : role;
}

/** Lines of code with indentation, for readable output. */
export class Writer {
  private readonly out: string[] = [];
  private depth = 0;
  line(text = ''): this {
    this.out.push(text === '' ? '' : '  '.repeat(this.depth) + text);
    return this;
  }
  lines(texts: string[]): this {
    for (const t of texts) this.line(t);
    return this;
  }
  open(text: string): this {
    this.line(text);
    this.depth++;
    return this;
  }
  close(text: string): this {
    this.depth--;
    return this.line(text);
  }
  toString(): string {
    return `${this.out.join('\n')}\n`;
  }
}

/** A step's title, as the report shows it: the line itself, `{{NAME}}` and all. */
export const stepTitle = (line: string) => literal(line.trim());

/** A TODO comment for a line, one comment line per line of text. */
export function todoComment(line: string, why: string): string[] {
  return [`// TODO(argus): ${line.trim().replace(/\s*\n\s*/g, ' ')}`, `//   ${why}`];
}

/** An import statement, one name a line when it would be longer than 100 characters. */
export function importLine(names: string[], from: string): string {
  const one = `import { ${names.join(', ')} } from '${from}';`;
  if (one.length <= 100) return one;
  return `import {\n${names.map((n) => `  ${n},\n`).join('')}} from '${from}';`;
}

/** Words wrapped to lines of at most `width` characters (a longer word keeps its own line). */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + word.length + 1 > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) out.push(line);
  }
  return out;
}
