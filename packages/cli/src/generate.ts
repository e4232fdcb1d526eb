import { type GenerationRequest, GenerationResultSchema } from '@argus/protocol';
import { type Connection, HttpError, requestJson } from './http';
import { CouldNotStart, checked, findEnvironment, findProject } from './resolve';

export interface GenerateOptions {
  project: string;
  env?: string;
  suite: string;
  url?: string;
  command?: string;
  out: (line: string) => void;
  signal: AbortSignal;
}

/** The longest a generation is waited for (the server answers when it is over). */
export const GENERATION_WAIT_MS = 10 * 60_000;

/**
 * `argus generate`: a generation on the project's environment, saved as the suite (created, or its next
 * version). 0 saved; 1 the generation ran and failed (the site, the sign-in, the planner); 2 not started.
 */
export async function generateSuite(connection: Connection, options: GenerateOptions): Promise<number> {
  const { out } = options;
  const project = await findProject(connection, options.project);
  const environment = findEnvironment(project, options.env);
  const body: GenerationRequest = {
    environment_id: environment.id,
    suite_name: options.suite,
    ...(options.url ? { url: options.url } : {}),
    ...(options.command ? { command: options.command } : {}),
  };
  out(
    `argus: generating ${options.command ? 'a command-mode' : 'a full'} suite on "${project.name}"/${environment.name} (${options.url ?? environment.base_url}); this takes a minute or more`,
  );
  const answered = await generationRequest(
    connection,
    `/api/projects/${encodeURIComponent(project.id)}/generations`,
    body,
    options,
  );
  if ('code' in answered) return answered.code;
  const result = checked(GenerationResultSchema, answered.answer, 'the generation');
  out(
    `argus: saved ${result.cases} test case${result.cases === 1 ? '' : 's'} as "${result.suite.name}" version ${result.suite.version} (${result.created ? 'new suite' : 'new version'}) in "${project.name}", written by the ${result.engine} engine from ${result.url}`,
  );
  return 0;
}

/**
 * A request that runs a generation (`argus generate`, and `--compare`'s regenerate): its answer, or the
 * exit code it ended with: 130 cancelled, 1 the generation ran and failed. A refusal is `CouldNotStart`.
 */
export async function generationRequest(
  connection: Connection,
  path: string,
  body: unknown,
  { out, signal }: Pick<GenerateOptions, 'out' | 'signal'>,
): Promise<{ answer: unknown } | { code: number }> {
  try {
    // Nothing flows while the server generates: the whole wait is one idle stretch.
    return {
      answer: await requestJson(connection, 'POST', path, {
        body,
        idleTimeoutMs: GENERATION_WAIT_MS,
        signal,
      }),
    };
  } catch (error) {
    if (signal.aborted) {
      out('argus: generation cancelled (the server stops it when the request goes away)');
      return { code: 130 };
    }
    if (error instanceof HttpError) {
      if (error.code === 'GENERATION_FAILED' || error.code === 'SIGN_IN_FAILED') {
        out(`argus: the generation failed: ${error.detail}`);
        return { code: 1 };
      }
      if (error.status !== 401 && error.status !== 403)
        throw new CouldNotStart(`the server refused the generation (${error.message})`);
    }
    throw error;
  }
}
