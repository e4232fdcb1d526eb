import { type ModelUsage, ModelUsageSchema } from '@argus/protocol';

/** How a step the model handled was resolved (StepUpdate.resolved_by). */
export type ResolvedBy = 'model' | 'cache' | 'healed';

export const ZERO_USAGE: ModelUsage = { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 };

const COUNT = new Intl.NumberFormat('en-US');
const DOLLARS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/** 12,345 */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** '$0.0123 est.': two to four decimals; amounts under a hundredth of a cent say so. */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.0001) return '< $0.0001 est.';
  return `${DOLLARS.format(usd)} est.`;
}

export function totalTokens(usage: ModelUsage): number {
  return usage.input_tokens + usage.output_tokens;
}

export function isZeroUsage(usage: ModelUsage): boolean {
  return usage.model_calls === 0 && totalTokens(usage) === 0 && usage.cost_usd === 0;
}

/** ['5 calls', '4,123 tokens', '$0.0123 est.']: the parts of a usage, each kept on one line on screen. */
export function usageParts(usage: ModelUsage): string[] {
  const calls = `${formatCount(usage.model_calls)} call${usage.model_calls === 1 ? '' : 's'}`;
  return [calls, `${formatCount(totalTokens(usage))} tokens`, formatCost(usage.cost_usd)];
}

/** '5 calls · 4,123 tokens · $0.0123 est.' */
export function formatUsage(usage: ModelUsage): string {
  return usageParts(usage).join(' · ');
}

/** 'input 3,000 · output 800': the split of the total, for a tooltip. */
export function formatTokenSplit(usage: ModelUsage): string {
  return `${formatCount(usage.input_tokens)} input + ${formatCount(usage.output_tokens)} output tokens`;
}

export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    model_calls: a.model_calls + b.model_calls,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cost_usd: a.cost_usd + b.cost_usd,
  };
}

/** A stored usage, checked (what a session kept is not trusted as is). */
export function readUsage(value: unknown): ModelUsage | null {
  const parsed = ModelUsageSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The built-in engine names itself 'built-in (rule-based)' (steps) or 'builtin (…)' (generation). */
export function isBuiltInEngine(engine: string | null | undefined): boolean {
  return !engine || /^built-?in\b/i.test(engine.trim());
}

/** Whether an engine's name says a model takes part ('LLM (…)', or the built-in one with a model for free-form steps). */
export function mentionsModel(engine: string | null | undefined): boolean {
  return !!engine && /\bLLM\b/.test(engine);
}

/**
 * The run's model line: 'Model: 5 calls · 4,123 tokens · $0.00 est.', '0 model calls' when the
 * engine could use a model but did not (with '(all replayed from cache)' when steps were replayed),
 * or null when the run had nothing to do with a model.
 */
export function runModelLine(
  engine: string | null,
  usage: ModelUsage | null,
  cachedSteps: number,
): string | null {
  if (usage && !isZeroUsage(usage)) return `Model: ${formatUsage(usage)}`;
  if (!usage || !mentionsModel(engine)) return null;
  return cachedSteps > 0 ? '0 model calls (all replayed from cache)' : '0 model calls';
}

export interface StepHow {
  /** The badge's text: 'AI', 'AI · from cache', 'AI · self-healed'. */
  label: string;
  tone: 'indigo' | 'slate' | 'amber';
  /** The tooltip: the engine, and the step's model calls when any. */
  title: string;
}

/**
 * How a step was carried out when it was not a plain built-in step: by the model now, replayed from
 * the cache, or healed (the cached resolution broke and the model was asked again). Null for a
 * step-language line the built-in engine ran.
 */
export function stepHow(step: {
  engine: string | null;
  resolvedBy: ResolvedBy | null;
  usage: ModelUsage | null;
}): StepHow | null {
  if (!step.resolvedBy && isBuiltInEngine(step.engine)) return null;
  const by = step.engine && !isBuiltInEngine(step.engine) ? step.engine : 'the model';
  const parts = [`Carried out by ${by}`];
  if (step.resolvedBy === 'cache') parts.push('replayed from the cache: no model call');
  if (step.resolvedBy === 'healed')
    parts.push('the cached resolution no longer worked, so the model was asked again');
  if (step.usage && !isZeroUsage(step.usage)) {
    parts.push(`${formatUsage(step.usage)} (${formatTokenSplit(step.usage)})`);
  }
  const title = parts.join(' · ');
  if (step.resolvedBy === 'cache') return { label: 'AI · from cache', tone: 'slate', title };
  if (step.resolvedBy === 'healed') return { label: 'AI · self-healed', tone: 'amber', title };
  return { label: 'AI', tone: 'indigo', title };
}
