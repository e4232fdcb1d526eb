import type { BrowserSession } from './browser-session';

/** What one interpreted step (or judgement) cost in model calls; all zero when it replayed from cache. */
export interface InterpreterUsage {
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface InterpretContext {
  /** The run's stop. */
  signal?: AbortSignal;
  /** Time the step may take, model calls included. */
  timeoutMs: number;
  /** What the interpreter is doing, as it goes: fills the step's `thoughts.next_goal` and `description`. */
  onThought?: (thought: { next_goal: string; description: string }) => void;
}

export interface InterpretedStep {
  /** The concrete step-language lines it performed ('Click button "Add to cart"'). */
  actions: string[];
  /** The selector of the last element acted on, if any. */
  selector: string | null;
  /** What was done, in a sentence. */
  description: string;
  /** model: resolved by the model now; cache: replayed without a model call; healed: the cache broke and the model resolved it again. */
  via: 'model' | 'cache' | 'healed';
  usage: InterpreterUsage;
}

export interface Judgement {
  passed: boolean;
  /** Why, citing the evidence (page text, URL). */
  reason: string;
  via: 'model' | 'cache' | 'healed';
  usage: InterpreterUsage;
}

/**
 * Carries out what the step language cannot say: a free-form step ('add the cheapest shirt to the
 * cart'), and a test case's expected result judged against the page. The LLM engine implements it
 * (@argus/ai); the runner hands it a line only when the step language does not parse it, so
 * step-language lines never cost a model call.
 */
export interface StepInterpreter {
  /** Shown on every step it carries out. */
  readonly engine: string;
  perform(session: BrowserSession, line: string, context: InterpretContext): Promise<InterpretedStep>;
  judge(session: BrowserSession, expected: string, context: InterpretContext): Promise<Judgement>;
}
