import type { VisualCaptureSession } from '@argus/engine';
import type { Box } from '../regions';

/** A mask named by what it covers (VisualElementMaskSchema of @argus/protocol). */
export interface ElementMask {
  text?: string;
  role?: string;
}

/**
 * The boxes of the elements a check's element masks name, on the page as it is now, in page
 * coordinates (a full-page capture's): the visible elements of the role (explicit, or implied by the
 * tag), holding the text (case and spacing aside; the innermost such elements, not every ancestor).
 * Found at each check, so a mask follows its element wherever the page moves it.
 */
export function findElementMasks(
  session: Pick<VisualCaptureSession, 'evaluate'>,
  masks: readonly ElementMask[],
  signal: AbortSignal,
): Promise<Box[]> {
  if (masks.length === 0) return Promise.resolve([]);
  return session.evaluate(
    (wanted: ElementMask[]) => {
      const IMPLIED: Record<string, string> = {
        A: 'link',
        ARTICLE: 'article',
        ASIDE: 'complementary',
        BUTTON: 'button',
        DIALOG: 'dialog',
        FIGURE: 'figure',
        FOOTER: 'contentinfo',
        FORM: 'form',
        H1: 'heading',
        H2: 'heading',
        H3: 'heading',
        H4: 'heading',
        H5: 'heading',
        H6: 'heading',
        HEADER: 'banner',
        IFRAME: 'document',
        IMG: 'img',
        LI: 'listitem',
        MAIN: 'main',
        NAV: 'navigation',
        OL: 'list',
        SECTION: 'region',
        SELECT: 'combobox',
        TABLE: 'table',
        TEXTAREA: 'textbox',
        UL: 'list',
        VIDEO: 'video',
        SVG: 'img',
      };
      const roleOf = (el: Element) => {
        const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
        if (explicit) return explicit;
        if (el.tagName === 'INPUT') {
          const type = (el.getAttribute('type') ?? 'text').toLowerCase();
          if (type === 'checkbox') return 'checkbox';
          if (type === 'radio') return 'radio';
          if (type === 'button' || type === 'submit' || type === 'reset') return 'button';
          return 'textbox';
        }
        return IMPLIED[el.tagName.toUpperCase()] ?? '';
      };
      const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
      // The text as shown (innerText: what CSS hides is left out), as a user names what they see.
      const textOf = (el: Element) => {
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, not the source's
        const shown = (el as HTMLElement).innerText ?? el.textContent ?? '';
        return norm(`${shown} ${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('alt') ?? ''}`);
      };
      const visible = (el: Element) => {
        const r = el.getBoundingClientRect();
        if (r.width <= 0 || r.height <= 0) return false;
        const style = getComputedStyle(el);
        return style.visibility !== 'hidden' && style.display !== 'none';
      };
      const boxes: { x: number; y: number; width: number; height: number }[] = [];
      const all = Array.from(document.body?.querySelectorAll('*') ?? []);
      for (const mask of wanted) {
        const text = mask.text ? norm(mask.text) : null;
        const found = all.filter(
          (el) =>
            (!mask.role || roleOf(el) === mask.role) && (!text || textOf(el).includes(text)) && visible(el),
        );
        // By text, the innermost holders: a card, not the page around it.
        const chosen = text
          ? found.filter((el) => !found.some((other) => other !== el && el.contains(other)))
          : found;
        for (const el of chosen.slice(0, 50)) {
          const r = el.getBoundingClientRect();
          boxes.push({ x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height });
        }
      }
      return boxes;
    },
    [...masks],
    { signal },
  );
}
