import type { BrowserSession } from '@argus/engine';

/** Where a watched run's frames go: `RealtimeHub.sendFrame` for the user and the run's session. */
export type FrameSink = (frame: { frame: string; timestamp: number }) => void;

/** The size the Automation screen draws the video at (the conversational canvas's too). */
const VIDEO = { maxWidth: 854, maxHeight: 480, quality: 60 };

/**
 * Live video of a run (docs/PRODUCT.md#realtime-messages lists `video_frame` among the automation messages; off until the
 * screen asks with `automation_video`): per user, the test in focus, which is the one started last of
 * those still running, is screencast through the same latest-wins path as the conversational stream.
 * When it ends, the focus moves to another running test.
 */
export class AutomationVideo {
  private readonly sinks = new Map<string, FrameSink>();
  private readonly running = new Map<string, BrowserSession[]>();
  private readonly focused = new Map<string, BrowserSession>();

  /** The screen asks for video (or stops asking). */
  watch(userId: string, sink: FrameSink | null): void {
    if (sink) this.sinks.set(userId, sink);
    else this.sinks.delete(userId);
    this.refocus(userId, true);
  }

  watching(userId: string): boolean {
    return this.sinks.has(userId);
  }

  testStarted(userId: string, session: BrowserSession): void {
    const list = this.running.get(userId) ?? [];
    list.push(session);
    this.running.set(userId, list);
    this.refocus(userId);
  }

  testEnded(userId: string, session: BrowserSession | undefined): void {
    if (!session) return;
    const list = (this.running.get(userId) ?? []).filter((s) => s !== session);
    if (list.length) this.running.set(userId, list);
    else this.running.delete(userId);
    if (this.focused.get(userId) === session) this.focused.delete(userId);
    this.refocus(userId);
  }

  private refocus(userId: string, restart = false): void {
    const sink = this.sinks.get(userId);
    const current = this.focused.get(userId);
    const list = (this.running.get(userId) ?? []).filter((s) => !s.closed);
    const next = sink ? list.at(-1) : undefined;
    if (current === next && !restart) return;
    if (current && !current.closed) current.stopScreencast().catch(() => undefined);
    if (!next || !sink) {
      this.focused.delete(userId);
      return;
    }
    this.focused.set(userId, next);
    // A session that closes meanwhile ends its screencast with it; nothing to report.
    next
      .startScreencast(
        (frame) => sink({ frame: frame.data.toString('base64'), timestamp: frame.timestamp }),
        VIDEO,
      )
      .catch(() => undefined);
  }
}
