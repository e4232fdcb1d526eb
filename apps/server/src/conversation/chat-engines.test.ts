import { ModelError } from '@argus/ai';
import { BUILTIN_ENGINE } from '@argus/engine';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { chatResolver } from './chat-engines';

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;

describe('chatResolver', () => {
  const deps = (effectiveModel: () => Promise<unknown>) => ({
    effectiveModel: effectiveModel as never,
    checkBudget: vi.fn(async () => {}),
    recordUsage: vi.fn(async () => {}),
    log,
  });

  it('gives the built-in chat planner to a user without a model', async () => {
    const chat = await chatResolver(deps(async () => null))('u1', { session_id: 's1' });
    expect(chat.engine).toBe(BUILTIN_ENGINE);
  });

  it('gives the LLM chat planner of the user’s model, and falls back to the built-in one when it cannot be used', async () => {
    const resolve = chatResolver(
      deps(async () => ({ config: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-test' } })),
    );
    const chat = await resolve('u1', { session_id: 's1' });
    expect(chat.engine).not.toBe(BUILTIN_ENGINE);
    expect(chat.engine).toContain('gpt-4o-mini');

    const refused = chatResolver(
      deps(async () => {
        throw new ModelError('refused', 'The base URL is refused by the target policy');
      }),
    );
    expect((await refused('u1', { session_id: 's1' })).engine).toBe(BUILTIN_ENGINE);
    expect(log.warn).toHaveBeenCalled();
  });
});
