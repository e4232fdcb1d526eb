import { AbortedError } from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { BuiltinPlanner } from './builtin-planner';
import { ModelClient } from './llm/model-client';
import { checkSteps, PlannerOutputError } from './planner';
import { createPlanner, plannerProvider, UnknownPlannerError } from './registry';

describe('planner registry', () => {
  it('knows the built-in planner and the model providers, and picks built-in when AI_PROVIDER is unset or empty', () => {
    for (const value of ['openai', ' Anthropic ', 'openai-compatible'])
      expect(plannerProvider(value)).toBe(value.trim().toLowerCase());
    for (const value of [undefined, '', '  ', 'builtin', ' BuiltIn '])
      expect(plannerProvider(value)).toBe('builtin');
    expect(createPlanner().engine).toBe(new BuiltinPlanner().engine);
    expect(createPlanner({ provider: 'builtin' }).engine).toMatch(/rule-based/);
  });

  it('refuses an unknown provider, naming the valid values', () => {
    for (const provider of ['gemini', 'toString', '__proto__', 'builtin2']) {
      expect(() => createPlanner({ provider }), provider).toThrow(UnknownPlannerError);
    }
    expect(() => plannerProvider('gemini')).toThrow(
      "AI_PROVIDER 'gemini' is not a planner this server has. Valid values: builtin, openai, anthropic, openai-compatible (unset means builtin).",
    );
  });

  it('a model provider’s planner needs a model, and may write free-form lines', () => {
    expect(() => createPlanner({ provider: 'openai' })).toThrow(
      'The openai planner needs a model (AI_MODEL and its key).',
    );
    const client = new ModelClient({ config: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'k' } });
    const planner = createPlanner({ provider: 'openai', client });
    expect(planner.engine).toBe('LLM (openai · gpt-4o-mini)');
    expect(planner.freeForm).toBe(true);
    expect(planner.vision).toBe(true);
  });

  it('checks every line a planner writes, naming the planner, the case and the line', () => {
    const cases = (steps: string[]) => [{ test_name: 'Case', steps } as TestCase];
    expect(() => checkSteps('sloppy', cases(['Click "A"', 'Make it pop']))).toThrow(PlannerOutputError);
    expect(() => checkSteps('sloppy', cases(['Click "A"', 'Make it pop']))).toThrow(
      'The sloppy planner wrote a step outside the step language in "Case": Make it pop',
    );
    expect(checkSteps('sloppy', cases(['Click "A"']))).toEqual(cases(['Click "A"']));
  });

  it('a configured planner rejects with AbortedError once stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      createPlanner().generate({ url: 'https://shop.example/', pages: [] }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(AbortedError);
  });
});
