import { describe, expect, it } from 'vitest';
import {
  formatCost,
  formatCount,
  formatUsage,
  isBuiltInEngine,
  mentionsModel,
  readUsage,
  runModelLine,
  stepHow,
  ZERO_USAGE,
} from './usage';

const LLM = 'LLM (openai-compatible · qwen2.5-coder)';
const RUN_ENGINE = `built-in (rule-based) for step-language lines; ${LLM} for free-form steps and expected results`;
const usage = { model_calls: 5, input_tokens: 4200, output_tokens: 1234, cost_usd: 0.0123 };

describe('usage figures', () => {
  it('formats counts with thousands separators and costs with up to four decimals, estimated', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCost(0.0123)).toBe('$0.0123 est.');
    expect(formatCost(0.01234567)).toBe('$0.0123 est.');
    expect(formatCost(1.5)).toBe('$1.50 est.');
    expect(formatCost(0)).toBe('$0.00 est.');
    expect(formatCost(0.00001)).toBe('< $0.0001 est.');
    expect(formatCost(1234.5)).toBe('$1,234.50 est.');
  });

  it('sums input and output tokens, and says call or calls', () => {
    expect(formatUsage(usage)).toBe('5 calls · 5,434 tokens · $0.0123 est.');
    expect(formatUsage({ ...ZERO_USAGE, model_calls: 1, input_tokens: 3000, output_tokens: 800 })).toBe(
      '1 call · 3,800 tokens · $0.00 est.',
    );
  });

  it('reads a stored usage only when it is one', () => {
    expect(readUsage(usage)).toEqual(usage);
    expect(readUsage({ model_calls: -1 })).toBeNull();
    expect(readUsage('5 calls')).toBeNull();
    expect(readUsage(undefined)).toBeNull();
  });

  it("tells the built-in engine's names from the LLM's", () => {
    expect(isBuiltInEngine('built-in (rule-based)')).toBe(true);
    expect(isBuiltInEngine('builtin (rule-based, no LLM)')).toBe(true);
    expect(isBuiltInEngine(null)).toBe(true);
    expect(isBuiltInEngine(LLM)).toBe(false);
    expect(mentionsModel(RUN_ENGINE)).toBe(true);
    expect(mentionsModel('built-in (rule-based)')).toBe(false);
  });
});

describe("the run's model line", () => {
  it('gives calls, tokens and cost when the run used the model', () => {
    expect(runModelLine(RUN_ENGINE, usage, 0)).toBe('Model: 5 calls · 5,434 tokens · $0.0123 est.');
  });

  it('says 0 model calls on a rerun replayed from the cache', () => {
    expect(runModelLine(RUN_ENGINE, ZERO_USAGE, 3)).toBe('0 model calls (all replayed from cache)');
    expect(runModelLine(RUN_ENGINE, ZERO_USAGE, 0)).toBe('0 model calls');
  });

  it('says nothing for a built-in run, or before the run has finished', () => {
    expect(runModelLine('built-in (rule-based)', ZERO_USAGE, 0)).toBeNull();
    expect(runModelLine('built-in (rule-based)', null, 0)).toBeNull();
    expect(runModelLine(RUN_ENGINE, null, 2)).toBeNull();
  });
});

describe('how a step was carried out', () => {
  it('says nothing of a plain built-in step', () => {
    expect(stepHow({ engine: 'built-in (rule-based)', resolvedBy: null, usage: null })).toBeNull();
    expect(stepHow({ engine: null, resolvedBy: null, usage: null })).toBeNull();
  });

  it('names the model, the cache or self-healing, with the engine and the usage in the title', () => {
    const byModel = stepHow({ engine: LLM, resolvedBy: 'model', usage });
    expect(byModel).toMatchObject({ label: 'AI', tone: 'indigo' });
    expect(byModel?.title).toBe(
      `Carried out by ${LLM} · 5 calls · 5,434 tokens · $0.0123 est. (4,200 input + 1,234 output tokens)`,
    );
    const cached = stepHow({ engine: LLM, resolvedBy: 'cache', usage: ZERO_USAGE });
    expect(cached).toMatchObject({ label: 'AI · from cache', tone: 'slate' });
    expect(cached?.title).toBe(`Carried out by ${LLM} · replayed from the cache: no model call`);
    expect(stepHow({ engine: LLM, resolvedBy: 'healed', usage })).toMatchObject({
      label: 'AI · self-healed',
      tone: 'amber',
    });
  });

  it('marks a model step still in progress (no resolution yet) as AI', () => {
    expect(stepHow({ engine: LLM, resolvedBy: null, usage: null })).toMatchObject({
      label: 'AI',
      title: `Carried out by ${LLM}`,
    });
  });
});
