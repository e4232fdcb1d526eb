import type { ClientMessageOf } from '@argus/protocol';
import type { Send } from '../realtime/user-channel';
import type { Senders } from './comparison-deps';
import type { CompareData } from './request-checks';

/**
 * Design comparison as the socket handlers call it: this process's own ComparisonService, or with
 * REDIS_URL in a web process, comparisons queued for workers (scale/queued-comparisons.ts). Either way
 * a request is checked where it arrives (comparison-intake.ts); only where the checked work runs differs.
 */
export interface ComparisonFront {
  /** `figma_website_comparison`: checks, then compares in the background (here or on a worker). */
  compare(userId: string, data: CompareData, send: Senders): Promise<void>;
  /** `upload_and_compare_image`: stores the image as an upload, then compares it if a website is given. */
  uploadAndCompare(
    userId: string,
    data: ClientMessageOf<'upload_and_compare_image'>['data'],
    send: Senders,
  ): Promise<void>;
  /** `stop_comparison`: stops the user's comparison (of the session named, or any) and says so. */
  stop(userId: string, sessionId: string | null, send: Send): Promise<void>;
  /** `get_figma_help`: how to share a file with the server's Figma account. */
  help(data: ClientMessageOf<'get_figma_help'>['data'], send: Send): void;
}
