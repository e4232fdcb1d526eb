import { type ComparisonResults, featureOf, type ServerMessage } from '@argus/protocol';
import { COMPARISON_TEXTS } from './texts';

/** docs/PRODUCT.md#comparison-progress: idle, running (progress with percentage), completed, failed, stopped. */
export type ComparisonStatus = 'idle' | 'running' | 'completed' | 'failed' | 'stopped';

export interface ComparisonState {
  status: ComparisonStatus;
  /** The progress card's message. */
  message: string;
  /** 0-100. */
  progress: number;
  results: ComparisonResults | null;
  /** The server's error text of a failed comparison. */
  error: string | null;
  /** True when it failed for want of access to the Figma file (the modal explains). */
  permissionError: boolean;
}

export const INITIAL_STATE: ComparisonState = {
  status: 'idle',
  message: '',
  progress: 0,
  results: null,
  error: null,
  permissionError: false,
};

export type ComparisonEvent =
  | { type: 'start' }
  | { type: 'progress'; message: string; percentage: number }
  | { type: 'completed'; results: ComparisonResults }
  | { type: 'failed'; error: string }
  | { type: 'permission_error' }
  | { type: 'stopped' }
  /** New Comparison: back to the form, nothing shown. */
  | { type: 'reset' }
  /** A past comparison reopened (`?session=`). */
  | { type: 'restored'; results: ComparisonResults };

/** A comparison's results shown: one just completed, or a past one reopened. */
function completedState(results: ComparisonResults): ComparisonState {
  return {
    ...INITIAL_STATE,
    status: 'completed',
    message: COMPARISON_TEXTS.completed,
    progress: 100,
    results,
  };
}

/** A failed comparison: the server's error, or the Figma file it may not read (the modal explains). */
function failedState(error: string, permissionError: boolean): ComparisonState {
  return { ...INITIAL_STATE, status: 'failed', message: COMPARISON_TEXTS.failed, error, permissionError };
}

const clampPercent = (value: number) => Math.max(0, Math.min(100, Math.round(value)));

/** The comparison's transitions (docs/PRODUCT.md#comparison-progress). Events that do not apply to the current state change nothing. */
export function comparisonReducer(state: ComparisonState, event: ComparisonEvent): ComparisonState {
  switch (event.type) {
    case 'start':
      // docs/PRODUCT.md#comparison-progress: starting clears previous results.
      return { ...INITIAL_STATE, status: 'running', message: 'Starting comparison...', progress: 0 };
    case 'progress':
      if (state.status !== 'running') return state;
      // Progress never runs backwards: a late message of an earlier stage would make the bar jump.
      return {
        ...state,
        message: event.message,
        progress: Math.max(state.progress, clampPercent(event.percentage)),
      };
    case 'completed':
      if (state.status !== 'running') return state;
      return completedState(event.results);
    case 'failed':
      if (state.status !== 'running') return state;
      return failedState(event.error, false);
    case 'permission_error':
      if (state.status !== 'running') return state;
      return failedState(COMPARISON_TEXTS.figmaAccess, true);
    case 'stopped':
      if (state.status !== 'running') return state;
      return { ...state, status: 'stopped', message: COMPARISON_TEXTS.stopped };
    case 'reset':
      if (state.status === 'running') return state;
      return INITIAL_STATE;
    case 'restored':
      if (state.status === 'running') return state;
      return completedState(event.results);
  }
}

/**
 * Whether a server message is this screen's: a design message about its session. A message naming no
 * session is taken too (`figma_sharing_instructions` answering a help request sent before any session
 * existed); one naming another session (another tab's comparison) is not.
 */
export function concernsComparison(message: ServerMessage, sessionId: string | null): boolean {
  if (message.type === 'connection_established') return false;
  if (featureOf(message) !== 'design') return false;
  const about = message.session_id ?? null;
  return about === null || about === sessionId;
}

/** The event a server message makes, or null (for the messages the hook handles itself, like the modal's). */
export function eventOf(message: ServerMessage): ComparisonEvent | null {
  switch (message.type) {
    case 'vision_comparison_progress':
      return {
        type: 'progress',
        message: message.data.message,
        percentage: message.data.progress_percentage,
      };
    case 'vision_comparison_completed':
      return { type: 'completed', results: message.data.results };
    case 'vision_comparison_error':
      return { type: 'failed', error: message.data.error.trim() || COMPARISON_TEXTS.failed };
    case 'figma_permission_error':
      return { type: 'permission_error' };
    case 'error':
      return { type: 'failed', error: message.data.message.trim() || COMPARISON_TEXTS.failed };
    default:
      return null;
  }
}

export function isRunning(state: ComparisonState): boolean {
  return state.status === 'running';
}
