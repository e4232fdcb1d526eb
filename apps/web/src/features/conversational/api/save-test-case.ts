import {
  type SaveConversationTestResponse,
  SaveConversationTestResponseSchema,
  type SaveConversationTestSchema,
} from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type SaveTestInput = z.input<typeof SaveConversationTestSchema>;

/**
 * POST /api/conversations/{id}/test-case ("Save as test"): the conversation's actions become a test
 * case of an automation session (a new one when none is named).
 */
export function saveConversationTest(id: string, body: SaveTestInput): Promise<SaveConversationTestResponse> {
  return apiRequest(
    `/api/conversations/${encodeURIComponent(id)}/test-case`,
    { method: 'POST', body },
    SaveConversationTestResponseSchema,
  );
}

export function useSaveConversationTest() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SaveTestInput }) => saveConversationTest(id, body),
  });
}
