import { describe, expect, it } from 'vitest';
import { latestSession, type StoredSession } from '../../../lib/sessions/screen-session';
import { readAutomationSession, type SavedAutomation } from './session-record';
import { EXPLORATION } from './test-fixtures';

/** What the screen restores on opening: the latest automation session it finds something in. */
function planRestore(sessions: StoredSession[]): (SavedAutomation & { sessionId: string }) | null {
  const found = latestSession(sessions, 'automation', readAutomationSession);
  return found && { ...found.value, sessionId: found.session.id };
}

function session(overrides: Partial<StoredSession>): StoredSession {
  return {
    id: 's1',
    type: 'automation',
    status: 'active',
    updatedAt: '2026-01-01T10:00:00.000Z',
    url: 'http://shop.test/',
    settings: {
      testMode: 'full',
      url: 'http://shop.test/',
      command: null,
      testCases: [{ test_name: 'Home page loads', steps: ['Navigate to "/"'] }],
    },
    metadata: {
      engine: 'builtin (rule-based, no LLM)',
      testRunId: 'run-1',
      executionResults: [
        { testName: 'Home page loads', status: 'passed', executionTime: 1.5, error: null },
        { testName: 'broken', status: 'weird' },
      ],
    },
    ...overrides,
  };
}

describe('readAutomationSession with latestSession (the screen as it was left)', () => {
  it('reads the cases, mode, URL, engine, test run and results of the latest automation session', () => {
    const plan = planRestore([
      session({ id: 'old', updatedAt: '2026-01-01T09:00:00.000Z' }),
      session({}),
      session({ id: 'chat', type: 'conversational', updatedAt: '2026-01-02T00:00:00.000Z' }),
    ]);
    expect(plan).toMatchObject({
      sessionId: 's1',
      url: 'http://shop.test/',
      mode: 'full',
      command: '',
      engine: 'builtin (rule-based, no LLM)',
      testRunId: 'run-1',
      results: [{ testName: 'Home page loads', status: 'passed', executionTime: 1.5, error: null }],
    });
    expect(plan?.testCases[0]).toMatchObject({
      test_name: 'Home page loads',
      category: 'General',
      priority: 'medium',
    });
  });

  it('keeps the command of a command-mode session', () => {
    const plan = planRestore([
      session({ settings: { ...session({}).settings, testMode: 'command', command: 'test the login form' } }),
    ]);
    expect(plan).toMatchObject({ mode: 'command', command: 'test the login form' });
  });

  it('keeps the project environment the work ran on; none when the session names none', () => {
    const plan = planRestore([
      session({
        settings: { ...session({}).settings, project: { projectId: 'p1', environmentId: 'e1' } },
      }),
    ]);
    expect(plan?.project).toEqual({ projectId: 'p1', environmentId: 'e1' });
    expect(planRestore([session({})])?.project).toEqual({ projectId: null, environmentId: null });
  });

  it('keeps the Retries choice, and reads anything out of range as none', () => {
    const base = session({}).settings;
    expect(planRestore([session({ settings: { ...base, retries: 2 } })])?.retries).toBe(2);
    expect(planRestore([session({})])?.retries).toBe(0);
    for (const retries of [9, -1, 1.5, '2'])
      expect(planRestore([session({ settings: { ...base, retries } })])?.retries).toBe(0);
  });

  it('skips closed sessions, sessions without cases and malformed cases', () => {
    expect(planRestore([session({ status: 'closed' })])).toBeNull();
    expect(planRestore([session({ settings: { url: 'http://shop.test/' }, metadata: {} })])).toBeNull();
    expect(
      planRestore([session({ settings: { url: 'http://shop.test/', testCases: [{ steps: 'nope' }] } })]),
    ).toBeNull();
    expect(planRestore([])).toBeNull();
  });

  it('falls back to the cases kept in the metadata', () => {
    const plan = planRestore([
      session({
        settings: { url: 'http://shop.test/' },
        metadata: { testCases: [{ name: 'From metadata' }] },
      }),
    ]);
    expect(plan?.testCases.map((c) => c.test_name)).toEqual(['From metadata']);
  });

  it("reads the command's clause coverage and the exploration summary, skipping malformed ones", () => {
    const coverage = [{ clause: 'deleting it', tests: [], reason: 'No test covers it: nothing matched.' }];
    const exploration = EXPLORATION;
    const kept = session({ metadata: { ...session({}).metadata, commandCoverage: coverage, exploration } });
    expect(planRestore([kept])).toMatchObject({ commandCoverage: coverage, exploration });
    expect(planRestore([session({})])).toMatchObject({ commandCoverage: null, exploration: null });
    const broken = session({
      metadata: {
        ...session({}).metadata,
        commandCoverage: [{ clause: 7 }],
        exploration: { ...exploration, ended: 'bored' },
      },
    });
    expect(planRestore([broken])).toMatchObject({ commandCoverage: null, exploration: null });
  });

  it("reads the generation's usage, the run's engine and its usage, skipping malformed ones", () => {
    const usage = { model_calls: 5, input_tokens: 4200, output_tokens: 900, cost_usd: 0.0123 };
    const llm = session({
      metadata: {
        ...session({}).metadata,
        engine: 'LLM (openai-compatible · qwen2.5-coder)',
        generationUsage: { model_calls: 1, input_tokens: 3000, output_tokens: 800, cost_usd: 0 },
        runEngine: 'built-in (rule-based) for step-language lines; LLM (…) for free-form steps',
        runUsage: usage,
      },
    });
    expect(planRestore([llm])).toMatchObject({
      generationUsage: { model_calls: 1, input_tokens: 3000 },
      runEngine: 'built-in (rule-based) for step-language lines; LLM (…) for free-form steps',
      runUsage: usage,
    });
    expect(planRestore([session({})])).toMatchObject({
      generationUsage: null,
      runEngine: null,
      runUsage: null,
    });
    const broken = session({
      metadata: {
        ...session({}).metadata,
        generationUsage: { model_calls: 'many' },
        runUsage: 7,
        runEngine: 3,
      },
    });
    expect(planRestore([broken])).toMatchObject({ generationUsage: null, runEngine: null, runUsage: null });
  });
});
