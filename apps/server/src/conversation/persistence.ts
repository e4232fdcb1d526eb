import type { ConversationAction } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Live } from './live-browsers';

/** Where conversations and their messages are kept (the conversations repository). */
export interface ConversationStore {
  forSession(userId: string, sessionId: string): Promise<{ id: string } | undefined>;
  create(
    userId: string,
    input: { session_id: string; title: string; url: string | null },
  ): Promise<{ id: string }>;
  addMessage(
    userId: string,
    conversationId: string,
    input: { role: string; content: string; actions?: ConversationAction[] },
  ): Promise<unknown>;
}

export type StoredMessage = { role: string; content: string; actions?: ConversationAction[] };

/**
 * A live browser's chat kept in its conversation. Storing never fails what the user sees: a
 * conversation or a message that cannot be stored is logged, and the live browser goes on.
 */
export class ConversationRecords {
  constructor(private readonly deps: { store: ConversationStore; log: FastifyBaseLogger }) {}

  /** The conversation a live browser's turns are stored in: the session's latest, else a new one. */
  async conversationFor(userId: string, sessionId: string, url: string): Promise<string | null> {
    try {
      const found = await this.deps.store.forSession(userId, sessionId);
      if (found) return found.id;
      const created = await this.deps.store.create(userId, {
        session_id: sessionId,
        title: `Chat on ${hostOf(url)}`,
        url,
      });
      return created.id;
    } catch (error) {
      this.deps.log.error({ err: error }, 'could not store the conversation');
      return null;
    }
  }

  /** Stores a message, with every password typed in the conversation so far masked (`masked`). */
  async add(live: Live, message: StoredMessage): Promise<void> {
    try {
      const id = await live.conversation;
      if (!id) return;
      await this.deps.store.addMessage(live.userId, id, {
        ...message,
        content: masked(live, message.content),
        ...(message.actions && {
          actions: message.actions.map((action) =>
            action.message === undefined ? action : { ...action, message: masked(live, action.message) },
          ),
        }),
      });
    } catch (error) {
      // A message that cannot be stored must not fail the turn that said it.
      this.deps.log.error({ err: error }, 'could not store a conversation message');
    }
  }
}

/** What a stored conversation shows instead of a password typed in it. */
export const MASKED_PASSWORD = '••••••••';

/**
 * `text` with every password typed in the live browser's conversation so far (chat-turns.ts
 * `storedActions`) masked; values shorter than 3 characters are left, as masking them would garble the
 * text without hiding anything a guess would not find.
 */
function masked(live: Live, text: string): string {
  let result = text;
  for (const value of live.passwords.typed) {
    if (value.length >= 3) result = result.split(value).join(MASKED_PASSWORD);
  }
  return result;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
