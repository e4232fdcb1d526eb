import { LlmRepairProposer } from '@argus/ai';
import type { StepCacheRepository } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { BUILTIN_AUTOMATION_ENGINE, type EngineResolverDeps, engineResolver } from './engines';

/** Deps whose model is `config`; nothing here is called until a model call is made. */
const deps = (model: Awaited<ReturnType<EngineResolverDeps['effectiveModel']>>): EngineResolverDeps => ({
  effectiveModel: async () => model,
  checkBudget: async () => {},
  recordUsage: async () => {},
  stepCache: {} as StepCacheRepository,
  log: {} as FastifyBaseLogger,
});

describe('the repair proposer an engine carries', () => {
  it("the LLM engine proposes repairs with the user's model, named as its interpreter is", async () => {
    const engine = await engineResolver(
      deps({
        config: {
          provider: 'openai-compatible',
          model: 'qwen2.5-coder',
          baseUrl: 'http://127.0.0.1:9/v1',
          apiKey: 'k',
          vision: false,
        },
      }),
    )('user-1', {});
    expect(engine.repairProposer).toBeInstanceOf(LlmRepairProposer);
    expect(engine.repairProposer?.engine).toBe(engine.interpreter?.engine);
  });

  it('the built-in engine has none: its repairs are its rules alone', async () => {
    const engine = await engineResolver(deps(null))('user-1', {});
    expect(engine).toBe(BUILTIN_AUTOMATION_ENGINE);
    expect(engine.repairProposer).toBeUndefined();
  });
});
