import type { BrowserSession, OperationOptions } from '@argus/engine';
import { formatStep, type Step } from '@argus/protocol';
import type { LlmEngine } from '../llm/llm-engine';
import { LlmInterpreter } from '../llm/llm-interpreter';
import type { ModelClient } from '../llm/model-client';
import { seesImages } from '../llm/model-config';
import { ModelError } from '../llm/model-errors';
import { pageView } from '../llm/page-view';
import { BuiltinChatPlanner } from './builtin-chat';
import {
  ActionFailed,
  ActionLog,
  describeStep,
  doneText,
  firstLine,
  mustRethrow,
  pageNow,
} from './chat-common';
import type { ChatContext, ChatPlanner, ChatTurn } from './chat-planner';
import { isQuestion, splitClauses, stepLanguage } from './phrases';

/** The system prompt of a question about the page (`kind: 'conversation'`). */
export const CHAT_SYSTEM = `You answer questions about the web page a user is looking at in a live browser.
Answer only from the page given (URL, title, numbered interactive elements, visible text, and a screenshot when present),
in at most four short sentences of plain text, quoting the page's own words for names and headings.
If the page does not show the answer, say so plainly. Never invent elements or text.`;

export interface LlmChatPlannerOptions {
  /** Model turns one request may take in the agent loop. @default 12 */
  maxTurns?: number;
  /** Time one request may take in the agent loop, model calls included. @default 120000 */
  requestTimeoutMs?: number;
}

/**
 * The LLM engine's chat planner. A question about the page is one model call with the page's indexed
 * view (and a screenshot for models that see); step-language lines are performed directly, with no
 * call; anything else is carried out by the agent loop ({@link LlmInterpreter}, without a cache), each
 * action it performs reported as it is done. A model failure is a reply saying so; only a stop
 * (AbortedError) or a closed session rejects.
 */
export class LlmChatPlanner implements ChatPlanner {
  readonly engine: string;
  private readonly client: ModelClient;
  private readonly interpreter: LlmInterpreter;
  private readonly options: LlmChatPlannerOptions;

  constructor(source: ModelClient | LlmEngine, options: LlmChatPlannerOptions = {}) {
    this.client = 'client' in source ? source.client : source;
    this.engine = this.client.engine;
    this.options = options;
    // No cache: a conversation's requests are one-off, and its pages are whatever the user opened.
    this.interpreter = new LlmInterpreter({ client: this.client, maxTurns: options.maxTurns });
  }

  async turn(session: BrowserSession, message: string, context: ChatContext = {}): Promise<ChatTurn> {
    const log = new ActionLog(session, context);
    log.checkpoint();
    const text = message.trim();
    const done = (reply: string): ChatTurn => ({ reply, actions: log.actions, engine: this.engine });
    if (text === '') return done('Tell me what to do in the browser, or ask about the page.');

    const steps = stepLines(text);
    if (steps) return done(await this.performSteps(session, steps, log));
    try {
      if (isQuestion(text)) return done(await this.answer(session, text, log));
      return done(await this.agent(session, text, log));
    } catch (error) {
      if (mustRethrow(error, session)) throw error;
      const reason =
        error instanceof ModelError
          ? `The model could not answer: ${firstLine(error)}`
          : `I could not carry that out: ${firstLine(error)}`;
      const parts = [doneText(log.actions), reason];
      if (log.actions.length) parts.push(await pageNow(session, context.signal));
      return done(parts.filter(Boolean).join('\n'));
    }
  }

  private async performSteps(session: BrowserSession, steps: Step[], log: ActionLog): Promise<string> {
    let failure = '';
    for (const step of steps) {
      try {
        await log.perform(step);
      } catch (error) {
        if (mustRethrow(error, session)) throw error;
        failure =
          error instanceof ActionFailed
            ? `${log.actions.length ? 'Then this' : 'This'} failed: ${error.line} — ${error.reason}`
            : `${formatStep(step)} failed: ${firstLine(error)}`;
        break;
      }
    }
    return [doneText(log.actions), failure, await pageNow(session, log.signal)].filter(Boolean).join('\n');
  }

  private async answer(session: BrowserSession, question: string, log: ActionLog): Promise<string> {
    const options: OperationOptions = { signal: log.signal };
    const snapshot = await session.snapshot(options);
    const images = seesImages(this.client.config)
      ? [(await session.screenshot({ quality: 50, signal: log.signal })).data]
      : [];
    const reply = await this.client.text({
      kind: 'conversation',
      system: CHAT_SYSTEM,
      prompt: `Question: ${question}\n\nThe page now:\n${pageView(snapshot).text}`,
      images,
      signal: log.signal,
    });
    return reply.trim() || 'The model gave no answer.';
  }

  private async agent(session: BrowserSession, request: string, log: ActionLog): Promise<string> {
    // Each action the loop performs goes through this view of the session, and is told as it is done.
    const watched = new Proxy(session, {
      get(target, property) {
        if (property === 'perform')
          return async (step: Step, options?: OperationOptions) => {
            const used = await target.perform(step, options);
            log.record({ line: formatStep(step), message: describeStep(step), url: target.url });
            return used;
          };
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const result = await this.interpreter.perform(watched, request, {
      signal: log.signal,
      timeoutMs: this.options.requestTimeoutMs ?? 120_000,
    });
    const summary = result.description.trim();
    const did = log.actions.length ? doneText(log.actions) : 'Nothing needed doing in the browser.';
    return [did, summary ? `The model says: ${summary}` : '', await pageNow(session, log.signal)]
      .filter(Boolean)
      .join('\n');
  }
}

/** The message as step-language lines, when every clause of it is one. */
function stepLines(text: string): Step[] | null {
  const whole = text.includes('\n') ? null : stepLanguage(text);
  if (whole) return [whole];
  const clauses = splitClauses(text);
  const steps = clauses.map(stepLanguage);
  return steps.length > 0 && steps.every((s): s is Step => s !== null) ? steps : null;
}

/** The chat planner for a user: the LLM engine's when one is configured, else the built-in one. */
export function createChatPlanner(engine?: LlmEngine | ModelClient | null): ChatPlanner {
  return engine ? new LlmChatPlanner(engine) : new BuiltinChatPlanner();
}
