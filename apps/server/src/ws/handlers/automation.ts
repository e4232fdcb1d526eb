import type { Actor } from '../../automation/automation-deps';
import type { AutomationFront } from '../../automation/automation-front';
import type { MessageHandlers } from '../message-handlers';

/** Who asks, on the socket: the user, in the organization the socket acts in (its `auth` message's). */
function socketActor({ user, org }: { user: { id: string }; org: { id: string } }): Actor {
  return { userId: user.id, orgId: org.id };
}

/**
 * Socket handlers of the automation screen. Long work is not awaited (only its start is): the socket
 * keeps reading (a stop must get through while a run goes on), and progress reaches every tab of the user.
 */
export function automationHandlers(automation: AutomationFront): MessageHandlers {
  // A refusal (another user's session or run, a quota) is thrown before anything starts and reaches
  // the sender as an `error`; work going never refuses more: the new work waits its turn
  // (`automation_queued`), then goes on in the background.
  const background = async (starting: Promise<{ done: Promise<void> }>) => {
    const { done } = await starting;
    done.catch(() => undefined);
  };
  return {
    generate_test_cases: (message, ctx) =>
      background(automation.generate(socketActor(ctx), message.data, ctx.broadcast)),
    command_generate_test_cases: (message, ctx) =>
      background(automation.generate(socketActor(ctx), message.data, ctx.broadcast)),
    run_all_tests: (message, ctx) =>
      background(automation.run(socketActor(ctx), message.data, ctx.broadcast)),
    run_single_test: (message, ctx) =>
      background(
        automation.run(
          socketActor(ctx),
          { ...message.data, test_cases: [message.data.test_case] },
          ctx.broadcast,
        ),
      ),
    stop_execution: async (_message, { user, broadcast, sessionId }) => {
      await automation.stop(user.id, broadcast, sessionId);
    },
    // Frames go to every socket of the user, addressed to the automation session the screen follows.
    automation_video: async (message, { user }) => {
      const sessionId = message.data.session_id;
      // Video needs a session to address its frames to; without one there is nothing to watch.
      await automation.watchSession(user.id, message.data.enabled && sessionId ? sessionId : null);
    },
    get_automation_status: async (_message, { user, reply }) => {
      const current = await automation.inProgress(user.id);
      if (current) reply(current);
    },
    cleanup_session: async (message, { user, broadcast, sessionId }) => {
      const active = await automation.activeSession(user.id);
      if (active === undefined) return;
      // A cleanup naming another session (an older tab's) leaves this work alone.
      const named = message.data.session_id;
      if (named && active && named !== active) return;
      await automation.stop(user.id, broadcast, sessionId);
    },
  };
}
