/**
 * `argus`: Argus from a CI job (docs/CI.md). `argus run` starts a project's saved suite on one of its
 * environments, prints each case as it finishes, writes the server's JUnit and JSON reports, and exits
 * 0 (every case passed), 1 (a case failed, or the run was cancelled, interrupted or ended in error), 2 (the
 * run could not start, or no verdict could be had: unknown names, a refused token, no server), 130 when
 * interrupted (Ctrl-C cancels the run first); a run with visual changes to review exits 1 too, unless
 * `--visual=report`. `argus generate` writes a suite from a generation, or with `--compare` compares one
 * with the saved suite by behaviour. `argus baselines promote` makes a branch's visual baselines the
 * default branch's; `argus baselines pull/push` write them to a directory (for Git) and import them back.
 */
import { parseArgs } from 'node:util';
import { BranchNameSchema, PromoteBaselinesSchema } from '@argus/protocol';
import { promoteBaselines, pullBaselines, pushBaselines } from './baselines';
import { compareSuite } from './compare';
import { generateSuite } from './generate';
import { AnswerError, type Connection, HttpError, UnreachableError } from './http';
import { CouldNotStart, NoVerdict } from './resolve';
import { runSuite } from './run';
import { visualModeOf } from './visual-lines';

declare const __ARGUS_CLI_VERSION__: string | undefined;
const VERSION = typeof __ARGUS_CLI_VERSION__ === 'string' ? __ARGUS_CLI_VERSION__ : 'dev';

export const USAGE = `Usage:
  argus run --server URL --project NAME --suite NAME [--env NAME] [--junit FILE] [--json FILE]
            [--traces DIR] [--branch NAME] [--visual fail|report]
  argus generate --server URL --project NAME --suite NAME [--env NAME] [--url URL] [--command TEXT]
  argus generate --compare --server URL --project NAME --suite NAME [--env NAME]
  argus baselines promote --server URL --project NAME --branch NAME [--env NAME]
  argus baselines pull --server URL --project NAME --dir DIR [--env NAME] [--branch NAME]
  argus baselines push --server URL --project NAME --dir DIR [--env NAME] [--branch NAME]

Runs a saved suite of an Argus project (or generates one) from a CI job.

Options:
  --server URL     the Argus server (or ARGUS_SERVER), e.g. https://argus.example.com
  --project NAME   the project, by name (case-insensitive) or id
  --suite NAME     the saved suite, by name or id (generate: the suite to save into)
  --env NAME       the environment, by name or id (default: the project's default one; baselines
                   promote: absent, every environment's baselines of the branch)
  --dir DIR        baselines pull: write the current baselines there (baselines.json and one PNG
                   each, <case>/<check>@<width>x<height>.png), for Git; baselines push: import
                   what is there (each that differs becomes its check's newest baseline)
  --junit FILE     run: write the JUnit XML report there
  --json FILE      run: write the JSON report there
  --traces DIR     run: download the Playwright trace of each failed or flaky case into DIR
                   (<case name>.trace.zip; a failed download is a warning, not a failed run)
  --branch NAME    run: the branch whose visual baselines the checks compare with first, then the
                   default branch's (letters, digits and . _ / - only); baselines promote: the branch
                   whose baselines become the default branch's; baselines pull/push: the branch
                   whose baselines are written or imported (absent: the default branch)
  --visual MODE    run: fail (the default): visual changes to review fail the run (exit 1) even
                   when every case passed; report: they are said, with the link to review them, and
                   do not change the exit code
  --url URL        generate: where to start, a path (/tickets) or a URL on the environment
  --command TEXT   generate: what to test, in words (a command-mode generation)
  --compare        generate: save nothing; compare the generated cases with the saved suite by the
                   behaviour each tests and print what was added, removed and changed (nightly:
                   'The app has 2 behaviours no case covers'), with the link to review and accept it
  -h, --help       this text
  -v, --version    the version

The API token is read from ARGUS_TOKEN only (never a flag: process lists are not secret).
Create one in Argus under Settings, API tokens.

Exit codes:
  0  every case passed (generate: the suite was saved; --compare: the comparison was made;
     baselines promote, pull, push: the baselines were promoted, written, imported)
  1  a case failed, or the run was cancelled, interrupted or ended in error (generate: it failed)
     (a failed case that has a repair proposed still fails: the output links to its review),
     or visual changes wait for review (unless --visual=report; the output links to the review)
  2  the run could not start or no verdict could be had (unknown name, refused token, no server)
  130  interrupted (Ctrl-C): the run was cancelled`;

export interface Io {
  argv: string[];
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  signal: AbortSignal;
}

class UsageError extends Error {}

const OPTIONS = {
  server: { type: 'string' },
  project: { type: 'string' },
  suite: { type: 'string' },
  env: { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'string' },
  traces: { type: 'string' },
  url: { type: 'string' },
  command: { type: 'string' },
  compare: { type: 'boolean' },
  branch: { type: 'string' },
  visual: { type: 'string' },
  dir: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

/** The server's URL, checked: http(s), no trailing slash. */
export function serverUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--server must be a URL such as https://argus.example.com, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--server must be an http or https URL, not "${value}"`);
  if (url.username || url.password || url.search)
    throw new UsageError('--server must hold no credentials nor query: the token comes from ARGUS_TOKEN');
  return url.href.replace(/\/+$/, '');
}

/** The one line said when the work ends without a verdict, and its exit code. */
export function explain(error: unknown, server: string): { line: string; code: number } {
  const start = (reason: string) => ({ line: `argus: could not start: ${reason}`, code: 2 });
  if (error instanceof UsageError) return { line: `argus: ${error.message} (argus --help)`, code: 2 };
  if (error instanceof CouldNotStart) return start(error.message);
  if (error instanceof NoVerdict) return { line: `argus: ${error.message}`, code: 2 };
  if (error instanceof UnreachableError) return start(error.message);
  if (error instanceof AnswerError) return start(error.message);
  if (error instanceof HttpError) {
    if (error.status === 401) return start(`the server refused the token (${error.message})`);
    if (error.status === 403) return start(`the token may not do this (${error.message})`);
    if (error.status === 404 && error.code === 'NOT_FOUND')
      return start(
        `${server} has no ${error.method} ${error.path} (is it an Argus server, and as new as this command line?)`,
      );
    return start(`${error.method} ${error.path} answered ${error.message}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return { line: `argus: ${message.split('\n')[0]}`, code: 2 };
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

/** `argus generate`: a suite saved from a generation, or with `--compare` a comparison with the saved one. */
async function generate(
  connection: Connection,
  values: Values,
  names: { project: string; suite: string },
  io: Io,
): Promise<number> {
  if (values.junit || values.json || values.traces)
    throw new UsageError('--junit, --json and --traces are options of run');
  if (values.branch !== undefined || values.visual !== undefined)
    throw new UsageError('--branch and --visual are options of run');
  const common = { ...names, env: values.env, out: io.out, signal: io.signal };
  if (!values.compare)
    return generateSuite(connection, { ...common, url: values.url, command: values.command });
  if (values.url || values.command)
    throw new UsageError('--compare regenerates the whole environment: it takes no --url nor --command');
  return compareSuite(connection, common);
}

/** `--branch`, checked with the protocol's BranchNameSchema before any request; '' is the default branch. */
export function branchOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = BranchNameSchema.safeParse(value);
  if (!parsed.success)
    throw new UsageError(
      `--branch "${value}" is not a branch name: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  return parsed.data;
}

/**
 * `argus baselines promote`'s options, checked before any request: the project, and the branch to
 * promote (a name, not the default branch's '').
 */
function promoteArgs(values: Values): { project: string; branch: string } {
  refuseOthers(values, 'promote', ['dir']);
  const project = required(values.project, '--project');
  const branch = branchOf(required(values.branch, '--branch')) ?? '';
  const parsed = PromoteBaselinesSchema.shape.branch.safeParse(branch);
  if (!parsed.success) throw new UsageError(`--branch: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return { project, branch: parsed.data };
}

/** Options of run and generate, refused by `baselines <command>` (`more`: its own refusals too). */
function refuseOthers(values: Values, command: string, more: readonly (keyof Values)[] = []): void {
  const others = [
    'suite',
    'junit',
    'json',
    'traces',
    'url',
    'command',
    'compare',
    'visual',
    ...more,
  ] as const;
  const given = others.filter((name) => values[name] !== undefined);
  if (given.length > 0)
    throw new UsageError(`baselines ${command} takes no ${given.map((name) => `--${name}`).join(', ')}`);
}

/** `argus baselines pull/push`'s options, checked before any request: the project, the directory, a branch. */
function filesArgs(values: Values, command: string): { project: string; dir: string; branch: string } {
  refuseOthers(values, command);
  const project = required(values.project, '--project');
  const dir = required(values.dir, '--dir');
  return { project, dir, branch: branchOf(values.branch) ?? '' };
}

const BASELINE_COMMANDS = ['promote', 'pull', 'push'];

/** The command line, without the process around it (tests call it directly). Resolves to the exit code. */
export async function main(io: Io): Promise<number> {
  let server = '';
  try {
    if (io.argv.some((arg) => arg === '--token' || arg.startsWith('--token=')))
      throw new UsageError(
        'there is no --token option: the token is read from ARGUS_TOKEN only (a flag would show in process lists)',
      );
    const { values, positionals } = parseArgs({
      args: io.argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    const [command, ...rest] = positionals;
    if (values.version) {
      io.out(VERSION);
      return 0;
    }
    if (values.help || command === undefined || command === 'help') {
      io.out(USAGE);
      return command === undefined && !values.help ? 2 : 0;
    }
    if (command !== 'run' && command !== 'generate' && command !== 'baselines')
      throw new UsageError(
        `unknown command "${command}": use run, generate or baselines (promote, pull, push)`,
      );
    const [subcommand, ...extra] = command === 'baselines' ? rest : [undefined, ...rest];
    if (command === 'baselines' && !BASELINE_COMMANDS.includes(subcommand ?? ''))
      throw new UsageError(
        subcommand === undefined
          ? 'baselines needs a command: baselines promote, pull or push'
          : `unknown command "baselines ${subcommand}": use baselines promote, pull or push`,
      );
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (command !== 'baselines' && values.dir !== undefined)
      throw new UsageError('--dir is an option of baselines pull and push');
    // Options checked before any request (and before the server's and the token's).
    const promote = subcommand === 'promote' ? promoteArgs(values) : undefined;
    const files = subcommand === 'pull' || subcommand === 'push' ? filesArgs(values, subcommand) : undefined;
    const branch = command === 'run' ? branchOf(values.branch) : undefined;
    const visual = command === 'run' ? visualModeOf(values.visual) : undefined;
    if (visual === null) throw new UsageError(`--visual is fail or report, not "${values.visual}"`);
    server = serverUrl(required(values.server ?? io.env.ARGUS_SERVER, '--server (or ARGUS_SERVER)'));
    const token = io.env.ARGUS_TOKEN?.trim();
    if (!token)
      throw new CouldNotStart(
        'ARGUS_TOKEN is not set: create an API token in Argus (Settings, API tokens) and pass it to the job as a secret',
      );
    const connection: Connection = { server, token };
    if (promote) return await promoteBaselines(connection, { ...promote, env: values.env, out: io.out });
    if (files) {
      const transfer = subcommand === 'pull' ? pullBaselines : pushBaselines;
      return await transfer(connection, { ...files, env: values.env, out: io.out });
    }
    const project = required(values.project, '--project');
    const suite = required(values.suite, '--suite');
    if (command === 'run') {
      if (values.url || values.command || values.compare)
        throw new UsageError('--url, --command and --compare are options of generate');
      if (values.traces?.trim() === '') throw new UsageError('--traces needs a directory');
      return await runSuite(connection, {
        project,
        suite,
        env: values.env,
        junit: values.junit,
        json: values.json,
        traces: values.traces,
        branch: branch || undefined,
        visual,
        out: io.out,
        warn: io.err,
        signal: io.signal,
      });
    }
    return await generate(connection, values, { project, suite }, io);
  } catch (error) {
    if (io.signal.aborted) return 130;
    const { line, code } = explain(
      error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
        ? new UsageError(error.message)
        : error,
      server,
    );
    io.err(line);
    return code;
  }
}

/** The process: Ctrl-C (or SIGTERM, a CI's cancel) cancels the work once; a second one exits at once. */
export async function cli(): Promise<void> {
  const controller = new AbortController();
  const interrupt = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    process.stderr.write(`argus: ${signal}: cancelling (again to quit at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  const code = await main({
    argv: process.argv.slice(2),
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    signal: controller.signal,
  });
  // Nothing else to wait for (an idle keep-alive socket would hold the process a few seconds more);
  // standard output and error are written synchronously to files and pipes.
  process.exit(code);
}
