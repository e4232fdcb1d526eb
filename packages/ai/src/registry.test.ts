import { AbortedError } from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { BuiltinPlanner } from './builtin-planner';
import { checkSteps, PlannerOutputError } from './planner';
import { createPlanner, PLANNER_PROVIDERS, plannerProvider, UnknownPlannerError } from './registry';

describe('planner registry', () => {
  it('knows the built-in planner, and picks it when AI_PROVIDER is unset or empty', () => {
    expect(PLANNER_PROVIDERS).toEqual(['builtin']);
    for (const value of [undefined, '', '  ', 'builtin', ' BuiltIn '])
      expect(plannerProvider(value)).toBe('builtin');
    expect(createPlanner().engine).toBe(new BuiltinPlanner().engine);
    expect(createPlanner({ provider: 'builtin' }).engine).toMatch(/rule-based/);
  });

  it('refuses an unknown provider, naming the valid values', () => {
    for (const provider of ['openai', 'toString', '__proto__', 'builtin2']) {
      expect(() => createPlanner({ provider }), provider).toThrow(UnknownPlannerError);
    }
    expect(() => plannerProvider('openai')).toThrow(
      "AI_PROVIDER 'openai' is not a planner this server has. Valid values: builtin (unset means builtin).",
    );
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
