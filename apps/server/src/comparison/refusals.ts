import { FigmaError, FrameSelectError, figmaSharingInstructions } from '@argus/design-diff';
import { AppError } from '../errors';
import type { ComparisonDeps, Emit } from './comparison-deps';
import { problemText } from './design-uploads';
import { limitError, Refusal } from './request-checks';

export const FIGMA_ACCESS_REQUIRED = 'Figma file access required. Please share your file.';

/**
 * Refusals for a limit, answered as a socket `error` with the code (feature design) so a client can
 * tell a limit from a failure; the design screen shows them as its error as well.
 */
const LIMIT_CODES = new Set<string>([
  'COMPARISON_BUSY',
  'COMPARISON_TOO_LARGE',
  'RATE_LIMITED',
  'STORAGE_QUOTA_EXCEEDED',
]);

/**
 * What the user is told when a request is refused or its work fails: a limit as a socket `error` with
 * its code, a refusal as the design screen's error, Figma's permission refusal as the sharing modal,
 * anything else in words (and logged).
 */
export class Refusals {
  constructor(private readonly deps: Pick<ComparisonDeps, 'config' | 'log'>) {}

  /** A refusal before the work started: `vision_comparison_error`, and for Figma access the modal's message. */
  refuse(error: unknown, emit: Emit, figmaUrl: string | null): void {
    if (this.refuseLimit(error, emit)) return;
    if (error instanceof Refusal || error instanceof AppError) {
      emit({ type: 'vision_comparison_error', data: { error: problemText(error) } });
      return;
    }
    this.fail(error, emit, figmaUrl);
  }

  /** A failure of the work: in words the user can act on; Figma's permission refusal opens the sharing modal. */
  fail(error: unknown, emit: Emit, figmaUrl: string | null): void {
    if (this.refuseLimit(error, emit)) return;
    if (error instanceof FigmaError) {
      if (error.code === 'permission') {
        emit({
          type: 'figma_permission_error',
          data: {
            ...figmaSharingInstructions({ figma_url: figmaUrl, error_context: 'permission' }),
            message: FIGMA_ACCESS_REQUIRED,
            detail: error.message,
            status: error.status ?? null,
          },
        });
        emit({ type: 'vision_comparison_error', data: { error: FIGMA_ACCESS_REQUIRED } });
        return;
      }
      emit({ type: 'vision_comparison_error', data: { error: error.message } });
      return;
    }
    if (error instanceof FrameSelectError || error instanceof Refusal || error instanceof AppError) {
      emit({ type: 'vision_comparison_error', data: { error: problemText(error) } });
      return;
    }
    const text = error instanceof Error ? error.message : String(error);
    this.deps.log.warn({ err: error }, 'design comparison failed');
    emit({ type: 'vision_comparison_error', data: { error: `The comparison failed: ${text}` } });
  }

  /** A limit's refusal as a socket `error` (its code, feature design); false for anything else. */
  private refuseLimit(error: unknown, emit: Emit): boolean {
    const limit = limitError(error, this.deps.config.comparisonMaxPixels);
    if (!(limit instanceof AppError) || !LIMIT_CODES.has(limit.code)) return false;
    emit({ type: 'error', data: { message: problemText(limit), code: limit.code, feature: 'design' } });
    return true;
  }
}
