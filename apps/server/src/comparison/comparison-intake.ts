import type { ClientMessageOf } from '@argus/protocol';
import { addressed, isUserBroadcast, type Send } from '../realtime/user-channel';
import type { Emit, Senders } from './comparison-deps';
import type { Refusals } from './refusals';
import type { CompareData, ComparisonRequest, RequestChecks } from './request-checks';
import type { Uploads } from './uploads';

/**
 * Where a checked comparison goes: run in this process (ComparisonService), or queued for a worker
 * (scale/queued-comparisons.ts). A Refusal it throws is said to the asking socket like a failed check.
 */
export type Launch = (
  userId: string,
  request: ComparisonRequest,
  data: CompareData,
  emit: Emit,
  requestId?: string,
) => Promise<void> | void;

/** The `request_id` a socket handler's broadcast echoes, for a worker to echo too. */
const requestIdOf = (send: Send) => (isUserBroadcast(send) ? send.requestId : undefined);

/**
 * A comparison request as it arrives on a socket, whichever front takes it: checked here (the session,
 * the website, the design), refused to the asking socket only, and launched unless a Stop arrived
 * while it was being checked. Both fronts share the checks, uploads and refusals of this process's
 * ComparisonService, so an upload's one-at-a-time rule holds across them.
 */
export class ComparisonIntake {
  /** Requests still being checked (before they are launched), so a Stop can reach them too. */
  private readonly checking = new Set<{ userId: string; sessionId: string | null; stopped: boolean }>();

  constructor(
    private readonly parts: { checks: RequestChecks; uploads: Uploads; refusals: Refusals },
    private readonly launch: Launch,
  ) {}

  async compare(userId: string, data: CompareData, send: Senders): Promise<void> {
    const sessionId = data.session_id || null;
    const emit = addressed(send.broadcast, sessionId);
    const refuse = addressed(send.reply, sessionId);
    try {
      await this.checkAndLaunch(userId, data, emit, requestIdOf(send.broadcast));
    } catch (error) {
      this.parts.refusals.refuse(error, refuse, data.comparison_type === 'figma' ? data.figma_url : null);
    }
  }

  async uploadAndCompare(
    userId: string,
    data: ClientMessageOf<'upload_and_compare_image'>['data'],
    send: Senders,
  ): Promise<void> {
    const sessionId = data.session_id || null;
    const emit = addressed(send.broadcast, sessionId);
    const refuse = addressed(send.reply, sessionId);
    try {
      const row = await this.parts.uploads.fromDataUrl(userId, data);
      emit(this.parts.uploads.completed(row));
      if (!data.website_url) return;
      await this.checkAndLaunch(
        userId,
        { comparison_type: 'image', file_id: row.id, website_url: data.website_url, session_id: sessionId },
        emit,
        requestIdOf(send.broadcast),
      );
    } catch (error) {
      this.parts.refusals.refuse(error, refuse, null);
    }
  }

  /** A request of the user's (of the session named, or any) still being checked is not launched. */
  stopChecks(userId: string, sessionId: string | null): void {
    for (const pending of this.checking)
      if (pending.userId === userId && (!sessionId || pending.sessionId === sessionId))
        pending.stopped = true;
  }

  private async checkAndLaunch(
    userId: string,
    data: CompareData,
    emit: Emit,
    requestId?: string,
  ): Promise<void> {
    const pending = { userId, sessionId: data.session_id || null, stopped: false };
    this.checking.add(pending);
    try {
      const request = await this.parts.checks.check(userId, data);
      if (pending.stopped) return;
      await this.launch(userId, request, data, emit, requestId);
    } finally {
      this.checking.delete(pending);
    }
  }
}
