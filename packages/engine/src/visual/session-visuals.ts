import type { VisualBox } from '@argus/protocol';
import type { RecordedVisualCheck, VisualCaptureSession, VisualChecks, VisualVerdict } from './visual-checks';

/** What a step asks of the session's visual checks (`StepContext.visual`). */
export interface StepVisual {
  /** Checks the page, or the region named (with its box on the page); the verdict is recorded for the case. */
  check(
    where: { region: string; box: VisualBox } | null,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<VisualVerdict>;
}

/**
 * A session's visual checks (one session: one test case): names each check within the case (`page`,
 * `Pricing`, and `page #2` for the second check of the same name), asks the port, and keeps each
 * verdict until the runner takes it (`take`). A check that failed (the port threw) takes no name, so a
 * step tried again (a signed-in run that renewed its session) keeps the name it would have had.
 */
export class SessionVisuals implements StepVisual {
  private readonly named = new Map<string, number>();
  private recorded: RecordedVisualCheck[] = [];

  constructor(
    private readonly port: VisualChecks,
    private readonly session: VisualCaptureSession,
    private readonly page: { url: () => string; viewport: () => { width: number; height: number } },
  ) {}

  async check(
    where: { region: string; box: VisualBox } | null,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<VisualVerdict> {
    const base = where ? where.region : 'page';
    const seen = this.named.get(base) ?? 0;
    const name = seen === 0 ? base : `${base} #${seen + 1}`;
    const verdict = await this.port.check(
      {
        name,
        region: where?.region ?? null,
        box: where?.box ?? null,
        url: this.page.url(),
        viewport: this.page.viewport(),
        session: this.session,
        timeoutMs: options.timeoutMs,
      },
      options.signal,
    );
    this.named.set(base, seen + 1);
    this.recorded.push({ name, region: where?.region ?? null, ...verdict });
    return verdict;
  }

  /** The checks recorded since the last call, oldest first. */
  take(): RecordedVisualCheck[] {
    const taken = this.recorded;
    this.recorded = [];
    return taken;
  }
}
