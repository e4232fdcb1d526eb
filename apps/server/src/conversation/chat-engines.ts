import { type ChatPlanner, createChatPlanner, ModelClient } from '@argus/ai';
import type { EngineResolverDeps } from '../automation/engines';
import type { ChatResolver } from './chat-turns';

/**
 * Which chat planner a user's turn runs on, chosen at each turn as automation chooses its engine:
 * their Settings' model, else the server's AI_*, else the built-in one. Every model call is checked
 * against the user's monthly budget first and stored with its cost after, linked to the session.
 * A model that cannot be used (no model named, a base URL now refused) leaves the turn to the
 * built-in planner, which says what it understands.
 */
export function chatResolver(deps: Omit<EngineResolverDeps, 'stepCache'>): ChatResolver {
  const builtin = createChatPlanner();
  return async (userId, refs): Promise<ChatPlanner> => {
    let model: Awaited<ReturnType<typeof deps.effectiveModel>>;
    try {
      model = await deps.effectiveModel(userId);
    } catch (error) {
      deps.log.warn(
        { err: error, userId },
        'the user’s model cannot be used; chatting with the built-in planner',
      );
      return builtin;
    }
    if (!model) return builtin;
    const client = new ModelClient({
      config: model.config,
      beforeCall: () => deps.checkBudget(userId),
      onUsage: async (record) => {
        try {
          await deps.recordUsage(userId, record, { session_id: refs.session_id });
        } catch (error) {
          deps.log.error({ err: error, userId }, 'could not record model usage');
        }
      },
    });
    return createChatPlanner(client);
  };
}
