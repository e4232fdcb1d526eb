import type { SessionListQuery } from '@argus/protocol';

/** TanStack Query keys for the raw session endpoints. */
export const sessionKeys = {
  all: ['sessions'] as const,
  list: (query?: SessionListQuery) => ['sessions', 'list', query ?? {}] as const,
  detail: (id: string) => ['sessions', 'detail', id] as const,
};
