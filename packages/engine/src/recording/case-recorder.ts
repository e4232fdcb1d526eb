import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CaseDiagnostics, CaseFailure, RecordingSettings, Step } from '@argus/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import type { SessionOpener } from '../browser-pool';
import type { BrowserSession } from '../browser-session';
import { cleanError } from '../errors';
import { classifyFailure, worthRecheck } from '../failure/classify';
import { targetAppeared } from '../failure/recheck';
import { stepTarget } from '../failure/step-target';
import type { QueueOptions } from '../queue';
import type { SessionCloseReason, SessionOptions } from '../session/options';
import type { StepVariables } from '../variables';
import { DiagnosticsCollector } from './diagnostics';
import { maskScript } from './mask-script';
import { collectSecrets, secretHider, secretSpellings } from './secrets';
import { redactTrace } from './trace-redaction';

export interface CaseRecorderOptions {
  /** Absent: no trace and no video (console and network are collected all the same). */
  recording?: RecordingSettings;
  variables?: StepVariables;
  extraSecrets?: () => Record<string, string>;
  viewport: { width: number; height: number };
  /** The case's step lines (0-based, as in `steps`), to name steps in the failure's evidence. */
  lines: string[];
  /** Told what could not be recorded (a video without ffmpeg), for the case's log. */
  warn?: (message: string) => void;
}

/** What one attempt leaves: as `TestOutcome.recorded`, `diagnostics` and `failure`. */
export interface CaseRecord {
  recorded?: { trace?: Buffer; video?: Buffer };
  diagnostics?: CaseDiagnostics;
  failure?: CaseFailure;
}

/** The step that failed, as the runner saw it. */
export interface FailedStep {
  index: number | null;
  step: Step | null;
  /** The runner's name for its verb (`click`, `verify_text`, `free_form`…). */
  verb: string;
  line: string;
  error: unknown;
}

/** How long stopping a trace may hold up the end of a case before it is given up on. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * One attempt at a case, recorded (docs/DIAGNOSTICS.md): its Playwright trace (started when its context
 * opens, kept per the policy, secrets taken out), its video, its console and network, and the label of
 * its failure. The runner tells it when steps start and fail; it never fails the case itself: whatever
 * goes wrong here only leaves less recorded.
 */
export class CaseRecorder {
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private collector: DiagnosticsCollector | null = null;
  private dir: Promise<string> | null = null;
  private tracing = false;
  private trace: Buffer | null = null;
  private failed: FailedStep | null = null;
  private appeared: Promise<boolean> = Promise.resolve(false);

  constructor(private readonly options: CaseRecorderOptions) {}

  private get policy() {
    return this.options.recording?.trace ?? 'off';
  }

  /** A temporary folder of this case's own (the video, the trace on its way), removed by `complete`. */
  private folder(): Promise<string> {
    this.dir ??= mkdtemp(join(tmpdir(), 'argus-recording-'));
    return this.dir;
  }

  /**
   * Opens the case's session with its recording. A browser that cannot record video (Playwright's
   * ffmpeg is missing) still runs the case, without one: a recording never fails a case.
   */
  async openSession(pool: SessionOpener, options: SessionOptions & QueueOptions): Promise<BrowserSession> {
    const hooks = await this.sessionOptions();
    try {
      return await pool.openSession({ ...options, ...hooks });
    } catch (error) {
      if (!hooks.recordVideo || !/ffmpeg/i.test(String(error))) throw error;
      this.options.warn?.(
        'No video of this case: the browser cannot record one here (Playwright’s ffmpeg is not installed)',
      );
      const { recordVideo: _none, ...rest } = hooks;
      return pool.openSession({ ...options, ...rest });
    }
  }

  /** What `openSession` is given: the video's folder, and the hooks at the context's opening and closing. */
  private async sessionOptions(): Promise<
    Pick<SessionOptions, 'recordVideo' | 'onContextCreated' | 'onContextOpen' | 'onContextClosing'>
  > {
    const video = this.options.recording?.video
      ? { dir: await this.folder(), size: this.options.viewport }
      : undefined;
    return {
      ...(video ? { recordVideo: video } : {}),
      onContextCreated: (context) => this.start(context),
      onContextOpen: (opened) => this.open(opened.context, opened.page),
      onContextClosing: (reason) => this.closing(reason),
    };
  }

  /** The page is there: the recording started with its context (else, by an opener that skips that hook, now). */
  private async open(context: BrowserContext, page: Page): Promise<void> {
    if (!this.context) await this.start(context);
    this.page = page;
  }

  /**
   * The context exists, its page not yet: console and network are collected, and the trace starts now, so
   * the page is born traced (installing the tracer into an open page costs each case more; docs/PERFORMANCE.md).
   */
  private async start(context: BrowserContext): Promise<void> {
    this.context = context;
    this.collector = new DiagnosticsCollector(context);
    if (this.policy === 'off' && !this.options.recording?.video) return;
    try {
      // Before tracing starts, so the script (it holds the values) is in no trace.
      const secrets = this.secrets().map((s) => s.value);
      if (secrets.length > 0) await context.addInitScript({ content: maskScript(secrets) });
      if (this.policy !== 'off') {
        await context.tracing.start({ screenshots: true, snapshots: true, sources: false });
        this.tracing = true;
      }
    } catch {
      // No trace then; the case runs all the same.
    }
  }

  private secrets() {
    let extra: Record<string, string> | undefined;
    try {
      extra = this.options.extraSecrets?.();
    } catch {
      extra = undefined;
    }
    return collectSecrets(this.options.variables, extra);
  }

  /** The case got its browser: console and network times count from `at`. */
  begin(at: number): void {
    this.collector?.begin(at);
  }

  stepStarted(index: number): void {
    this.collector?.stepStarted(index);
  }

  /**
   * A step failed (the first failure counts). When it did not find its target or timed out, the target
   * is looked for once more right away, while the page is as the step left it.
   */
  stepFailed(failed: FailedStep): void {
    if (this.failed) return;
    this.failed = failed;
    const message = cleanError(failed.error);
    if (this.page && failed.step && worthRecheck(message))
      this.appeared = targetAppeared(this.page, failed.step);
  }

  /**
   * The session closes on its own (a crash, the browser gone, a stop) while the trace still runs: what it
   * has is kept if the policy keeps failed cases, since the case fails.
   */
  private async closing(reason: SessionCloseReason): Promise<void> {
    if (!this.tracing) return;
    await this.stopTrace(reason !== 'closed' && reason !== 'aborted' && reason !== 'idle');
  }

  private async stopTrace(failed: boolean): Promise<void> {
    const context = this.context;
    if (!this.tracing || !context) return;
    this.tracing = false;
    const keep = this.policy === 'always' || (this.policy === 'on-failure' && failed);
    try {
      if (!keep) {
        // Dropped at once: nothing is written anywhere.
        await withTimeout(context.tracing.stop(), STOP_TIMEOUT_MS);
        return;
      }
      // Playwright writes it here (from a remote browser too: it brings the file over).
      const path = join(await this.folder(), 'trace.zip');
      await withTimeout(context.tracing.stop({ path }), STOP_TIMEOUT_MS);
      this.trace = await readFile(path);
      await rm(path, { force: true });
    } catch {
      this.trace = null;
    }
  }

  /** Before the session closes: the trace stopped (kept or dropped), the last sizes and the re-check in. */
  async beforeClose(failed: boolean): Promise<void> {
    await this.stopTrace(failed);
    await this.collector?.settle();
    await this.appeared.catch(() => false);
  }

  /**
   * After the session closed: the video (kept only for a failed attempt), the trace with its secrets
   * taken out, the diagnostics and the failure's label. The temporary files are removed.
   */
  async complete(outcome: {
    status: 'passed' | 'failed';
    error: string | null;
    stopped: boolean;
  }): Promise<CaseRecord> {
    const failed = outcome.status === 'failed';
    const secrets = this.secrets();
    const hide = secretHider(secrets);
    const record: CaseRecord = {};
    try {
      const video = await this.video(failed);
      const trace = this.trace
        ? await redactTrace(this.trace, secretSpellings(secrets)).catch(() => null)
        : null;
      if (trace || video) record.recorded = { ...(trace ? { trace } : {}), ...(video ? { video } : {}) };
    } finally {
      if (this.dir) await rm(await this.dir, { recursive: true, force: true }).catch(() => {});
    }
    if (this.collector) record.diagnostics = this.collector.result(hide);
    if (failed && !outcome.stopped && outcome.error !== null) {
      const step = this.failed;
      record.failure = classifyFailure({
        stepIndex: step?.index ?? null,
        verb: step?.verb ?? 'case',
        target: step ? stepTarget(step.step, step.line) : '',
        line: step?.line ?? '',
        lines: this.options.lines,
        error: step?.error,
        message: outcome.error,
        diagnostics: record.diagnostics ?? { console: [], network: [], truncated: false },
        appearedAfter: await this.appeared.catch(() => false),
      });
    }
    return record;
  }

  /** The page's video once the context has closed (the file is complete only then); deleted after. */
  private async video(keep: boolean): Promise<Buffer | undefined> {
    const video = this.page?.video();
    if (!video) return undefined;
    try {
      if (!keep) return undefined;
      const path = join(await this.folder(), 'case.webm');
      await withTimeout(video.saveAs(path), STOP_TIMEOUT_MS);
      return await readFile(path);
    } catch {
      return undefined;
    } finally {
      await video.delete().catch(() => {});
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
