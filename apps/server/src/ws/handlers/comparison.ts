import type { ComparisonFront } from '../../comparison/comparison-front';
import type { MessageHandlers } from '../message-handlers';

/**
 * Socket handlers of the design screen. A comparison's checks are awaited (a refusal is answered at
 * once as `vision_comparison_error`, to the asking socket only); the comparison itself runs in the
 * background, so a stop gets through at once, and what it says reaches every socket of the user,
 * addressed to the session.
 */
export function comparisonHandlers(comparisons: ComparisonFront): MessageHandlers {
  return {
    figma_website_comparison: (message, { user, reply, broadcast }) =>
      comparisons.compare(user.id, message.data, { reply, broadcast }),
    upload_and_compare_image: (message, { user, reply, broadcast }) =>
      comparisons.uploadAndCompare(user.id, message.data, { reply, broadcast }),
    stop_comparison: (message, { user, broadcast }) =>
      comparisons.stop(user.id, (message.data.session_id as string | null | undefined) || null, broadcast),
    get_figma_help: (message, { reply }) => comparisons.help(message.data, reply),
  };
}
