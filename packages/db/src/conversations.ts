import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import {
  type ConversationActionRow,
  type ConversationMessageRow,
  type ConversationRow,
  conversationMessages,
  conversations,
} from './schema';

export interface NewConversation {
  session_id?: string | null;
  title: string;
  url?: string | null;
}

export interface NewConversationMessage {
  /** user | assistant | system */
  role: string;
  content: string;
  actions?: ConversationActionRow[];
}

/**
 * Conversations with the live browser and their messages. Every call takes the owner's id: another
 * user's conversation does not exist for you (its messages cannot be read nor added to).
 */
export function conversationsRepository(orm: Drizzle) {
  const rows = ownedRows(orm, conversations);
  const owned = rows.mine;
  const get = (userId: string, id: string): Promise<ConversationRow | undefined> => rows.get(userId, id);
  return {
    async create(userId: string, input: NewConversation): Promise<ConversationRow> {
      const [row] = await orm
        .insert(conversations)
        .values({
          id: randomUUID(),
          user_id: userId,
          session_id: input.session_id ?? null,
          title: input.title,
          url: input.url ?? null,
        })
        .returning();
      return row;
    },
    /** The user's conversations, newest first. */
    async list(userId: string, page: { limit: number; offset: number }): Promise<ConversationRow[]> {
      return orm
        .select()
        .from(conversations)
        .where(eq(conversations.user_id, userId))
        .orderBy(desc(conversations.created_at), desc(conversations.id))
        .limit(page.limit)
        .offset(page.offset);
    },
    get,
    /** The user's latest conversation of one session, if any. */
    async forSession(userId: string, sessionId: string): Promise<ConversationRow | undefined> {
      const [row] = await orm
        .select()
        .from(conversations)
        .where(and(eq(conversations.user_id, userId), eq(conversations.session_id, sessionId)))
        .orderBy(desc(conversations.created_at), desc(conversations.id))
        .limit(1);
      return row;
    },
    /** Its messages in the order they were added; undefined when the conversation is not the user's. */
    async messages(userId: string, id: string): Promise<ConversationMessageRow[] | undefined> {
      if (!(await get(userId, id))) return undefined;
      return orm
        .select()
        .from(conversationMessages)
        .where(and(eq(conversationMessages.conversation_id, id), eq(conversationMessages.user_id, userId)))
        .orderBy(asc(conversationMessages.seq));
    },
    /** Adds a message (and touches the conversation); undefined when the conversation is not the user's. */
    async addMessage(
      userId: string,
      id: string,
      input: NewConversationMessage,
    ): Promise<ConversationMessageRow | undefined> {
      if (!(await get(userId, id))) return undefined;
      const [row] = await orm
        .insert(conversationMessages)
        .values({
          id: randomUUID(),
          conversation_id: id,
          user_id: userId,
          role: input.role,
          content: input.content,
          actions: input.actions ?? [],
        })
        .returning();
      await orm.update(conversations).set({ updated_at: new Date() }).where(owned(userId, id));
      return row;
    },
  };
}
export type ConversationsRepository = ReturnType<typeof conversationsRepository>;
