/**
 * The LLM chat planner in real Chromium against the to-do app, with the scripted model (rules over
 * the prompts) behind the OpenAI-compatible wire format: a question answered with one call, a
 * free-form request carried out by the agent loop with its actions told as they happen, step-language
 * lines with no call, a refused key answered plainly, and a stop.
 */
import { AbortedError, BrowserPool, type BrowserSession, parseStep, TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { createLlmEngine } from '../llm/llm-engine';
import { ModelClient } from '../llm/model-client';
import type { ModelConfig } from '../llm/model-config';
import { ruleModel, type ScriptedModelServer, startScriptedModelServer } from '../testing';
import { BuiltinChatPlanner } from './builtin-chat';
import type { ChatAction } from './chat-planner';
import { CHAT_SYSTEM, createChatPlanner, LlmChatPlanner } from './llm-chat';

let pool: BrowserPool;
let app: FixtureApp;
let server: ScriptedModelServer;

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  app = await serveFixtureApp('todo');
  server = await startScriptedModelServer(ruleModel());
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  await pool?.close();
});

const config = (): ModelConfig => ({
  provider: 'openai-compatible',
  model: 'qwen2.5-coder',
  baseUrl: server.baseUrl,
  apiKey: 'sk-test-0000',
  vision: false,
});

async function onTodo<T>(work: (session: BrowserSession) => Promise<T>): Promise<T> {
  const session = await pool.openSession({ viewport: { width: 1000, height: 600 } });
  try {
    await session.navigate(`${app.url}/`);
    return await work(session);
  } finally {
    await session.close();
  }
}

describe('LlmChatPlanner through the openai-compatible wire format', () => {
  it('is what createChatPlanner builds for an engine, and the built-in one without', () => {
    const engine = createLlmEngine({ config: config() });
    const planner = createChatPlanner(engine);
    expect(planner).toBeInstanceOf(LlmChatPlanner);
    expect(planner.engine).toBe('LLM (openai-compatible · qwen2.5-coder)');
    expect(createChatPlanner()).toBeInstanceOf(BuiltinChatPlanner);
  });

  it('answers a question about the page with one call and no action', async () => {
    server.respondWith(ruleModel());
    const planner = new LlmChatPlanner(new ModelClient({ config: config() }));
    await onTodo(async (session) => {
      const before = server.requests.length;
      const turn = await planner.turn(session, 'Is there a new todo field?');
      expect(server.requests.length - before).toBe(1);
      const request = server.requests[before];
      expect(request.system).toBe(CHAT_SYSTEM);
      expect(request.prompt).toContain('Question: Is there a new todo field?');
      expect(request.prompt).toContain('textbox "New todo"');
      expect(turn).toEqual({
        reply: `You are on "Todos" (${app.url}/). It has a textbox "New todo".`,
        actions: [],
        engine: 'LLM (openai-compatible · qwen2.5-coder)',
      });
    });
  });

  it('carries out a free-form request with the agent loop, telling each action as it is done', async () => {
    server.respondWith(ruleModel());
    const planner = new LlmChatPlanner(createLlmEngine({ config: config() }));
    await onTodo(async (session) => {
      const before = server.requests.length;
      const told: { action: ChatAction; calls: number }[] = [];
      const turn = await planner.turn(session, 'Add a to-do called "Buy milk"', {
        onAction: (action) => told.push({ action, calls: server.requests.length - before }),
      });
      // fill, press Enter, done
      expect(server.requests.length - before).toBe(3);
      expect(turn.actions.map((a) => a.line)).toEqual([
        'Fill "New todo" with "Buy milk"',
        'Press Enter in "New todo"',
      ]);
      expect(turn.actions[0]).toEqual({
        line: 'Fill "New todo" with "Buy milk"',
        message: 'Typed "Buy milk" into "New todo"',
        url: `${app.url}/`,
      });
      // Each told while the loop ran: the first after one call, the second after two.
      expect(told.map((t) => t.calls)).toEqual([1, 2]);
      expect(turn.reply).toContain('The model says: Carried out: Add a to-do called "Buy milk"');
      expect(turn.reply).toContain(`Now on "Todos" (${app.url}/), heading "todos".`);
      await session.perform(parseStep('Verify text "1 item left" is visible'), { timeoutMs: 5000 });

      // Step-language lines: performed directly, no call.
      const calls = server.requests.length;
      const lines = await planner.turn(
        session,
        'Check the checkbox in "Buy milk" then Verify "Buy milk" is marked "completed"',
      );
      expect(server.requests.length).toBe(calls);
      expect(lines.actions.map((a) => a.line)).toEqual([
        'Check the checkbox in "Buy milk"',
        'Verify "Buy milk" is marked "completed"',
      ]);
      expect(lines.reply).toMatch(/^Done:\n- Checked the checkbox in "Buy milk"\n/);
    });
  });

  it('says plainly when the model refuses the key, without throwing', async () => {
    server.respondWith(() => ({ status: 401, message: 'Incorrect API key provided' }));
    const planner = new LlmChatPlanner(new ModelClient({ config: config(), maxRetries: 0 }));
    await onTodo(async (session) => {
      const question = await planner.turn(session, 'What is on this page?');
      expect(question.actions).toEqual([]);
      expect(question.reply).toMatch(/^The model could not answer: .*API key/);
      const request = await planner.turn(session, 'Add a to-do called "Walk the dog"');
      expect(request.actions).toEqual([]);
      expect(request.reply).toMatch(/^The model could not answer: .*check your API key/i);
    });
    server.respondWith(ruleModel());
  });

  it('stops a model call in flight', async () => {
    server.respondWith(() => ({ hang: true }));
    const planner = new LlmChatPlanner(new ModelClient({ config: config() }));
    await onTodo(async (session) => {
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 300);
      const started = Date.now();
      await expect(
        planner.turn(session, 'Add a to-do called "Later"', { signal: stop.signal }),
      ).rejects.toBeInstanceOf(AbortedError);
      expect(Date.now() - started).toBeLessThan(5000);
    });
    server.respondWith(ruleModel());
  });
});
