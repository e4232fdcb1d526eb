import { AbortedError, type BrowserSession, type PageObservation } from '@argus/engine';
import { formatStep, q, type Step } from '@argus/protocol';
import type { ChatAction, ChatContext } from './chat-planner';

/** The first line of an error's message, as a reply quotes it. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').trim().slice(0, 400) || 'unknown error';
}

/** Whether the turn must end by rejecting: a stop, or a session that is gone. */
export function mustRethrow(error: unknown, session: BrowserSession): boolean {
  return error instanceof AbortedError || session.closed;
}

/** An action the engine refused or could not do: the turn ends with what was done before it. */
export class ActionFailed extends Error {
  constructor(
    readonly line: string,
    readonly reason: string,
  ) {
    super(`${line} failed: ${reason}`);
    this.name = 'ActionFailed';
  }
}

/** What the page did not offer for a plain phrasing ('no link or button like "pricing"'). */
export class NotOnPage extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotOnPage';
  }
}

/** What a performed step did, in a sentence the chat shows. */
export function describeStep(step: Step): string {
  const inRegion = 'region' in step && step.region ? ` in ${q(step.region)}` : '';
  switch (step.verb) {
    case 'navigate':
      return `Opened ${step.url}`;
    case 'back':
      return 'Went back to the previous page';
    case 'reload':
      return 'Reloaded the page';
    case 'click':
      if (step.target === undefined) return `Clicked the ${step.role ?? 'button'}${inRegion}`;
      return step.role
        ? `Clicked the ${q(step.target)} ${step.role}${inRegion}`
        : `Clicked ${q(step.target)}${inRegion}`;
    case 'doubleClick':
      return `Double-clicked ${q(step.target)}${inRegion}`;
    case 'fill':
      return `Typed ${q(step.value)} into ${q(step.field)}`;
    case 'clear':
      return `Cleared ${q(step.field)}`;
    case 'select':
      return `Selected ${q(step.option)} from ${q(step.field)}`;
    case 'check':
      return step.target === undefined
        ? `${step.checked ? 'Checked' : 'Unchecked'} the checkbox in ${q(step.region ?? '')}`
        : `${step.checked ? 'Checked' : 'Unchecked'} ${q(step.target)}${inRegion}`;
    case 'press':
      return step.field ? `Pressed ${step.key} in ${q(step.field)}` : `Pressed ${step.key}`;
    case 'hover':
      return `Moved the mouse over ${q(step.target)}${inRegion}`;
    case 'type':
      return `Typed ${q(step.value)}`;
    case 'fillFocused':
      return `Replaced the focused field's text with ${q(step.value)}`;
    case 'scroll':
      return step.target === 'bottom' || step.target === 'top'
        ? `Scrolled to the ${step.target} of the page`
        : `Scrolled to ${q(step.target)}`;
    case 'wait':
      return step.ms % 1000 === 0
        ? `Waited ${step.ms / 1000} second${step.ms === 1000 ? '' : 's'}`
        : `Waited ${step.ms} ms`;
    case 'waitForText':
      return `Waited for ${q(step.text)} to show`;
    case 'viewport':
      return `Resized the page to ${step.width}×${step.height}`;
    case 'screenshot':
      return 'Took a screenshot';
    default:
      return `Checked: ${formatStep(step)} (it holds)`;
  }
}

/** Performs steps in a live session for one turn, reporting each as it is done. */
export class ActionLog {
  readonly actions: ChatAction[] = [];

  constructor(
    private readonly session: BrowserSession,
    private readonly context: ChatContext,
  ) {}

  get signal(): AbortSignal | undefined {
    return this.context.signal;
  }

  get timeoutMs(): number {
    return this.context.actionTimeoutMs ?? 10_000;
  }

  /** Stops at once when the user did. */
  checkpoint(): void {
    if (this.context.signal?.aborted) throw new AbortedError();
  }

  /** Performs one step; a failure becomes an {@link ActionFailed} naming the line and the engine's reason. */
  async perform(step: Step, message = describeStep(step)): Promise<void> {
    this.checkpoint();
    const line = formatStep(step);
    try {
      await this.session.perform(step, { signal: this.context.signal, timeoutMs: this.timeoutMs });
    } catch (error) {
      if (mustRethrow(error, this.session)) throw error;
      throw new ActionFailed(line, firstLine(error));
    }
    this.record({ line, message, url: this.session.url });
  }

  /** Runs an input that has no step of its own (a wheel turn), reported under `line`. */
  async input(line: string, message: string, work: () => Promise<void>): Promise<void> {
    this.checkpoint();
    try {
      await work();
    } catch (error) {
      if (mustRethrow(error, this.session)) throw error;
      throw new ActionFailed(line, firstLine(error));
    }
    this.record({ line, message, url: this.session.url });
  }

  /** An action done elsewhere (by the agent loop), told now. */
  record(action: ChatAction): void {
    this.actions.push(action);
    try {
      this.context.onAction?.(action);
    } catch {
      // the listener's failure does not undo the action
    }
  }
}

/** The page in a sentence: its title, URL and first heading. */
export function describeWhere(page: { title: string; url: string; heading?: string | null }): string {
  const title = page.title.trim();
  const heading = page.heading?.trim();
  const head = heading && heading !== title ? `, heading ${q(heading)}` : '';
  return `${title ? `${q(title)} ` : ''}(${page.url})${head}`;
}

/** The first heading a person reads: the first h1, else the first heading. */
export function mainHeading(observation: PageObservation): string | null {
  return (
    (observation.headings.find((h) => h.level === 1)?.text ?? observation.headings[0]?.text ?? null)?.slice(
      0,
      120,
    ) ?? null
  );
}

/** What the page shows now, in a line; the URL alone when it cannot be read. */
export async function pageNow(session: BrowserSession, signal?: AbortSignal): Promise<string> {
  try {
    const observation = await session.observe({ signal, timeoutMs: 5_000 });
    return `Now on ${describeWhere({ title: observation.title, url: observation.url, heading: mainHeading(observation) })}.`;
  } catch (error) {
    if (mustRethrow(error, session)) throw error;
    return `Now on ${session.url}.`;
  }
}

/** The reply's account of what was done: one action in a sentence, several as a list. */
export function doneText(actions: ChatAction[]): string {
  if (actions.length === 0) return '';
  if (actions.length === 1) return `${actions[0].message}.`;
  return `Done:\n${actions.map((a) => `- ${a.message}`).join('\n')}`;
}
