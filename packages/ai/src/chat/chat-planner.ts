import type { BrowserSession } from '@argus/engine';

/** One thing a chat turn did in the live browser: a `browser_action` message. */
export interface ChatAction {
  /** The step-language line performed (`Click link "Pricing"`), so a conversation can be saved as a test. */
  line: string;
  /** What was done, in a sentence the chat shows ('Clicked the "Pricing" link'). */
  message: string;
  /** Where the page is after it. */
  url: string;
}

/** What a chat turn came to: the assistant's answer and the actions it performed, in order. */
export interface ChatTurn {
  /** What was done and what the page now shows, or the answer to a question, or an honest 'cannot'. */
  reply: string;
  actions: ChatAction[];
  /** Which engine answered ('built-in (rule-based)', 'LLM (openai · gpt-4o-mini)'). */
  engine: string;
}

export interface ChatContext {
  /** Stop: the turn ends at once (AbortedError from @argus/engine). */
  signal?: AbortSignal;
  /** Each action as it is performed, so the screen shows it before the turn ends. */
  onAction?: (action: ChatAction) => void;
  /** Time one action may take. @default 10000 */
  actionTimeoutMs?: number;
}

/**
 * Turns a chat message into actions in a live browser session (conversational mode): the built-in
 * planner understands the step language and plain phrasings ('go to the pricing page', 'search for
 * shoes', 'click Sign in', 'scroll down', 'fill the email with qa@example.com', 'what is on this
 * page?'); the LLM one anything, through the agent loop. Never throws for a request it cannot carry
 * out: the reply says so and what it can do. Rejects only on a stop (AbortedError) or a closed session.
 */
export interface ChatPlanner {
  readonly engine: string;
  turn(session: BrowserSession, message: string, context?: ChatContext): Promise<ChatTurn>;
}
