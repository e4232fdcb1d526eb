import { type Conversation, type ConversationCreate, ConversationSchema } from '@argus/protocol';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/conversations with {session_id, title, url}: the record a session's chat is kept in. */
export function createConversation(body: ConversationCreate): Promise<Conversation> {
  return apiRequest('/api/conversations', { method: 'POST', body }, ConversationSchema);
}
