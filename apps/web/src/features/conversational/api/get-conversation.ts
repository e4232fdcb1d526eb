import { type Conversation, ConversationSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/conversations/{id}: one conversation with its messages, oldest first. */
export function getConversation(id: string, signal?: AbortSignal): Promise<Conversation> {
  return apiRequest(`/api/conversations/${encodeURIComponent(id)}`, { signal }, ConversationSchema);
}

export function useConversation(id: string | null) {
  return useQuery({
    queryKey: ['conversations', id],
    queryFn: ({ signal }) => getConversation(id as string, signal),
    enabled: id !== null,
  });
}
