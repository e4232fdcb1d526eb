import { type Conversation, ConversationSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const CONVERSATIONS_QUERY_KEY = ['conversations'] as const;

const ConversationListSchema = z.array(ConversationSchema);

/** GET /api/conversations: the user's conversations, newest first. */
export function listConversations(signal?: AbortSignal): Promise<Conversation[]> {
  return apiRequest('/api/conversations', { signal }, ConversationListSchema);
}

export function useConversations(enabled = true) {
  return useQuery({
    queryKey: CONVERSATIONS_QUERY_KEY,
    queryFn: ({ signal }) => listConversations(signal),
    enabled,
  });
}
