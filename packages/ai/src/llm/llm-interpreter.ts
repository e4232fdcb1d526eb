import {
  AbortedError,
  type BrowserSession,
  type InterpretContext,
  type InterpretedStep,
  type InterpreterUsage,
  type Judgement,
  resolveWebUrl,
  type SnapshotControl,
  type StepInterpreter,
} from '@argus/engine';
import { parseStep, q, StepSyntaxError } from '@argus/protocol';
import { z } from 'zod';
import { type ModelClient, newMeter, type UsageMeter } from './model-client';
import { seesImages } from './model-config';
import { ModelError } from './model-errors';
import { checkLine, clickLine, fillLine, hoverLine, pageView, selectLine } from './page-view';
import { cacheKey, pageKey, type StepCacheStore } from './step-cache';

const TOOLS = [
  'click',
  'fill',
  'select',
  'check',
  'uncheck',
  'hover',
  'press',
  'scroll',
  'navigate',
  'wait',
  'assert',
  'done',
  'give_up',
] as const;

/** One turn of the agent: a flat shape every provider's structured output accepts. */
export const AgentTurnSchema = z.object({
  thought: z.string().describe('What the page shows now and what you did so far, briefly'),
  next_goal: z.string().describe('What this action is meant to achieve'),
  tool: z.enum(TOOLS),
  element: z.number().int().nullable().describe('The [number] of the element acted on, or null'),
  value: z
    .string()
    .nullable()
    .describe(
      'fill: the text; select: the option; press: the key (Enter, Tab, Escape…); scroll: top or bottom; navigate: the URL; wait: seconds or a text to wait for; assert: a text that must be visible; done/give_up: a summary',
    ),
});
export type AgentTurn = z.infer<typeof AgentTurnSchema>;

export const JudgementSchema = z.object({
  passed: z.boolean(),
  reason: z.string().describe('Why, quoting the page text or URL that shows it'),
  checks: z
    .array(z.string())
    .describe(
      'Step-language lines that verify the verdict on this page, e.g. Verify text "Order placed" is visible',
    ),
});

const AGENT_SYSTEM = `You drive a real web browser to carry out one step of a test, one action per turn.
Each turn you see the page as numbered interactive elements and its visible text. Choose one tool:
click/hover/check/uncheck (element), fill (element, value), select (element, value = option),
press (value = key, element optional), scroll (value = top or bottom, or element), navigate (value = URL),
wait (value = seconds up to 10, or a text to wait for), assert (value = a text that must be visible now),
done (value = what was done) once the step is complete, give_up (value = why) if it cannot be done on this site.
Use only element numbers from the list. Do not do more than the step asks. Answer with JSON only.`;

const JUDGE_SYSTEM = `You check a web test's expected result against evidence from the page the test ended on.
Decide only from the evidence given (URL, title, visible text, elements, and a screenshot when present).
"passed" is true only when the evidence shows the expected result. "reason" cites the evidence (quote the text or URL).
"checks" are 1-3 lines in the test step language that verify it on this page, each one of:
Verify text "<text>" is visible | Verify URL contains "<part>" | Verify title contains "<text>" | Verify "<field>" has value "<value>"
Answer with JSON only.`;

export interface LlmInterpreterOptions {
  client: ModelClient;
  /** Resolutions kept for reruns. Without it every free-form step asks the model. */
  cache?: StepCacheStore;
  /** Turns (model calls) one free-form step may take. @default 12 */
  maxTurns?: number;
  /** Time one action the model chose may take. @default 10000 */
  actionTimeoutMs?: number;
}

const ZERO: InterpreterUsage = { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 };

/**
 * The LLM engine's step interpreter. A free-form step is replayed from the cache when it was resolved
 * on this page before; otherwise (or when a cached action breaks) an agent loop observes the page,
 * asks the model for one action, performs it as a step-language line, and repeats until the model says
 * done; the lines it performed are cached. Expected results are judged the same way: cached checks
 * first, the model when they fail.
 */
export class LlmInterpreter implements StepInterpreter {
  readonly engine: string;
  /** A failure no further call can mend (key refused, budget used up): later steps fail at once. */
  private fatal: ModelError | null = null;

  constructor(private readonly options: LlmInterpreterOptions) {
    this.engine = options.client.engine;
  }

  async perform(session: BrowserSession, line: string, context: InterpretContext): Promise<InterpretedStep> {
    const deadline = Date.now() + context.timeoutMs;
    const key = cacheKey('step', line, pageKey(session.url));
    const cached = await this.options.cache?.get(key);
    let healing: string | null = null;
    if (cached) {
      try {
        const selector = await this.replay(session, cached.actions, deadline, context.signal);
        await this.options.cache?.hit(key);
        return {
          actions: cached.actions,
          selector,
          description: `replayed from the cache without a model call: ${cached.actions.join('; ')}`,
          via: 'cache',
          usage: { ...ZERO },
        };
      } catch (error) {
        if (error instanceof AbortedError) throw error;
        healing = message(error);
        context.onThought?.({
          next_goal: 'Ask the model again (self-healing)',
          description: `The cached actions failed (${healing}); asking the model again`,
        });
      }
    }
    const result = await this.measured((meter) => this.agent(session, line, deadline, context, meter));
    await this.options.cache?.put(key, {
      stepText: line,
      pageKey: pageKey(session.url),
      actions: result.value.actions,
      engine: this.engine,
      healed: healing !== null,
    });
    return {
      ...result.value,
      description: healing
        ? `self-healed (cached actions failed: ${healing}): ${result.value.description}`
        : result.value.description,
      via: healing ? 'healed' : 'model',
      usage: result.usage,
    };
  }

  async judge(session: BrowserSession, expected: string, context: InterpretContext): Promise<Judgement> {
    const deadline = Date.now() + context.timeoutMs;
    const page = pageKey(session.url);
    const key = cacheKey('judge', expected, page);
    const cached = await this.options.cache?.get(key);
    let healing: string | null = null;
    if (cached) {
      try {
        await this.replay(session, cached.actions, deadline, context.signal);
        await this.options.cache?.hit(key);
        return {
          passed: true,
          reason: `the cached checks held: ${cached.actions.join('; ')}`,
          via: 'cache',
          usage: { ...ZERO },
        };
      } catch (error) {
        if (error instanceof AbortedError) throw error;
        healing = message(error);
      }
    }
    const result = await this.measured(async (meter) => {
      context.onThought?.({
        next_goal: 'Judge the expected result',
        description: `Asking the model whether: ${expected}`,
      });
      const snapshot = await session.snapshot({ signal: context.signal, timeoutMs: remaining(deadline) });
      const view = pageView(snapshot);
      const images = seesImages(this.options.client.config)
        ? [(await session.screenshot({ quality: 50, signal: context.signal })).data]
        : [];
      return this.options.client.object({
        kind: 'judge',
        system: JUDGE_SYSTEM,
        prompt: `Expected result: ${expected}\n\nEvidence — the page now:\n${view.text}`,
        images,
        schema: JudgementSchema,
        name: 'judgement',
        meter,
        signal: this.callSignal(context.signal, deadline),
      });
    });
    const verdict = result.value;
    if (verdict.passed) {
      // Only checks that parse and hold now are kept: a rerun replays them instead of asking again.
      const holding: string[] = [];
      for (const check of verdict.checks.slice(0, 3)) {
        try {
          const step = parseStep(check);
          if (!step.verb.startsWith('verify')) continue;
          await session.perform(step, {
            signal: context.signal,
            timeoutMs: Math.min(3000, remaining(deadline)),
          });
          holding.push(check);
        } catch (error) {
          if (error instanceof AbortedError) throw error;
        }
      }
      if (holding.length)
        await this.options.cache?.put(key, {
          stepText: expected,
          pageKey: page,
          actions: holding,
          engine: this.engine,
          healed: healing !== null,
        });
    }
    return {
      passed: verdict.passed,
      reason: healing ? `${verdict.reason} (re-judged: cached checks failed: ${healing})` : verdict.reason,
      via: healing ? 'healed' : 'model',
      usage: result.usage,
    };
  }

  /** Performs cached lines in order; the selector of the last one that had one. */
  private async replay(session: BrowserSession, actions: string[], deadline: number, signal?: AbortSignal) {
    let selector: string | null = null;
    for (const action of actions) {
      const used = await session.perform(parseStep(action), {
        signal,
        timeoutMs: Math.min(this.options.actionTimeoutMs ?? 10_000, remaining(deadline)),
      });
      selector = used ?? selector;
    }
    return selector;
  }

  /** Runs `work`, answering what its model calls cost; a fatal failure is remembered for later steps. */
  private async measured<T>(
    work: (meter: UsageMeter) => Promise<T>,
  ): Promise<{ value: T; usage: InterpreterUsage }> {
    if (this.fatal) throw this.fatal;
    const meter = newMeter();
    try {
      const value = await work(meter);
      return { value, usage: asUsage(meter) };
    } catch (error) {
      if (
        error instanceof ModelError &&
        (error.code === 'auth' || error.code === 'budget' || error.code === 'not_found')
      )
        this.fatal = error;
      throw error;
    }
  }

  /** The run's stop, and the step's deadline as a stop the loop tells apart from the user's. */
  private callSignal(signal: AbortSignal | undefined, deadline: number): AbortSignal {
    const timeout = AbortSignal.timeout(remaining(deadline));
    return signal ? AbortSignal.any([signal, timeout]) : timeout;
  }

  private async agent(
    session: BrowserSession,
    line: string,
    deadline: number,
    context: InterpretContext,
    meter: UsageMeter,
  ): Promise<Omit<InterpretedStep, 'via' | 'usage'>> {
    const { client } = this.options;
    const maxTurns = this.options.maxTurns ?? 12;
    const actions: string[] = [];
    const history: string[] = [];
    const tried = new Map<string, number>();
    let selector: string | null = null;
    let unknownElements = 0;
    // The page's text reaches the model, so a page can ask it to open another site with that text in
    // the URL (prompt injection): the agent opens only the site the step began on and what the step names.
    const allowed = allowedOrigins(session.url, line);
    const refused: string[] = [];
    for (let turn = 1; turn <= maxTurns; turn++) {
      if (context.signal?.aborted) throw new AbortedError();
      if (Date.now() >= deadline)
        throw new ModelError('timeout', `The free-form step ran out of time after ${turn - 1} model turns.`);
      const snapshot = await session.snapshot({ signal: context.signal, timeoutMs: remaining(deadline) });
      const view = pageView(snapshot);
      const images = seesImages(client.config)
        ? [(await session.screenshot({ quality: 50, signal: context.signal })).data]
        : [];
      let decision: AgentTurn;
      try {
        decision = await client.object({
          kind: 'step',
          system: AGENT_SYSTEM,
          prompt: `Step to carry out: ${line}\n\nDone so far:\n${history.join('\n') || '(nothing yet)'}\n\nThe page now:\n${view.text}`,
          images,
          schema: AgentTurnSchema,
          name: 'browser_action',
          meter,
          signal: this.callSignal(context.signal, deadline),
        });
      } catch (error) {
        if (error instanceof AbortedError && !context.signal?.aborted)
          throw new ModelError(
            'timeout',
            `The free-form step ran out of time while the model was answering (turn ${turn}).`,
          );
        throw error;
      }
      context.onThought?.({ next_goal: decision.next_goal, description: decision.thought });
      if (decision.tool === 'done') {
        const summary = decision.value?.trim() || `done in ${turn} turns`;
        return {
          actions,
          selector,
          description: refused.length ? `${summary} (${refused.join('; ')})` : summary,
        };
      }
      if (decision.tool === 'give_up')
        throw new Error(
          `The model could not carry out the step: ${decision.value?.trim() || 'no reason given'}`,
        );
      const action = actionLine(decision, view.controls);
      if ('unknown' in action) {
        unknownElements += 1;
        history.push(`${turn}. ${decision.tool} [${decision.element}] → refused: ${action.unknown}`);
        if (unknownElements >= 3)
          throw new ModelError(
            'invalid_output',
            `The model kept naming elements that are not on the page (${action.unknown}); the step was stopped after ${turn} turns.`,
          );
        continue;
      }
      const refusal =
        decision.tool === 'navigate' ? navigationRefusal(decision.value ?? '', session.url, allowed) : null;
      if (refusal) {
        refused.push(refusal);
        history.push(`${turn}. navigate → ${refusal}`);
        context.onThought?.({ next_goal: 'Navigation refused', description: refusal });
        if (refused.length >= 3)
          throw new ModelError(
            'refused',
            `The model kept trying to open sites the step does not name (${refusal}); the step was stopped after ${turn} turns. The page may be telling it to (prompt injection).`,
          );
        continue;
      }
      const times = (tried.get(action.line) ?? 0) + 1;
      tried.set(action.line, times);
      if (times >= 3)
        throw new ModelError(
          'no_progress',
          `The model repeated '${action.line}' three times without finishing the step; it was stopped after ${turn} turns.`,
        );
      try {
        const used = await session.perform(parseStep(action.line), {
          signal: context.signal,
          timeoutMs: Math.min(this.options.actionTimeoutMs ?? 10_000, remaining(deadline)),
        });
        selector = used ?? selector;
        actions.push(action.line);
        history.push(`${turn}. ${action.line} → done`);
      } catch (error) {
        if (error instanceof AbortedError) throw error;
        if (decision.tool === 'assert') throw new Error(`Check failed: ${action.line} — ${message(error)}`);
        history.push(`${turn}. ${action.line} → failed: ${message(error)}`);
      }
    }
    throw new ModelError(
      'no_progress',
      `The model did not finish the step within ${maxTurns} turns (last actions: ${history.slice(-3).join('; ')}).`,
    );
  }
}

/** The step-language line for a model's action, or why it names nothing on the page. */
export function actionLine(
  turn: AgentTurn,
  controls: SnapshotControl[],
): { line: string } | { unknown: string } {
  const value = turn.value ?? '';
  const needsElement = ['click', 'fill', 'select', 'check', 'uncheck', 'hover'].includes(turn.tool);
  const control = turn.element === null ? undefined : controls[turn.element];
  if (turn.element !== null && !control)
    return { unknown: `there is no element [${turn.element}]; the page lists [0]–[${controls.length - 1}]` };
  if (needsElement && !control) return { unknown: `${turn.tool} needs an element number` };
  const line = (() => {
    switch (turn.tool) {
      case 'click':
        return clickLine(controls, control as SnapshotControl);
      case 'hover':
        return hoverLine(controls, control as SnapshotControl);
      case 'fill':
        return fillLine(control as SnapshotControl, value);
      case 'select':
        return selectLine(control as SnapshotControl, value);
      case 'check':
      case 'uncheck':
        return checkLine(controls, control as SnapshotControl, turn.tool === 'check');
      case 'press':
        return control ? `Press ${keyName(value)} in ${q(control.name)}` : `Press ${keyName(value)}`;
      case 'scroll':
        return control
          ? `Scroll to ${q(control.name)}`
          : `Scroll to ${/top/i.test(value) ? 'top' : 'bottom'}`;
      case 'navigate':
        return `Navigate to ${value.trim()}`;
      case 'wait': {
        const seconds = Number.parseFloat(value);
        return Number.isFinite(seconds)
          ? `Wait ${Math.min(10, Math.max(1, Math.round(seconds)))} seconds`
          : `Wait for ${q(value)}`;
      }
      case 'assert':
        return `Verify text ${q(value)} is visible`;
      default:
        return '';
    }
  })();
  try {
    parseStep(line);
    return { line };
  } catch (error) {
    if (error instanceof StepSyntaxError)
      return { unknown: `'${line}' is not an action the browser can take` };
    throw error;
  }
}

/**
 * The origins a free-form step's agent may navigate to: the one the page was on when the step began
 * (the site under test) and every address the step's own text names (a URL, or a bare host such as
 * `shop.example.com` or `localhost:3000`, over http and https).
 */
export function allowedOrigins(startUrl: string, stepText: string): Set<string> {
  const origins = new Set<string>();
  const add = (url: string) => {
    try {
      const parsed = new URL(url);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') origins.add(parsed.origin);
    } catch {
      // not an address
    }
  };
  add(startUrl);
  for (const [url] of stepText.matchAll(/\bhttps?:\/\/[^\s"'<>()[\]{}]+/gi)) add(url);
  const withoutUrls = stepText.replace(/\bhttps?:\/\/[^\s"'<>()[\]{}]+/gi, ' ');
  for (const [host] of withoutUrls.matchAll(
    /\b(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|(?:[a-z0-9-]+\.)+[a-z]{2,24})(?::\d{1,5})?\b/gi,
  )) {
    add(`http://${host}`);
    add(`https://${host}`);
  }
  return origins;
}

/**
 * Why the agent may not open `target` (resolved against the page), or null when it may: its origin
 * must be one of `allowed`. Only the origin is quoted: the rest of the URL may carry page text out.
 */
export function navigationRefusal(target: string, pageUrl: string, allowed: Set<string>): string | null {
  let origin: string;
  try {
    origin = new URL(resolveWebUrl(target.trim(), pageUrl.startsWith('http') ? pageUrl : undefined)).origin;
  } catch {
    // Not an http(s) address: the browser session refuses it itself, with its own message.
    return null;
  }
  if (allowed.has(origin)) return null;
  const site = [...allowed][0];
  return `Refused to open ${origin}: a free-form step may only open ${site ? `the site it runs on (${site})` : 'no site'} or an address the step itself names`;
}

function keyName(value: string): string {
  const key = value.trim().replace(/\s+/g, '');
  return /^[A-Za-z0-9+]+$/.test(key) ? key : 'Enter';
}

function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 300);
}

function asUsage(meter: UsageMeter): InterpreterUsage {
  return {
    model_calls: meter.calls,
    input_tokens: meter.inputTokens,
    output_tokens: meter.outputTokens,
    cost_usd: meter.costUsd,
  };
}
