import { RUN_ID } from '../../variables';
import type { PageSnapshot, SnapshotControl } from '../snapshot';

const PLACEHOLDER = `{{${RUN_ID}}}`;
/** What a `{{RUN_ID}}` value looks like (see `newRunId`): six of its letters and digits, with one of each. */
const ID_SHAPE = /^(?=[a-z2-9]*[a-z])(?=[a-z2-9]*\d)[abcdefghjkmnpqrstuvwxyz23456789]{6}$/;

/**
 * What the exploration itself made on an app that keeps data on the server: every session fills
 * `{{RUN_ID}}` with an id of its own, so an item typed as `Buy milk {{RUN_ID}}` by one session shows
 * in every later one as `Buy milk s73fgm`. Such an item exists only because the exploration made it:
 * on a fresh app (where each run of the suite starts) it never does, so no step may name it. A
 * session's own items are written back as `{{RUN_ID}}` (the case makes them itself); those of other
 * sessions are taken out of the snapshot before anything reads it, so they are never a candidate
 * for an action or a region, nor a text to check.
 *
 * Made by the exploration: a text holding the id of any session it opened, or (an id it never knew:
 * another exploration's) a value it types followed by a token shaped like an id, when the text was
 * not on the page as the exploration first found it. Without data shared between sessions nothing
 * bears an id, and every item a session sees is its setup's own: nothing is taken out.
 */
export class ExplorationMade {
  /** The `{{RUN_ID}}` values of the sessions opened. */
  private readonly ids = new Set<string>();
  /** What the values typed with `{{RUN_ID}}` begin with (`Buy milk` for `Buy milk {{RUN_ID}}`). */
  private readonly typed = new Set<string>();
  /** The texts of each page as the exploration first found it, and which pages those are. */
  private readonly fresh = new Set<string>();
  private readonly freshPages = new Set<string>();

  /** A session was opened: what it fills `{{RUN_ID}}` with. */
  sessionOpened(runId: string): void {
    this.ids.add(runId.toLowerCase());
  }

  /** Every value a step of the exploration typed, in any of its fields (placeholders unfilled). */
  typedIn(step: object): void {
    for (const value of Object.values(step)) {
      if (typeof value !== 'string' || !value.includes(PLACEHOLDER)) continue;
      const before = value.split(PLACEHOLDER)[0].trim().toLowerCase();
      if (before.length >= 3) this.typed.add(before);
    }
  }

  /** The page as the exploration first found it (its start state), once per page. */
  freshPage(snapshot: PageSnapshot): void {
    const page = snapshot.url.split('#')[0];
    if (this.freshPages.has(page)) return;
    this.freshPages.add(page);
    for (const text of textsOf(snapshot)) this.fresh.add(text);
  }

  /** Whether the text holds what another session (not `own`) made. */
  isMade(text: string | null | undefined, own?: string): boolean {
    if (!text) return false;
    const lower = text.toLowerCase();
    const words = lower.split(/[^a-z0-9]+/).filter(Boolean);
    const ownId = own?.toLowerCase();
    if (words.some((w) => w !== ownId && this.ids.has(w))) return true;
    if (this.typed.size === 0 || this.fresh.has(text)) return false;
    for (const prefix of this.typed) {
      let at = lower.indexOf(prefix);
      while (at >= 0) {
        const token = lower.slice(at + prefix.length).match(/^\s+([a-z0-9]+)/)?.[1];
        if (token && token !== ownId && ID_SHAPE.test(token)) return true;
        at = lower.indexOf(prefix, at + 1);
      }
    }
    return false;
  }

  /**
   * The snapshot without what other sessions made: their items, the controls in those items or
   * named by them, the texts holding them, and dialogs about them. Counts are the page's own (a
   * check of an exact count is not kept where data is shared).
   */
  strip(snapshot: PageSnapshot, own?: string): PageSnapshot {
    const made = (text: string | null | undefined) => this.isMade(text, own);
    const items = snapshot.items.filter((i) => !made(i.label) && !made(i.text));
    if (items.length === snapshot.items.length && !textsOf(snapshot).some(made)) return snapshot;
    const gone = new Set(snapshot.items.filter((i) => !items.includes(i)).map((i) => i.label));
    const keep = (c: SnapshotControl) =>
      !made(c.name) && !made(c.near) && !(c.item !== null && (gone.has(c.item) || made(c.item)));
    return {
      ...snapshot,
      items,
      controls: snapshot.controls.filter(keep),
      hiddenControls: snapshot.hiddenControls.filter(keep),
      texts: snapshot.texts
        .filter((t) => !made(t.text) && !(t.item !== null && (gone.has(t.item) || made(t.item))))
        .map((t) => (made(t.context) ? { ...t, context: null } : t)),
      dialogs: snapshot.dialogs.filter((d) => !made(d)),
    };
  }
}

/** Every text of the snapshot a step could name. */
function textsOf(s: PageSnapshot): string[] {
  return [
    ...s.items.flatMap((i) => [i.label, i.text]),
    ...[...s.controls, ...s.hiddenControls].flatMap((c) => [c.name, c.item ?? '', c.near ?? '']),
    ...s.texts.flatMap((t) => [t.text, t.context ?? '', t.item ?? '']),
    ...s.dialogs,
  ].filter(Boolean);
}
