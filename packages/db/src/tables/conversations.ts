import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamps } from './columns';
import { ownerId } from './users';

// 0005_conversations.

export const conversations = pgTable(
  'conversations',
  {
    id: id(),
    user_id: ownerId(),
    session_id: text('session_id'),
    title: text('title').notNull(),
    url: text('url'),
    ...timestamps(),
  },
  (t) => [
    index('conversations_user_created_idx').on(
      t.user_id,
      t.created_at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('conversations_user_session_idx').on(t.user_id, t.session_id),
  ],
);

/** One action a chat turn performed, kept with the assistant's message (ConversationActionSchema). */
export interface ConversationActionRow {
  action: string;
  message?: string;
  url?: string;
}

export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: id(),
    seq: integer('seq').generatedAlwaysAsIdentity(),
    conversation_id: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    user_id: ownerId(),
    role: text('role').notNull(),
    content: text('content').notNull(),
    actions: jsonb('actions').$type<ConversationActionRow[]>().notNull().default([]),
    created_at: createdAt(),
  },
  (t) => [
    index('conversation_messages_conversation_idx').on(t.conversation_id, t.seq),
    index('conversation_messages_user_idx').on(t.user_id),
  ],
);

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationMessageRow = typeof conversationMessages.$inferSelect;
