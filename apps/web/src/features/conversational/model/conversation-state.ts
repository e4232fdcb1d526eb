import { type ConversationMessageRecord, featureOf, type ServerMessage } from '@argus/protocol';
import { CONVERSATIONAL_TEXTS } from './texts';

/** The live browser's status (docs/PRODUCT.md#live-video). */
export type BrowserStatus = 'idle' | 'loading' | 'ready' | 'stopping' | 'stopped' | 'error';

/** A chat message (docs/PRODUCT.md#chat). */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant' | 'system';
  type: 'text' | 'image' | 'action';
  content: string;
  action?: string;
  url?: string;
  timestamp: string;
  status: 'delivered' | 'pending';
  metadata?: {
    type: 'text' | 'action' | 'image' | 'error';
    action?: string;
    url?: string;
    actions?: unknown[];
    video_streaming?: boolean;
    reason?: string;
    timestamp?: string;
  };
}

export interface ConversationalState {
  /** The conversational session the screen follows: only its messages are this screen's. */
  sessionId: string | null;
  /** docs/PRODUCT.md#starting-a-conversation: inactive → active on start; a stop (or the server's) makes it inactive again. */
  active: boolean;
  browserStatus: BrowserStatus;
  /** What the server says of a browser still loading (its place in line for a browser), else null. */
  browserNotice: string | null;
  /** The page the live browser shows (read-only bar); cleared by a stop. */
  currentUrl: string;
  messages: ChatMessage[];
  /** The assistant is answering ('AI is thinking...'); the input is disabled meanwhile. */
  typing: boolean;
  /** A stop was sent and awaits its confirmation. */
  stopping: boolean;
  /** Browser actions performed in this conversation (what 'Save as test' turns into steps). */
  actionCount: number;
}

export const initialConversationalState: ConversationalState = {
  sessionId: null,
  active: false,
  browserStatus: 'idle',
  browserNotice: null,
  currentUrl: '',
  messages: [],
  typing: false,
  stopping: false,
  actionCount: 0,
};

export type ConversationalAction =
  | { type: 'start_requested'; sessionId: string; url: string; at: string }
  /** The start never left (session or send failure). */
  | { type: 'start_failed' }
  | { type: 'user_message'; id: string; content: string; at: string }
  /** The message could not be sent: it stays, marked pending, and the assistant is not waited for. */
  | { type: 'send_failed'; id: string }
  | { type: 'stop_requested' }
  /** The stop could not be sent. */
  | { type: 'stop_failed' }
  /** No confirmation came: the stop is taken as done. */
  | { type: 'stop_timeout' }
  | { type: 'server'; message: ServerMessage; id: string }
  | { type: 'socket_closed' }
  | { type: 'clear_chat' };

/**
 * Whether a server message is this screen's: conversational messages about the session it follows,
 * and conversational errors naming no session (a refusal of a request that named none).
 */
export function concernsConversation(state: ConversationalState, message: ServerMessage): boolean {
  if (featureOf(message) !== 'conversational') return false;
  if (message.session_id === null) return message.type === 'error' && state.sessionId !== null;
  return message.session_id === state.sessionId;
}

function stoppedState(state: ConversationalState, status: BrowserStatus): ConversationalState {
  return { ...state, active: false, stopping: false, typing: false, browserStatus: status, currentUrl: '' };
}

function timestampOf(value: unknown, fallback: string): string {
  return typeof value === 'string' && value ? value : fallback;
}

function reduceServer(state: ConversationalState, message: ServerMessage, id: string): ConversationalState {
  const now = new Date().toISOString();
  switch (message.type) {
    case 'video_frame':
      // docs/PRODUCT.md#live-video: a received frame sets ready (not once a stop is under way or done).
      if (!state.active || state.stopping || state.browserStatus === 'ready') return state;
      return { ...state, browserStatus: 'ready' };
    case 'browser_status': {
      const status = message.data.status;
      if (status === 'stopped') return stoppedState(state, 'stopped');
      const browserNotice = status === 'loading' ? (message.data.message ?? null) : null;
      if (status === state.browserStatus && browserNotice === state.browserNotice) return state;
      if (!state.active && status !== 'error') return state;
      return { ...state, browserStatus: status, browserNotice };
    }
    case 'browser_action': {
      const { action, url } = message.data;
      const content = message.data.message?.trim() || action;
      const item: ChatMessage = {
        id,
        role: 'assistant',
        type: 'action',
        content,
        action,
        ...(url ? { url } : {}),
        timestamp: now,
        status: 'delivered',
        metadata: { type: 'action', action, ...(url ? { url } : {}), timestamp: now },
      };
      return {
        ...state,
        messages: [...state.messages, item],
        currentUrl: url && state.active ? url : state.currentUrl,
        actionCount: state.actionCount + 1,
      };
    }
    case 'conversation_response': {
      const at = timestampOf(message.data.timestamp, now);
      const item: ChatMessage = {
        id,
        role: 'assistant',
        type: 'text',
        content: message.data.message,
        timestamp: at,
        status: 'delivered',
        metadata: {
          type: 'text',
          actions: message.data.actions ?? [],
          ...(message.data.video_streaming !== undefined
            ? { video_streaming: message.data.video_streaming }
            : {}),
          timestamp: at,
        },
      };
      return { ...state, messages: [...state.messages, item], typing: false };
    }
    case 'conversation_stopped': {
      const at = timestampOf(message.data.timestamp, now);
      const item: ChatMessage = {
        id,
        role: 'system',
        type: 'text',
        content: message.data.message,
        timestamp: at,
        status: 'delivered',
        metadata: { type: 'text', timestamp: at },
      };
      return { ...stoppedState(state, 'stopped'), messages: [...state.messages, item] };
    }
    case 'error': {
      const text = message.data.message?.trim() || CONVERSATIONAL_TEXTS.unknownError;
      const item: ChatMessage = {
        id,
        role: 'system',
        type: 'text',
        content: text,
        timestamp: now,
        status: 'delivered',
        metadata: { type: 'error', timestamp: now },
      };
      const next = { ...state, messages: [...state.messages, item], typing: false };
      // docs/PRODUCT.md#conversational-texts: an error about stopping ends the session, with status error; so does one refusing
      // the start (before the browser was ready), or the screen would wait for a browser forever.
      if (/stop/i.test(text) || state.browserStatus === 'loading') {
        return { ...stoppedState(next, 'error'), messages: next.messages };
      }
      return next;
    }
    default:
      return state;
  }
}

export function conversationalReducer(
  state: ConversationalState,
  action: ConversationalAction,
): ConversationalState {
  switch (action.type) {
    case 'start_requested':
      return {
        ...state,
        sessionId: action.sessionId,
        active: true,
        browserStatus: 'loading',
        browserNotice: null,
        currentUrl: action.url,
        stopping: false,
        typing: false,
        actionCount: 0,
      };
    case 'start_failed':
      return { ...state, active: false, browserStatus: 'idle', currentUrl: '', typing: false };
    case 'user_message':
      return {
        ...state,
        typing: true,
        messages: [
          ...state.messages,
          {
            id: action.id,
            role: 'user',
            type: 'text',
            content: action.content,
            timestamp: action.at,
            status: 'delivered',
            metadata: { type: 'text', timestamp: action.at },
          },
        ],
      };
    case 'send_failed':
      return {
        ...state,
        typing: false,
        messages: state.messages.map((m) => (m.id === action.id ? { ...m, status: 'pending' } : m)),
      };
    case 'stop_requested':
      // docs/PRODUCT.md#stopping-a-conversation: stopping clears the frames and the URL and awaits the confirmation.
      return { ...state, stopping: true, typing: false, browserStatus: 'stopping', currentUrl: '' };
    case 'stop_failed':
      return { ...state, stopping: false, browserStatus: state.active ? 'ready' : state.browserStatus };
    case 'stop_timeout':
      return state.stopping ? stoppedState(state, 'stopped') : state;
    case 'server':
      return reduceServer(state, action.message, action.id);
    case 'socket_closed':
      return state.typing ? { ...state, typing: false } : state;
    case 'clear_chat':
      return { ...state, messages: [] };
  }
}

/** A stored conversation's messages (GET /api/conversations/{id}) as chat messages, to read again. */
export function messagesFromRecords(records: readonly ConversationMessageRecord[]): ChatMessage[] {
  return records.map((record) => ({
    id: record.id,
    role: record.role,
    type: 'text',
    content: record.content,
    timestamp: record.created_at,
    status: 'delivered',
    metadata: {
      type: 'text',
      actions: record.actions,
      timestamp: record.created_at,
    },
  }));
}

/** A tiny store, so message handlers always read the state the last message left. */
export interface ConversationalStore {
  getState: () => ConversationalState;
  dispatch: (action: ConversationalAction) => ConversationalState;
  subscribe: (listener: () => void) => () => void;
}

export function createConversationalStore(
  initial: ConversationalState = initialConversationalState,
): ConversationalStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch: (action) => {
      const next = conversationalReducer(state, action);
      if (next !== state) {
        state = next;
        for (const listener of listeners) listener();
      }
      return state;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
