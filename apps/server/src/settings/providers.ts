import { type ModelProvider, ModelProviderSchema, type ValidationIssue } from '@argus/protocol';
import type { ModelSettingsDeps } from './model-settings-deps';

export const BUILTIN_ENGINE_NAME = 'Built-in (rule-based)';

/** Each provider as a sentence names it. */
export const PROVIDER_NAMES: Record<ModelProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'An OpenAI-compatible provider',
};

export const isModelProvider = (value: string | null | undefined): value is ModelProvider =>
  ModelProviderSchema.safeParse(value).success;

/** Collects 422 issues on body fields, as AppError('VALIDATION') reports them. */
export function issueList(): {
  issues: ValidationIssue[];
  issue: (field: string, msg: string) => void;
} {
  const issues: ValidationIssue[] = [];
  const issue = (field: string, msg: string) => {
    issues.push({ loc: ['body', field], msg, type: 'value_error' });
  };
  return { issues, issue };
}

/** Why the server may not call `baseUrl` for a user (the browser's target policy), or null. */
export async function baseUrlProblem(
  policy: ModelSettingsDeps['policy'],
  baseUrl: string,
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'The base URL must be an http:// or https:// address';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'The base URL must be an http:// or https:// address';
  const decision = await policy.check(url);
  return decision.allowed ? null : `The server may not call this base URL: ${decision.reason}.`;
}
