import type { ChatAction, ChatPlanner } from '@argus/ai';
import { AbortedError, type BrowserSession } from '@argus/engine';
import { type ConversationAction, protectPasswords } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../errors';
import { addressed, type Send } from '../realtime/user-channel';
import { type Emit, errorText, type Live, now } from './live-browsers';
import type { ConversationRecords } from './persistence';
import type { LiveTimers } from './timers';

/** JPEG quality of a `browser_action`'s picture when no video streams. */
const ACTION_SHOT_QUALITY = 50;

/** The chat planner a user's turn runs on (their Settings' model, the server's AI_*, or the built-in one). */
export type ChatResolver = (userId: string, refs: { session_id: string }) => Promise<ChatPlanner>;

export interface ChatTurnDeps {
  config: Pick<Config, 'stepTimeoutMs'>;
  chatFor: ChatResolver;
  records: ConversationRecords;
  /** A turn starting or ending restarts the idle clock. */
  timers: Pick<LiveTimers, 'touch'>;
  log: FastifyBaseLogger;
}

/**
 * Chat turns in a live browser: the user's message stored, the chat planner's actions carried out on
 * the page and told one by one (`browser_action`), then its reply (`conversation_response`), stored
 * with its actions. One turn at a time per live browser.
 */
export class ChatTurns {
  constructor(private readonly deps: ChatTurnDeps) {}

  /**
   * `conversation_message`: one chat turn in the session's live browser. Refused at once when nothing
   * is live for the session or a turn is still under way; otherwise it runs in the background
   * (`done`), sending a `browser_action` per action and then the `conversation_response`.
   */
  begin(live: Live | undefined, message: string, send: Send): { done: Promise<void> } {
    if (!live || live.closing) {
      throw new AppError(
        'BAD_REQUEST',
        'No live browser is open for this conversation: start one (Start Video), then send your message.',
      );
    }
    if (live.turn) {
      throw new AppError(
        'BAD_REQUEST',
        'Still working on your previous message: wait for its answer, then send this one.',
      );
    }
    const turn = new AbortController();
    live.turn = turn;
    this.deps.timers.touch(live);
    const emit = addressed(send, live.sessionId);
    const done = this.run(live, message, turn.signal, emit).finally(() => {
      if (live.turn === turn) live.turn = null;
      // What the turn did it said itself: only later changes are told as navigations.
      if (live.session && !live.session.closed) live.toldUrl = live.session.url;
      this.deps.timers.touch(live);
    });
    return { done };
  }

  private async run(live: Live, message: string, signal: AbortSignal, emit: Emit): Promise<void> {
    // Stored once the turn's actions are known, so a password it typed is masked in the message too
    // (persistence.ts masks every stored message).
    let asked = false;
    const storeAsked = async () => {
      if (asked) return;
      asked = true;
      await this.deps.records.add(live, { role: 'user', content: message });
    };
    try {
      await this.turn(live, message, signal, emit, storeAsked);
    } finally {
      await storeAsked();
    }
  }

  private async turn(
    live: Live,
    message: string,
    signal: AbortSignal,
    emit: Emit,
    storeAsked: () => Promise<void>,
  ): Promise<void> {
    const session = await live.opened;
    if (!session || live.closing || signal.aborted) return;
    let announced = Promise.resolve();
    try {
      const chat = await this.deps.chatFor(live.userId, { session_id: live.sessionId });
      const turn = await chat.turn(session, message, {
        signal,
        actionTimeoutMs: this.deps.config.stepTimeoutMs,
        onAction: (action) => {
          announced = announced.then(() => this.announce(live, session, action, emit));
        },
      });
      await announced;
      const stored = storedActions(live, turn.actions);
      await storeAsked();
      if (live.closing || signal.aborted) return;
      // Stored before it is said: the turn ends with its answer, so a next message sent the moment
      // the answer arrives is not refused as "still working" while the answer is being written.
      await this.deps.records.add(live, { role: 'assistant', content: turn.reply, actions: stored });
      // The user's own screen is told what was done as it was done; only what is stored is masked.
      emit({
        type: 'conversation_response',
        data: {
          message: turn.reply,
          timestamp: now(),
          actions: turn.actions.map(toRecord),
          video_streaming: live.streaming,
        },
      });
    } catch (error) {
      await announced;
      if (live.closing || signal.aborted || error instanceof AbortedError) return;
      this.deps.log.error({ err: error }, 'a chat turn failed');
      await storeAsked();
      this.say(live, emit, `I could not carry that out: ${errorText(error)}`);
    }
  }

  /** A `browser_action`; with a small picture of the page when no video shows it. */
  private async announce(live: Live, session: BrowserSession, action: ChatAction, emit: Emit): Promise<void> {
    let screenshot: string | undefined;
    if (!live.streaming && !session.closed) {
      try {
        const shot = await session.screenshot({ quality: ACTION_SHOT_QUALITY });
        screenshot = `data:image/jpeg;base64,${shot.data.toString('base64')}`;
      } catch {
        // the action is told without its picture
      }
    }
    if (live.closing) return;
    emit({
      type: 'browser_action',
      data: {
        message: action.message,
        action: action.line,
        url: action.url,
        ...(screenshot ? { screenshot } : {}),
        video_streaming: live.streaming,
      },
    });
  }

  /** Says something in the chat (and stores it), outside a turn. */
  say(live: Live, emit: Emit, message: string): void {
    emit({
      type: 'conversation_response',
      data: { message, timestamp: now(), actions: [], video_streaming: live.streaming },
    });
    void this.deps.records.add(live, { role: 'assistant', content: message });
  }
}

/**
 * A turn's actions as they are stored: a value typed into a password field (by its name, or into the
 * focused field after one was clicked, in this turn or an earlier one) becomes {{PASSWORD}} in the
 * step line, as 'Use as login' records it. The values are kept on the live browser, and the store
 * masks them in every message from then on (persistence.ts).
 */
function storedActions(live: Live, actions: readonly ChatAction[]): ConversationAction[] {
  const before = live.passwords.lines.length;
  live.passwords.lines.push(...actions.map((action) => action.line));
  const { lines, typed } = protectPasswords(live.passwords.lines);
  for (const value of typed) live.passwords.typed.add(value);
  return actions.map((action, index) => ({ ...toRecord(action), action: lines[before + index] }));
}

function toRecord(action: ChatAction): ConversationAction {
  return { action: action.line, message: action.message, url: action.url };
}

/** Why the start page is not shown, and what the user can do. */
export function startProblem(url: string, defaulted: boolean, reason: string): string {
  const unreachable = /HTTP 50[234]\b|ERR_|Could not open|timed out|refused|ENOTFOUND|EAI_AGAIN/i.test(
    reason,
  );
  if (defaulted) {
    return (
      `The default start page ${url} ${unreachable ? 'could not be reached' : 'did not load'} (${reason}). ` +
      'This server may have no internet access: give a URL to start from, or tell me where to go ' +
      "('go to https://example.com'). CONVERSATION_START_URL sets the default."
    );
  }
  return (
    `${url} ${unreachable ? 'could not be reached' : 'did not load properly'} (${reason}). ` +
    "Tell me another address to go to ('go to https://example.com'), or stop and start again with another URL."
  );
}
