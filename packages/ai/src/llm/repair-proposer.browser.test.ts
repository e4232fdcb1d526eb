/**
 * The LLM engine's repair proposer in real Chromium against the to-do fixture app, with a scripted
 * model behind the OpenAI-compatible and the Anthropic wire formats: what the model is shown (the
 * failed step among its neighbours, its error and last passing selector, the page now, never a
 * secret), and what the proposer does with its answers (a repair, a weakening handed on for the engine
 * to flag, an element not on the page handed on for the proof to refuse, lines that are not step
 * language refused at once).
 */
import { assertionWeakenings, BrowserPool, type BrowserSession, TargetPolicy } from '@argus/engine';
import { type ModelProvider, parseStep } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { type ScriptedModelServer, type ScriptedReply, startScriptedModelServer } from '../testing';
import { ModelClient, type UsageRecord } from './model-client';
import type { ModelConfig } from './model-config';
import { ModelError } from './model-errors';
import { LlmRepairProposer } from './repair-proposer';

let pool: BrowserPool;
let app: FixtureApp;
let server: ScriptedModelServer;

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });
  app = await serveFixtureApp('todo');
  server = await startScriptedModelServer(() => ({ status: 500 }));
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  await pool?.close();
});

/** A case written for a design whose field was "Task description" and whose counter read "1 task open". */
const STEPS = [
  'Navigate to /',
  'Fill "Task description" with "Buy milk"',
  'Press Enter in "Task description"',
  'Verify text "Buy milk" is visible',
  'Verify text "1 task open" is visible',
];
const FILL_ERROR = 'Could not find a field "Task description" on the page (waited 5 s)';

const config = (provider: ModelProvider): ModelConfig => ({
  provider,
  model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'qwen2.5-coder',
  baseUrl: server.baseUrl,
  apiKey: 'sk-test-0000',
  vision: false,
});

/** The case's steps with the failed one replaced by the proposal. */
const applied = (index: number, lines: string[]) => [
  ...STEPS.slice(0, index),
  ...lines,
  ...STEPS.slice(index + 1),
];

/** `work` on a fresh session opened on the app's page. */
async function onApp<T>(work: (session: BrowserSession) => Promise<T>): Promise<T> {
  const session = await pool.openSession({ viewport: { width: 1000, height: 700 } });
  try {
    await session.navigate(`${app.url}/`);
    return await work(session);
  } finally {
    await session.close();
  }
}

describe.each(['openai-compatible', 'anthropic'] as const)('through the %s wire format', (provider) => {
  const usage: UsageRecord[] = [];
  const proposer = () =>
    new LlmRepairProposer({
      client: new ModelClient({ config: config(provider), onUsage: (r) => void usage.push(r) }),
    });
  const answer = (reply: ScriptedReply) => server.respondWith(() => reply);

  it('shows the model the failed step, its error and evidence, and the page; returns its lines', async () => {
    answer({
      json: { lines: ['Fill "New todo" with "Buy milk"'], reason: 'The field is now labelled "New todo"' },
    });
    const before = server.requests.length;
    const result = await onApp(async (session) => {
      const proposal = await proposer().propose(
        session,
        {
          steps: STEPS,
          failedIndex: 1,
          error: FILL_ERROR,
          lastSelector: 'textbox:name="Task description" exact',
        },
        { timeoutMs: 15_000 },
      );
      // The proposed line acts on the page as it is.
      for (const line of proposal?.lines ?? []) await session.perform(parseStep(line), { timeoutMs: 3000 });
      return proposal;
    });
    expect(result).toEqual({
      lines: ['Fill "New todo" with "Buy milk"'],
      reason: 'The field is now labelled "New todo"',
    });
    const [request, ...more] = server.requests.slice(before);
    expect(more).toEqual([]);
    expect(request.wire).toBe(provider === 'anthropic' ? 'anthropic' : 'openai');
    expect(request.wantsJson).toBe(true);
    expect(request.system).toContain('Never remove, loosen or invert a check');
    expect(request.prompt).toContain('>> 2. Fill "Task description" with "Buy milk"   <- FAILED');
    expect(request.prompt).toContain('   5. Verify text "1 task open" is visible');
    expect(request.prompt).toContain(`Its error now: ${FILL_ERROR}`);
    expect(request.prompt).toContain('this step matched: textbox:name="Task description" exact');
    expect(request.prompt).toMatch(/\[\d+\] textbox "New todo"/);
    expect(usage.at(-1)).toMatchObject({ kind: 'repair', model: config(provider).model });
  });

  it('hands on an answer that weakens a check, which the engine flags', async () => {
    answer({ json: { lines: ['Verify text "open" is visible'], reason: 'The counter shows "1 item left"' } });
    const result = await onApp((session) =>
      proposer().propose(
        session,
        { steps: STEPS, failedIndex: 4, error: 'Text "1 task open" is not visible', lastSelector: null },
        { timeoutMs: 15_000 },
      ),
    );
    expect(result?.lines).toEqual(['Verify text "open" is visible']);
    const weakenings = assertionWeakenings(STEPS, applied(4, result?.lines ?? []));
    expect(weakenings.map((w) => w.kind)).toEqual(['text_widened']);
    expect(server.requests.at(-1)?.prompt).toContain('The test has no passing run on record for this step.');
  });

  it('hands on an answer naming an element that is not on the page, which does not act', async () => {
    answer({ json: { lines: ['Click button "Create task"'], reason: 'The add button' } });
    await onApp(async (session) => {
      const result = await proposer().propose(
        session,
        { steps: STEPS, failedIndex: 2, error: 'Could not find "Task description"', lastSelector: null },
        { timeoutMs: 15_000 },
      );
      expect(result?.lines).toEqual(['Click button "Create task"']);
      await expect(session.perform(parseStep(result?.lines[0] ?? ''), { timeoutMs: 1500 })).rejects.toThrow(
        /Create task/,
      );
    });
  });

  it('proposes nothing when the model finds nothing, or writes lines that are not step language', async () => {
    const input = { steps: STEPS, failedIndex: 1, error: FILL_ERROR, lastSelector: null };
    for (const lines of [
      [],
      ['Type the task into the box'],
      ['Click "a"', 'Click "b"', 'Click "c"', 'Click "d"', 'Click "e"'],
    ]) {
      answer({ json: { lines, reason: 'no element adds a task' } });
      expect(await onApp((session) => proposer().propose(session, input, { timeoutMs: 15_000 }))).toBeNull();
    }
  });

  it('fails with the model error a user can read when the model cannot be asked', async () => {
    answer({ status: 401, message: 'invalid api key' });
    const input = { steps: STEPS, failedIndex: 1, error: FILL_ERROR, lastSelector: null };
    const error = await onApp((session) => proposer().propose(session, input, { timeoutMs: 15_000 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('auth');
  });
});

it("never sends a secret: the page's and the error's values go through the client's redaction", async () => {
  const secret = 'hunter2-Secret-Value';
  server.respondWith(() => ({ json: { lines: [], reason: 'none' } }));
  const client = new ModelClient({
    config: config('openai-compatible'),
    redact: (text) => text.replaceAll(secret, '{{PASSWORD}}'),
  });
  const before = server.requests.length;
  await onApp(async (session) => {
    // The page shows the secret as the value of its field (a run typed it there).
    await session.perform(parseStep(`Fill "New todo" with "${secret}"`), { timeoutMs: 3000 });
    await new LlmRepairProposer({ client }).propose(
      session,
      {
        steps: ['Navigate to /', 'Fill "New todo" with "{{PASSWORD}}"', 'Click button "Sign in"'],
        failedIndex: 2,
        error: `Could not find button "Sign in" (field value ${secret})`,
        lastSelector: null,
      },
      { timeoutMs: 15_000 },
    );
  });
  const [request] = server.requests.slice(before);
  expect(request.prompt).toMatch(/textbox "New todo" \(value "\{\{PASSWORD\}\}"\)/);
  expect(request.prompt).toContain('(field value {{PASSWORD}})');
  expect(`${request.system}\n${request.prompt}`).not.toContain(secret);
});
