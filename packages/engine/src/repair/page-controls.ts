import type { ElementKey } from '@argus/protocol';
import type { Page } from 'playwright-core';
import { elementKey, rawKeysOf } from '../element-key';

/**
 * The page as a repair reads it (in the page, no side effect but a marker attribute on each control so
 * a line built for one can be checked to find it again): every visible control, heading and short
 * text with its role and accessible name, and how close it sits to the elements the case's other steps
 * use (marked beforehand with `data-argus-repair-ref`): the innermost form, dialog, fieldset, group,
 * item or menu they share, or a wider section, and how many levels up they meet.
 */

export const CANDIDATE_ATTR = 'data-argus-repair-candidate';
export const REF_ATTR = 'data-argus-repair-ref';
/** The region the failed step names (`… in "<region>"`), when it is still on the page. */
export const REGION_ATTR = 'data-argus-repair-region';

export interface PageControl {
  /** Its marker (`data-argus-repair-candidate`). */
  id: number;
  role: string;
  name: string;
  tag: string;
  /** An input's type (`submit`, `checkbox`…), else ''. */
  type: string;
  disabled: boolean;
  /** `aria-expanded="false"`, `aria-haspopup`, a closed `<details>`' summary. */
  collapsed: boolean;
  /** The name of the innermost form or dialog holding it (or '' when one with no name), null outside. */
  form: string | null;
  /** Per marked step (its index as a string): how close this control sits to that step's element. */
  near: Record<string, Closeness>;
  /** This control is the element of these marked steps. */
  refs: number[];
  /** Where a link leads (resolved), else null. */
  href: string | null;
  /** It sits in a repeated item (a list item, a row, an article): a per-item control. */
  inItem: boolean;
  /** It sits in the marked region (false when none is marked). */
  inRegion: boolean;
  /** Its stable id, form field name or test id (element-key.ts), if any. */
  key: ElementKey | null;
}

export interface Closeness {
  /** The innermost container both are in: `form`, `dialog`, `fieldset`, `item`, `menu`, `section`… or null. */
  container: string | null;
  /** Tight (a form, dialog, fieldset, group, item, menu) or wide (a section, nav, header, footer). */
  tight: boolean;
  /** Levels up from this control to where they meet. */
  hops: number;
}

export interface PageTexts {
  path: string;
  title: string;
  controls: PageControl[];
  /** A region is marked (the failed step's region is still on the page). */
  region: boolean;
  /** Visible short texts (a phrase an element holds itself), in page order, each once. */
  texts: string[];
}

/** Reads the page; controls are numbered from 0 in page order (their markers are set anew each read). */
export async function readPageControls(page: Page): Promise<PageTexts> {
  const read = await readInPage(page);
  // Each marked control's stable attributes, in page order as the controls are numbered.
  const keys = await page
    .locator(`[${CANDIDATE_ATTR}]`)
    .evaluateAll(rawKeysOf)
    .catch(() => []);
  const sameCount = keys.length === read.controls.length;
  return {
    ...read,
    controls: read.controls.map((control, n) => ({
      ...control,
      key: sameCount ? elementKey(keys[n]) : null,
    })),
  };
}

type InPage = Omit<PageTexts, 'controls'> & { controls: Omit<PageControl, 'key'>[] };

function readInPage(page: Page): Promise<InPage> {
  return page.evaluate(
    ({ candidateAttr, refAttr, regionAttr }) => {
      const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
      const shown = (el: Element) => {
        if (el.getClientRects().length === 0) return false;
        const style = getComputedStyle(el);
        return style.visibility !== 'hidden' && style.display !== 'none';
      };
      const CONTROLS =
        'button, a[href], input:not([type=hidden]), select, textarea, summary, h1, h2, h3, h4, h5, h6, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], [role=combobox], [role=textbox], [role=searchbox], [role=heading], [contenteditable=true]';
      const TIGHT =
        'form, dialog, [role=dialog], [role=alertdialog], fieldset, [role=group], [role=menu], [role=menubar], [role=listbox], [role=toolbar], li, tr, article, [role=listitem], [role=row], details';
      const WIDE = 'section, [role=region], nav, header, footer, aside, [role=navigation], [role=search]';
      const roleOf = (el: Element): string => {
        const explicit = el.getAttribute('role');
        if (explicit) return explicit.split(' ')[0];
        const tag = el.tagName.toLowerCase();
        if (/^h[1-6]$/.test(tag)) return 'heading';
        if (tag === 'button') return 'button';
        if (tag === 'a') return 'link';
        if (tag === 'select') return (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox';
        if (tag === 'textarea') return 'textbox';
        if (tag === 'summary') return 'summary';
        if (tag === 'input') {
          const type = (el as HTMLInputElement).type;
          if (type === 'checkbox') return 'checkbox';
          if (type === 'radio') return 'radio';
          if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
          if (type === 'number') return 'spinbutton';
          if (type === 'search') return 'searchbox';
          return 'textbox';
        }
        return el.hasAttribute('contenteditable') ? 'textbox' : tag;
      };
      const contentName = (el: Element): string => {
        const parts: string[] = [];
        const walk = (node: Node) => {
          if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
          if (!(node instanceof Element)) return;
          if (node !== el && (node.getAttribute('aria-hidden') === 'true' || !shown(node))) return;
          if (node instanceof HTMLImageElement) parts.push(node.alt);
          for (const child of Array.from(node.childNodes)) walk(child);
        };
        walk(el);
        return clean(parts.join(' '));
      };
      const nameOf = (el: Element): string => {
        const by = el.getAttribute('aria-labelledby');
        if (by) {
          const named = clean(
            by
              .split(/\s+/)
              .map((id) => document.getElementById(id)?.textContent ?? '')
              .join(' '),
          );
          if (named) return named;
        }
        const aria = clean(el.getAttribute('aria-label'));
        if (aria) return aria;
        if (
          el instanceof HTMLInputElement ||
          el instanceof HTMLSelectElement ||
          el instanceof HTMLTextAreaElement
        ) {
          const labels = Array.from(el.labels ?? []).map((l) => clean(l.textContent));
          if (labels.some(Boolean)) return labels.filter(Boolean).join(' ');
          if (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type))
            return clean(el.value) || (el.type === 'submit' ? 'Submit' : '');
          const placeholder = clean(el.getAttribute('placeholder'));
          if (placeholder) return placeholder;
          return clean(el.getAttribute('title'));
        }
        return contentName(el) || clean(el.getAttribute('title'));
      };
      const containerName = (el: Element) => (el.matches(TIGHT) ? 'tight' : el.matches(WIDE) ? 'wide' : null);
      const kindOf = (el: Element) => {
        const tag = el.tagName.toLowerCase();
        if (['li', 'tr', 'article'].includes(tag) || /listitem|row/.test(el.getAttribute('role') ?? ''))
          return 'item';
        return el.getAttribute('role') ?? tag;
      };
      const closeness = (a: Element, b: Element) => {
        let meet: Element | null = a;
        let hops = 0;
        while (meet && !meet.contains(b)) {
          meet = meet.parentElement;
          hops++;
        }
        for (let c: Element | null = meet; c && c !== document.body; c = c.parentElement) {
          const kind = containerName(c);
          if (kind) return { container: kindOf(c), tight: kind === 'tight', hops };
        }
        return { container: null, tight: false, hops };
      };
      const refs = Array.from(document.querySelectorAll(`[${refAttr}]`)).map((el) => ({
        el,
        steps: (el.getAttribute(refAttr) ?? '').split(' ').filter(Boolean).map(Number),
      }));
      // Markers of an earlier read are cleared: the controls' keys are read by them afterwards.
      for (const el of Array.from(document.querySelectorAll(`[${candidateAttr}]`)))
        el.removeAttribute(candidateAttr);
      const controls = Array.from(document.querySelectorAll(CONTROLS))
        .filter(shown)
        .map((el, id) => {
          el.setAttribute(candidateAttr, String(id));
          const near: Record<string, ReturnType<typeof closeness>> = {};
          for (const ref of refs) for (const step of ref.steps) near[String(step)] = closeness(el, ref.el);
          const form = el.closest('form, dialog, [role=dialog], [role=alertdialog]');
          const details = el.tagName === 'SUMMARY' ? el.parentElement : null;
          return {
            id,
            role: roleOf(el),
            name: nameOf(el),
            tag: el.tagName.toLowerCase(),
            type: el instanceof HTMLInputElement || el instanceof HTMLButtonElement ? el.type : '',
            disabled:
              (el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true',
            collapsed:
              el.getAttribute('aria-expanded') === 'false' ||
              (el.hasAttribute('aria-haspopup') && el.getAttribute('aria-expanded') !== 'true') ||
              (details instanceof HTMLDetailsElement && !details.open),
            form: form
              ? clean(
                  form.getAttribute('aria-label') ?? form.querySelector('legend, h1, h2, h3')?.textContent,
                )
              : null,
            near,
            refs: refs.filter((r) => r.el === el).flatMap((r) => r.steps),
            href: el instanceof HTMLAnchorElement && el.hasAttribute('href') ? el.href : null,
            inItem: el.closest('li, tr, article, [role=listitem], [role=row]') !== null,
            inRegion: el.closest(`[${regionAttr}]`) !== null,
          };
        });
      const texts: string[] = [];
      const seen = new Set<string>();
      for (const el of Array.from(document.body.querySelectorAll('*'))) {
        const own = clean(
          Array.from(el.childNodes)
            .filter((n) => n.nodeType === Node.TEXT_NODE)
            .map((n) => n.textContent)
            .join(' '),
        );
        if (!own || own.length > 120 || !shown(el) || el.closest('script, style')) continue;
        const text = clean(el.textContent).length <= 120 ? clean(el.textContent) : own;
        if (!seen.has(text)) {
          seen.add(text);
          texts.push(text);
        }
      }
      return {
        path: location.pathname + location.hash,
        title: document.title,
        controls,
        region: document.querySelector(`[${regionAttr}]`) !== null,
        texts: texts.slice(0, 400),
      };
    },
    { candidateAttr: CANDIDATE_ATTR, refAttr: REF_ATTR, regionAttr: REGION_ATTR },
  );
}
