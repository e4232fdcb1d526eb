import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type RunCaseResult, RunReportSchema } from '@argus/protocol';
import { type Connection, requestJson } from './http';
import { checked } from './resolve';

// `argus run --traces DIR` (docs/CI.md#traces-of-failed-cases): after the run, the Playwright trace of
// each failed and flaky case into DIR, for `npx playwright show-trace` or the CI job's artifacts. A trace
// is evidence, not the verdict: a download that fails is a warning, never a changed exit code.

/** A trace download gives up after this long (a trace is a few megabytes). */
const DOWNLOAD_TIMEOUT_MS = 120_000;
/** Longest file-name stem: room for `-NN.trace.zip` under every file system's 255 bytes. */
const MAX_STEM = 80;
/** Names Windows refuses for a file, whatever its extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/;

/** A case's name as a file-name stem: lower-case ASCII letters, digits and dashes; never empty. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_STEM)
    .replace(/-+$/, '');
  if (!slug) return 'case';
  return RESERVED.test(slug) ? `case-${slug}` : slug;
}

/** `<slug>.trace.zip` per case, made unique in the run by `-2`, `-3`… in the order given. */
export function traceFileNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const stem = slugOf(name);
    let file = `${stem}.trace.zip`;
    for (let n = 2; taken.has(file); n++) file = `${stem}-${n}.trace.zip`;
    taken.add(file);
    return file;
  });
}

/** The cases whose traces are asked for: those that failed, or passed only on a retry. */
function wanted(result: RunCaseResult): boolean {
  return result.status === 'failed' || result.status === 'error' || result.status === 'flaky';
}

/**
 * Downloads one signed trace link to `target`, through a `.part` file so a broken download leaves no
 * half trace behind. The link is signed: no token is sent (it may point at PUBLIC_URL, another host).
 */
async function download(url: string, target: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new Error(`the server answered ${response.status}`);
  }
  const partial = `${target}.part`;
  try {
    await pipeline(
      Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>),
      createWriteStream(partial),
    );
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

const reasonOf = (error: unknown) =>
  error instanceof Error
    ? error.cause instanceof Error
      ? error.cause.message
      : error.message
    : String(error);

/**
 * After the run: its report read again (links signed now), then each failed or flaky case's trace
 * into `dir`. Says where each one went; says a warning for each one that could not be had.
 */
export async function downloadTraces(
  connection: Connection,
  runId: string,
  dir: string,
  { out, warn }: { out: (line: string) => void; warn: (line: string) => void },
): Promise<void> {
  let results: RunCaseResult[];
  try {
    const report = checked(
      RunReportSchema,
      await requestJson(connection, 'GET', `/api/runs/${encodeURIComponent(runId)}`),
      'the run',
    );
    results = report.results.filter(wanted);
  } catch (error) {
    warn(`argus: warning: could not read run ${runId} for its traces: ${reasonOf(error)}`);
    return;
  }
  if (results.length === 0) return;
  const target = resolve(dir);
  try {
    await mkdir(target, { recursive: true });
  } catch (error) {
    warn(`argus: warning: could not make ${dir} for the traces: ${reasonOf(error)}`);
    return;
  }
  const files = traceFileNames(results.map((r) => r.test_name));
  let written = 0;
  for (const [i, result] of results.entries()) {
    if (!result.trace_url) {
      warn(`argus: warning: no trace was kept of "${result.test_name}"`);
      continue;
    }
    try {
      await download(result.trace_url, join(target, files[i]));
      written++;
      out(`argus: trace of "${result.test_name}": ${join(dir, files[i])}`);
    } catch (error) {
      warn(`argus: warning: could not download the trace of "${result.test_name}": ${reasonOf(error)}`);
    }
  }
  if (written > 0)
    out(
      `argus: ${written} trace${written === 1 ? '' : 's'} in ${dir} (open one with npx playwright show-trace FILE)`,
    );
}
