import type { VisualCaptureSession, VisualCheckRequest, VisualChecks, VisualVerdict } from '@argus/engine';
import { cropRect, decodeImage, encodeKeptPng, encodePng, type RgbaImage } from '../image';
import type { Box } from '../regions';
import { clipBox } from './boxes';
import { compareWithBaseline } from './compare-baseline';
import { type ElementMask, findElementMasks } from './element-masks';
import { learnLoadVarying } from './load-varying';
import { captureSettled, type SettledCapture } from './settled-capture';

/** What a check's baseline is kept under: its name within its case and the viewport. */
export interface VisualCheckKey {
  name: string;
  viewport: { width: number; height: number };
}

/** An approved (or pending) baseline. */
export interface Baseline {
  /** The capture approved: the page, or the region's box. */
  png: Buffer;
  /** Masks in the baseline's coordinates: what moved by itself when it was taken, and users' own. */
  masks: Box[];
  /** Share (0–1) of pixels that may differ before the check counts as changed. */
  threshold: number;
  /** Masks named by an element's text or role, found on the page at each check. */
  elementMasks?: ElementMask[];
}

/** This run's capture of a check, as the store is given it. */
export interface VisualCapture {
  /**
   * The capture: encoded to keep (zlib level 6) when the check is `new` or `changed`; as the browser
   * encoded it for speed when `same` (a store need not keep it: it looked as approved).
   */
  png: Buffer;
  width: number;
  height: number;
  /** What moved by itself between the captures, in the capture's coordinates (masked for this check). */
  moving: Box[];
  /** The page's URL. */
  url: string;
  /** The region's box on the page it was cut from; null for the whole page. */
  box: Box | null;
  /** The review's difference picture (PNG), drawn when asked; absent unless the check `changed`. */
  diff?: () => Promise<Buffer>;
}

/**
 * Where baselines live (the server's, per project, environment, branch and case; `MemoryBaselineStore`
 * for tests). `record` is told every check's capture and verdict: a `new` check's capture is to be kept
 * as its pending baseline, a `changed` one's put up for review.
 */
export interface BaselineStore {
  baselineOf(key: VisualCheckKey): Promise<Baseline | null>;
  record(key: VisualCheckKey, capture: VisualCapture, verdict: VisualVerdict): Promise<void>;
}

export interface VisualChecksOptions {
  /** Time between the captures of one check. @default 500 recording a new check, 150 comparing */
  gapMs?: number;
}

/**
 * The engine's visual-check port (`VisualChecks` of @argus/engine) over a baseline store: a settled
 * capture (`captureSettled`: taken twice a moment apart, what moved masked), cut to the region's box
 * when the step names one, compared with the baseline (`compareWithBaseline`, masked by the baseline's
 * masks and what moved now). No baseline: `new`, and the capture is recorded as the pending one.
 */
export function createVisualChecks(store: BaselineStore, options: VisualChecksOptions = {}): VisualChecks {
  return {
    async check(request, signal) {
      const key: VisualCheckKey = { name: request.name, viewport: request.viewport };
      const settleMs = Math.max(500, Math.min(5_000, Math.floor(request.timeoutMs / 4)));
      const baseline = await store.baselineOf(key);
      // Decoded while the page is captured.
      const approvedImage = baseline ? decodeImage(baseline.png) : null;
      approvedImage?.catch(() => {}); // awaited below; not unhandled meanwhile
      // A capture that may become the baseline watches longer for what moves (a clock ticking each
      // second moves within its window); one compared with a baseline is quick, what the baseline
      // knows to move (its masks, for a whole-page check) needing no third capture.
      const settled = await keepingFocus(request.session, signal, () =>
        captureSettled(request.session, {
          gapMs: options.gapMs ?? (baseline ? COMPARING_GAP_MS : RECORDING_GAP_MS),
          known: baseline && !request.box ? baseline.masks : [],
          minCaptures: baseline ? 2 : 3,
          settleMs,
          signal,
        }),
      );
      const learn = (loads: number, enough?: (boxes: Box[]) => boolean) =>
        learnLoadVarying(request.session, settled.image, { loads, settleMs, signal, enough });
      if (!baseline) {
        // A capture that may become the baseline learns what varies between loads, once, thoroughly.
        const { cut: taken, capture } = await captureOf(
          settled,
          request,
          (await learn(RECORDING_LOADS)).boxes,
        );
        capture.png = await encodeKeptPng(taken.image);
        const verdict: VisualVerdict = {
          status: 'new',
          issues: [],
          message: 'New visual check: review it (this capture is kept as its pending baseline)',
        };
        await store.record(key, capture, verdict);
        return verdict;
      }
      const approved = await (approvedImage ?? decodeImage(baseline.png));
      // The elements users masked, where they are now (in the capture's coordinates, as the region cuts it).
      const named = await findElementMasks(request.session, baseline.elementMasks ?? [], signal);
      const elements = cut(settled.image, named, request).moving;
      const compare = (cut: Cut) =>
        compareWithBaseline({
          baseline: approved,
          current: cut.image,
          ignore: [...baseline.masks, ...elements, ...cut.moving],
          threshold: baseline.threshold,
        });
      let current = await captureOf(settled, request, []);
      let compared = compare(current.cut);
      if (compared.changed) {
        // What differs may be what varies between loads (a banner drawn at random on each): learned on
        // another load or two, until what it masks leaves nothing changed.
        const learned = await learn(
          CHANGED_LOADS,
          (boxes) => !compare(cut(settled.image, [...settled.moving, ...boxes], request)).changed,
        );
        if (learned.boxes.length > 0) {
          current = await captureOf(settled, request, learned.boxes);
          compared = compare(current.cut);
        }
      }
      const { capture } = current;
      const issues = compared.issues.map(({ kind, message, box: at }) => ({ kind, message, box: at }));
      const verdict: VisualVerdict = compared.changed
        ? { status: 'changed', issues, message: changedMessage(issues, compared.share) }
        : { status: 'same', issues: [], message: 'Looks as approved' };
      if (compared.changed) {
        capture.png = await encodeKeptPng(current.cut.image);
        capture.diff = () => encodePng(compared.diff);
      }
      await store.record(key, capture, verdict);
      return verdict;
    },
  };
}

/** The gap between the captures of a check recorded as a new baseline: its three captures span a second. */
export const RECORDING_GAP_MS = 500;
/**
 * The gap between the captures of a check compared with its baseline: short (the check's cost is
 * mostly its gap), as what moves slowly was seen when the baseline was recorded and is in its masks.
 */
export const COMPARING_GAP_MS = 100;

/** Other loads a capture that may become a baseline learns from (a new check's). */
const RECORDING_LOADS = 3;
/** Other loads a changed capture learns from, stopping once nothing is left changed. */
const CHANGED_LOADS = 2;

/** The check's capture as the store is given it, and as it is compared (cut to the region, masks in its coordinates). */
async function captureOf(
  settled: SettledCapture,
  request: VisualCheckRequest,
  loadVarying: Box[],
): Promise<{ cut: Cut; capture: VisualCapture }> {
  const taken = cut(settled.image, [...settled.moving, ...loadVarying], request);
  const png = taken.box ? await encodePng(taken.image) : settled.png;
  const capture: VisualCapture = {
    png,
    width: taken.image.width,
    height: taken.image.height,
    moving: taken.moving,
    url: request.url,
    box: taken.box,
  };
  return { cut: taken, capture };
}

function changedMessage(issues: { message: string }[], share: number): string {
  const percent = share * 100;
  const amount = percent < 0.01 ? '<0.01' : percent < 1 ? percent.toFixed(2) : percent.toFixed(1);
  const count = `${issues.length} difference${issues.length === 1 ? '' : 's'}`;
  const first = issues[0] ? `: ${issues[0].message}` : '';
  return `Changed since approved (${count}, ${amount}% of the pixels), to review${first}`;
}

/** The capture and its moving boxes cut to the region's box (whole pixels), or as they are for the page. */
interface Cut {
  image: RgbaImage;
  moving: Box[];
  box: Box | null;
}

function cut(image: RgbaImage, moving: Box[], request: VisualCheckRequest): Cut {
  if (!request.box) return { image, moving, box: null };
  const box = clipBox(request.box, image.width, image.height);
  if (!box) {
    throw new Error(
      `The region "${request.region}" is outside the page's capture (${image.width}x${image.height} px)`,
    );
  }
  const inside = moving.flatMap(
    (m) => clipBox({ ...m, x: m.x - box.x, y: m.y - box.y }, box.width, box.height) ?? [],
  );
  return { image: cropRect(image, box), moving: inside, box };
}

/**
 * Runs a capture and leaves the page as the case had it: the freezing style `captureSettled` puts in
 * is taken out again (a later step's transition must still end) and the focus it takes off a field is
 * given back (a later `Type` step types where the case left the caret).
 */
async function keepingFocus<T>(
  session: VisualCaptureSession,
  signal: AbortSignal,
  capture: () => Promise<T>,
): Promise<T> {
  const frozenBefore = await session.evaluate(
    () => {
      (window as unknown as { __argusVisualFocus?: Element | null }).__argusVisualFocus =
        document.activeElement;
      return document.querySelector('style[data-argus-freeze]') !== null;
    },
    undefined,
    { signal },
  );
  try {
    return await capture();
  } finally {
    if (!signal.aborted) {
      await session
        .evaluate((keepFrozen: boolean) => {
          if (!keepFrozen) document.querySelector('style[data-argus-freeze]')?.remove();
          const holder = window as unknown as { __argusVisualFocus?: Element | null };
          const focused = holder.__argusVisualFocus;
          delete holder.__argusVisualFocus;
          if (focused instanceof HTMLElement && focused !== document.body && focused.isConnected)
            focused.focus({ preventScroll: true });
        }, frozenBefore)
        .catch(() => {});
    }
  }
}

const keyText = (key: VisualCheckKey) => `${key.name}@${key.viewport.width}x${key.viewport.height}`;

/** A baseline store in memory: for tests, and for trying visual checks locally. */
export class MemoryBaselineStore implements BaselineStore {
  private readonly entries = new Map<
    string,
    { baseline: Baseline; pending: boolean; latest: VisualCapture; verdict: VisualVerdict }
  >();

  constructor(private readonly options: { threshold?: number } = {}) {}

  async baselineOf(key: VisualCheckKey): Promise<Baseline | null> {
    return this.entries.get(keyText(key))?.baseline ?? null;
  }

  async record(key: VisualCheckKey, capture: VisualCapture, verdict: VisualVerdict): Promise<void> {
    const entry = this.entries.get(keyText(key));
    if (entry) {
      entry.latest = capture;
      entry.verdict = verdict;
      return;
    }
    const baseline = { png: capture.png, masks: capture.moving, threshold: this.options.threshold ?? 0 };
    this.entries.set(keyText(key), { baseline, pending: true, latest: capture, verdict });
  }

  /** Whether the check's baseline is still pending review (recorded by its first run, not approved). */
  isPending(key: VisualCheckKey): boolean {
    return this.entries.get(keyText(key))?.pending ?? false;
  }

  /** The last verdict recorded for the check. */
  lastVerdict(key: VisualCheckKey): VisualVerdict | null {
    return this.entries.get(keyText(key))?.verdict ?? null;
  }

  /** Approves the check's latest capture: it becomes the baseline (its moving boxes its masks). */
  approve(key: VisualCheckKey): void {
    const entry = this.entries.get(keyText(key));
    if (!entry) throw new Error(`No visual check ${keyText(key)} to approve`);
    const { png, moving } = entry.latest;
    entry.baseline = { png, masks: moving, threshold: entry.baseline.threshold };
    entry.pending = false;
  }

  /** Sets the check's element masks (as a user's settings do): found on the page at each check. */
  maskElements(key: VisualCheckKey, elementMasks: ElementMask[]): void {
    const entry = this.entries.get(keyText(key));
    if (!entry) throw new Error(`No visual check ${keyText(key)} to mask`);
    entry.baseline = { ...entry.baseline, elementMasks };
  }

  /** The keys of the checks recorded, as `name@WxH`. */
  keys(): string[] {
    return [...this.entries.keys()];
  }
}
