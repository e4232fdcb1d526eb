import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import {
  type ArchivedBaseline,
  ArchivedBaselineSchema,
  type BaselineArchive,
  BaselineArchiveSchema,
  ImportBaselinesResultSchema,
  MAX_ARCHIVE_BASELINES,
  PromoteBaselinesResultSchema,
  type PromoteBaselinesSchema,
} from '@argus/protocol';
import { z } from 'zod';
import { AnswerError, type Connection, requestJson } from './http';
import { checked, findEnvironment, findProject, NoVerdict } from './resolve';

export interface PromoteOptions {
  project: string;
  /** The branch whose baselines become the default branch's (checked, not empty). */
  branch: string;
  /** Only this environment's baselines; absent: the server's choice (every environment's). */
  env?: string;
  out: (line: string) => void;
}

/**
 * `argus baselines promote`: a branch's approved visual baselines become the default branch's
 * (`POST /api/projects/{id}/visual-baselines/promote`), as 'Promote to main' does in the app. Until
 * then, approving on a branch leaves the default branch's baselines as they were. 0 once promoted
 * (even none); errors as the other commands say them (exit 2).
 */
export async function promoteBaselines(connection: Connection, options: PromoteOptions): Promise<number> {
  const project = await findProject(connection, options.project);
  const body: z.input<typeof PromoteBaselinesSchema> = { branch: options.branch };
  if (options.env !== undefined) body.environment_id = findEnvironment(project, options.env).id;
  const { promoted } = checked(
    PromoteBaselinesResultSchema,
    await requestJson(
      connection,
      'POST',
      `/api/projects/${encodeURIComponent(project.id)}/visual-baselines/promote`,
      { body },
    ),
    'the promotion',
  );
  const count = `${promoted} ${promoted === 1 ? 'baseline' : 'baselines'}`;
  options.out(`argus: promoted ${count} of branch ${options.branch} to the default branch`);
  return 0;
}

// ---------------------------------------------------------------------------------------------------
// `argus baselines pull/push`: baselines kept in Git (docs/CI.md#baselines-in-git)

/** The file `pull` writes beside the pictures, and `push` reads: the archive without its pictures. */
export const MANIFEST = 'baselines.json';

const ManifestEntrySchema = ArchivedBaselineSchema.omit({ png: true }).extend({
  /** The picture, relative to the directory, `/`-separated: `<case>/<check>@<w>x<h>.png`. */
  file: z.string().min(1).max(1_000),
});
export const BaselineManifestSchema = BaselineArchiveSchema.omit({ baselines: true }).extend({
  baselines: z.array(ManifestEntrySchema).max(MAX_ARCHIVE_BASELINES),
});
export type BaselineManifest = z.infer<typeof BaselineManifestSchema>;

export interface BaselineFilesOptions {
  project: string;
  /** The environment, by name or id; absent: the project's default one. */
  env?: string;
  /** '' (or absent): the default branch. */
  branch?: string;
  dir: string;
  out: (line: string) => void;
}

/** `?environment_id=&branch=` of an export or an import. */
function scopeQuery(environmentId: string, branch: string): string {
  const query = new URLSearchParams({ environment_id: environmentId });
  if (branch) query.set('branch', branch);
  return query.toString();
}

const sha256Of = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const plural = (n: number) => `${n} ${n === 1 ? 'baseline' : 'baselines'}`;
const where = (project: string, environment: string, branch: string) =>
  `"${project}" ${environment} (${branch ? `branch ${branch}` : 'default branch'})`;

/**
 * One path segment for a name: letters, digits and `. _ - space` kept, anything else (separators,
 * `:`, control characters) as `_`; never `..` anywhere, a leading dot, a trailing dot or space, nor a
 * name Windows reserves; at most 80 characters.
 */
export function safeSegment(name: string): string {
  let safe = name
    .replace(/[^A-Za-z0-9._ -]/g, '_')
    .replace(/\.{2,}/g, (dots) => '_'.repeat(dots.length))
    .slice(0, 80)
    .replace(/^[. ]+/, (lead) => '_'.repeat(lead.length))
    .replace(/[. ]+$/, (trail) => '_'.repeat(trail.length));
  if (safe === '') safe = '_';
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(safe)) safe = `_${safe}`;
  return safe;
}

/** A name not taken yet (case-insensitively, as macOS and Windows compare): `name`, `name~2`, `name~3`… */
function unique(taken: Set<string>, name: string, extension = ''): string {
  for (let n = 1; ; n += 1) {
    const candidate = `${name}${n === 1 ? '' : `~${n}`}${extension}`;
    if (!taken.has(candidate.toLowerCase())) {
      taken.add(candidate.toLowerCase());
      return candidate;
    }
  }
}

type Keyed = Pick<ArchivedBaseline, 'case_name' | 'check_name' | 'viewport' | 'browser'>;
const keyParts = (b: Keyed) => [b.case_name, b.check_name, b.viewport.width, b.viewport.height, b.browser];
const compareKeys = (a: Keyed, b: Keyed) => {
  const [x, y] = [keyParts(a), keyParts(b)];
  for (let i = 0; i < x.length; i += 1) {
    if (x[i] < y[i]) return -1;
    if (x[i] > y[i]) return 1;
  }
  return 0;
};

/**
 * Each baseline's file, in key order (the same archive always gets the same names): a directory per
 * case, `<check>@<w>x<h>.png` in it; names that come out the same get `~2`, `~3`.
 */
export function fileNames(baselines: readonly Keyed[]): string[] {
  const dirs = new Map<string, string>();
  const takenDirs = new Set<string>([MANIFEST.toLowerCase()]);
  const takenFiles = new Map<string, Set<string>>();
  return baselines.map((b) => {
    let dir = dirs.get(b.case_name);
    if (dir === undefined) {
      dir = unique(takenDirs, safeSegment(b.case_name));
      dirs.set(b.case_name, dir);
      takenFiles.set(dir, new Set());
    }
    const name = `${safeSegment(b.check_name)}@${b.viewport.width}x${b.viewport.height}`;
    return `${dir}/${unique(takenFiles.get(dir) as Set<string>, name, '.png')}`;
  });
}

/** A manifest's file, inside `dir` (a hand-edited `../x.png` or absolute path refused). */
function inside(dir: string, file: string): string {
  const parts = file.split('/');
  if (
    isAbsolute(file) ||
    file.includes('\\') ||
    parts.some((part) => part === '' || part === '.' || part === '..' || part.includes(':'))
  )
    throw new NoVerdict(`${MANIFEST} names "${file}": a file must be a path inside ${dir}`);
  return join(dir, ...parts);
}

async function readManifest(dir: string): Promise<BaselineManifest | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new NoVerdict(`cannot read ${join(dir, MANIFEST)}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new NoVerdict(`${join(dir, MANIFEST)} is not JSON: ${(error as Error).message}`);
  }
  const manifest = BaselineManifestSchema.safeParse(parsed);
  if (!manifest.success) {
    const issue = manifest.error.issues[0];
    throw new NoVerdict(
      `${join(dir, MANIFEST)} is not a baselines file${issue?.path.length ? ` at ${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return manifest.data;
}

/**
 * `argus baselines pull`: the current baselines of an environment (the project's default one) and
 * branch, written to `dir` as one PNG a baseline and `baselines.json` (everything else, each naming
 * its file), for a team to keep in Git. Pictures an earlier pull wrote that are no longer baselines
 * are removed; nothing else in `dir` is touched.
 */
export async function pullBaselines(connection: Connection, options: BaselineFilesOptions): Promise<number> {
  const project = await findProject(connection, options.project);
  const environment = findEnvironment(project, options.env);
  const branch = options.branch ?? '';
  const archive = checked(
    BaselineArchiveSchema,
    await requestJson(
      connection,
      'GET',
      `/api/projects/${encodeURIComponent(project.id)}/visual-baselines/export?${scopeQuery(environment.id, branch)}`,
      { idleTimeoutMs: 120_000 },
    ),
    'the baselines',
  );
  const baselines = [...archive.baselines].sort(compareKeys);
  const files = fileNames(baselines);
  const before = await readManifest(options.dir).catch(() => undefined);
  await mkdir(options.dir, { recursive: true });
  const manifest: BaselineManifest = { ...archive, baselines: [] };
  for (const [i, { png, ...entry }] of baselines.entries()) {
    const data = Buffer.from(png, 'base64');
    if (sha256Of(data) !== entry.sha256)
      throw new AnswerError(
        `the picture of ${entry.case_name}: ${entry.check_name} is not the one the server names`,
      );
    const path = inside(options.dir, files[i]);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, data);
    manifest.baselines.push({ ...entry, file: files[i] });
  }
  const kept = new Set(files);
  for (const { file } of before?.baselines ?? []) {
    if (kept.has(file)) continue;
    try {
      const stale = inside(options.dir, file);
      await rm(stale, { force: true });
      // Its case's directory too, once empty (rmdir refuses one that is not).
      await rmdir(dirname(stale)).catch(() => undefined);
    } catch {
      // a name outside the directory, or a file gone already: left as it is
    }
  }
  await writeFile(join(options.dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  options.out(
    `argus: wrote ${plural(baselines.length)} of ${where(project.name, environment.name, branch)} to ${options.dir}`,
  );
  return 0;
}

/**
 * `argus baselines push`: the baselines `pull` wrote to `dir` (their pictures as they are there now),
 * imported into an environment (the project's default one) and branch: each one that differs from its
 * check's current baseline there becomes its newest; the others are counted unchanged.
 */
export async function pushBaselines(connection: Connection, options: BaselineFilesOptions): Promise<number> {
  const manifest = await readManifest(options.dir);
  if (!manifest)
    throw new NoVerdict(`${join(options.dir, MANIFEST)} not found: write it with argus baselines pull`);
  const baselines: ArchivedBaseline[] = [];
  for (const { file, ...entry } of manifest.baselines) {
    let data: Buffer;
    try {
      data = await readFile(inside(options.dir, file));
    } catch (error) {
      if (error instanceof NoVerdict) throw error;
      throw new NoVerdict(`cannot read ${file} in ${options.dir}: ${(error as Error).message}`);
    }
    baselines.push({ ...entry, png: data.toString('base64'), sha256: sha256Of(data) });
  }
  const project = await findProject(connection, options.project);
  const environment = findEnvironment(project, options.env);
  const branch = options.branch ?? '';
  const archive: BaselineArchive = { ...manifest, baselines };
  const result = checked(
    ImportBaselinesResultSchema,
    await requestJson(
      connection,
      'POST',
      `/api/projects/${encodeURIComponent(project.id)}/visual-baselines/import?${scopeQuery(environment.id, branch)}`,
      { body: archive, idleTimeoutMs: 120_000 },
    ),
    'the import',
  );
  options.out(
    `argus: pushed ${plural(baselines.length)} to ${where(project.name, environment.name, branch)}: ${result.added} added, ${result.unchanged} unchanged`,
  );
  return 0;
}
