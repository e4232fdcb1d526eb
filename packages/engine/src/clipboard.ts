import type { Page } from 'playwright-core';

// Copy, cut and paste for a session: its own clipboard, never the browser's (shared by every user).

/** Typing while Control or Meta is held down would send chords (Control+v pastes): refused. */
export function refuseChording(clipboard: SessionClipboard): void {
  if (clipboard.chording)
    throw new Error('Control or Meta is held down: release it (a key "up" event) before typing text');
}

/** What a key chord does with the clipboard, in Chromium's editing keys. */
export type ClipboardAction = 'copy' | 'cut' | 'paste';

const MODIFIERS = new Set(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']);
/** Longest text a session's clipboard keeps (characters); a longer copy keeps its start. */
const MAX_CLIPBOARD = 1_000_000;

/**
 * A session's own clipboard. One Chromium serves every user, and its clipboard is one for all of
 * them: what user A copied, user B's Control+V pasted. So no copy, cut or paste chord ever reaches the
 * browser: copying reads the selection through the page and keeps it here; pasting inserts what is
 * kept here. The system clipboard is never read (pages cannot read it either: the permission stays
 * denied and `execCommand('paste')` is off).
 */
export class SessionClipboard {
  text = '';
  /** Modifier keys held down by separate key events (a `down` without its `up` yet). */
  readonly held = new Set<string>();

  /** Follows modifier keys going down and up, so a later `v` knows Control is held. */
  track(type: 'down' | 'up' | 'press', key: string): void {
    if (!MODIFIERS.has(key)) return;
    if (type === 'down') this.held.add(key);
    else if (type === 'up') this.held.delete(key);
  }

  /** Whether Control or Meta is held: typed characters would then be chords (Control+v pastes). */
  get chording(): boolean {
    return ['Control', 'Meta', 'ControlOrMeta'].some((k) => this.held.has(k));
  }
}

/**
 * The clipboard action of a key or chord in Playwright's syntax (`Control+C`, `Shift+Insert`,
 * `ControlOrMeta+KeyV`) with the modifiers already held, or null: Control or Meta with C, X or V (and
 * Shift or Alt besides: Control+Shift+V pastes as plain text), Control+Insert, Shift+Insert,
 * Shift+Delete.
 */
export function clipboardAction(key: string, held: ReadonlySet<string> = new Set()): ClipboardAction | null {
  const parts = key.split('+');
  let main = parts.pop() ?? '';
  if (main === '' && parts.at(-1) === '') {
    // `Control++`: the key is '+' itself.
    parts.pop();
    main = '+';
  }
  const mods = new Set([...parts, ...held]);
  const ctrl = mods.has('Control') || mods.has('Meta') || mods.has('ControlOrMeta');
  const shift = mods.has('Shift');
  const name = /^Key[A-Z]$/.test(main)
    ? main.slice(3).toLowerCase()
    : main.length === 1
      ? main.toLowerCase()
      : main;
  if (ctrl && name === 'c') return 'copy';
  if (ctrl && name === 'x') return 'cut';
  if (ctrl && name === 'v') return 'paste';
  if (name === 'Insert' && ctrl) return 'copy';
  if (name === 'Insert' && shift) return 'paste';
  if (name === 'Delete' && shift) return 'cut';
  return null;
}

/**
 * Carries out a clipboard chord on the page's focused frame, with the session's clipboard: the page
 * gets its `copy`/`cut`/`paste` event first (with the session's text in it), and a handler that takes
 * the event over (`preventDefault`) decides, as it would with a real clipboard.
 */
export async function performClipboard(page: Page, clipboard: SessionClipboard, action: ClipboardAction) {
  const frame = await focusedFrame(page);
  if (action === 'paste') {
    const taken = await frame.evaluate(dispatchPaste, clipboard.text);
    if (!taken && clipboard.text) await page.keyboard.insertText(clipboard.text);
    return;
  }
  const copied = await frame.evaluate(copySelection, action === 'cut');
  if (copied !== null) clipboard.text = copied.slice(0, MAX_CLIPBOARD);
}

/** The frame whose document has the focus (a field in an iframe), else the main frame. */
async function focusedFrame(page: Page) {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const focused = await frame
      .evaluate(() => document.hasFocus() && !(document.activeElement instanceof HTMLIFrameElement))
      .catch(() => false);
    if (focused) return frame;
  }
  return page.mainFrame();
}

/**
 * Runs in the page: the selected text (of the focused field, else of the document), after the page's
 * `copy`/`cut` handler had its say; a cut then deletes the selection of an editable field. Null when
 * nothing is copied (nothing selected, or a password field, as browsers do).
 */
function copySelection(cut: boolean): string | null {
  let e = document.activeElement;
  while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
  const field = e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement ? e : null;
  if (field instanceof HTMLInputElement && field.type === 'password') return null;
  let text: string;
  if (field) {
    const start = field.selectionStart ?? 0;
    const end = field.selectionEnd ?? field.value.length;
    text = field.value.slice(start, end);
  } else text = document.getSelection()?.toString() ?? '';
  const data = new DataTransfer();
  const event = new ClipboardEvent(cut ? 'cut' : 'copy', {
    clipboardData: data,
    bubbles: true,
    cancelable: true,
    composed: true,
  });
  (e ?? document).dispatchEvent(event);
  if (event.defaultPrevented) return data.getData('text/plain');
  const editable = field ? !field.readOnly && !field.disabled : (e as HTMLElement | null)?.isContentEditable;
  if (cut && editable && text) document.execCommand('delete');
  // Nothing selected: a browser leaves its clipboard as it was.
  return text || null;
}

/** Runs in the page: a `paste` event carrying the session's text; answers whether the page took it over. */
function dispatchPaste(text: string): boolean {
  let e = document.activeElement;
  while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
  const data = new DataTransfer();
  data.setData('text/plain', text);
  const event = new ClipboardEvent('paste', {
    clipboardData: data,
    bubbles: true,
    cancelable: true,
    composed: true,
  });
  (e ?? document).dispatchEvent(event);
  return event.defaultPrevented;
}
