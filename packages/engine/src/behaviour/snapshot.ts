import type { Page } from 'playwright-core';
import type { PageSnapshot } from './snapshot-types';

// The shapes a snapshot is made of live in snapshot-types.ts (this file is the in-page reader).
export type {
  PageSnapshot,
  SnapshotControl,
  SnapshotForm,
  SnapshotItem,
  SnapshotText,
} from './snapshot-types';

/** Reads the snapshot in the page (no side effects). Console and request counts are filled by the caller. */
export function readSnapshot(page: Page): Promise<Omit<PageSnapshot, 'consoleErrors' | 'failedRequests'>> {
  return page.evaluate(() => {
    const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
    const STATE_CLASS =
      /^(?:is-|has-)?(completed?|done|active|selected|current|checked|open|opened|expanded|collapsed|disabled|editing|error|invalid|success|highlighted|pressed|finished|archived|starred|favou?rite|liked|applied)$/i;
    const ARIA_STATES = ['pressed', 'selected', 'current', 'expanded', 'checked', 'disabled', 'invalid'];
    const visible = (el: Element): boolean => {
      if (!(el instanceof HTMLElement) && !(el instanceof SVGElement)) return false;
      if (el.getClientRects().length === 0) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none';
    };
    const statesOf = (el: Element): string[] => {
      const out: string[] = [];
      for (const c of Array.from(el.classList)) {
        const m = c.match(STATE_CLASS);
        if (m) out.push(c.toLowerCase());
      }
      for (const a of ARIA_STATES) {
        const v = el.getAttribute(`aria-${a}`);
        if (v && v !== 'false') out.push(`aria-${a}`);
      }
      if ((el as HTMLButtonElement).disabled === true) out.push('disabled');
      const ds = el.getAttribute('data-state');
      if (ds && /^[\w-]{1,30}$/.test(ds)) out.push(`data-state=${ds}`);
      return out;
    };
    const LIST_ITEM = 'li, tr:has(td), article, [role=listitem], [role=row]:not(:has([role=columnheader]))';
    /**
     * Cards: an element whose class names an item, card or entry, with a sibling of the same class (or
     * small and with a control of its own).
     */
    const CARD_CLASS = /(^|[-_ ])(item|card|entry|todo|task|product)([-_ ]|$)/i;
    const isCard = (el: Element): boolean => {
      const cls = Array.from(el.classList).find((c) => CARD_CLASS.test(c));
      if (!cls || !el.parentElement || el.matches('ul, ol, table, tbody, body, main, nav')) return false;
      if (Array.from(el.parentElement.children).some((s) => s !== el && s.classList.contains(cls)))
        return true;
      // A lone card: small, and holding a control of its own (an entry with its Remove button).
      return (el.textContent ?? '').length <= 200 && el.querySelector(CONTROL_SELECTOR) !== null;
    };
    /**
     * Rows by their structure, whatever their class is called: a div (or section) holding a title and
     * a control of its own but no field to type in, inside a container holding only elements like it.
     * One such row alone counts when it holds a checkbox or a control hidden until hovered, as a list's
     * only entry does; otherwise two or more.
     */
    const isRow = (el: Element): boolean => {
      if (!/^(DIV|SECTION)$/.test(el.tagName) || !el.parentElement || el.parentElement === document.body)
        return false;
      const text = (el.textContent ?? '').trim();
      if (text.length === 0 || text.length > 200 || el.matches(CONTROL_SELECTOR)) return false;
      if (!el.querySelector(CONTROL_SELECTOR)) return false;
      if (
        el.querySelector('textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=hidden])')
      )
        return false;
      // Alike: the same tag, and a class they all share (a state class such as 'finished' may differ).
      const siblings = Array.from(el.parentElement.children);
      if (!siblings.every((s) => s.tagName === el.tagName)) return false;
      const shared = Array.from(el.classList).filter((c) => siblings.every((s) => s.classList.contains(c)));
      if (el.classList.length > 0 && shared.length === 0) return false;
      if (el.classList.length === 0 && siblings.some((s) => s.classList.length > 0)) return false;
      if (siblings.length >= 2) return true;
      return (
        el.querySelector('input[type=checkbox], [role=checkbox]') !== null ||
        Array.from(el.querySelectorAll(CONTROL_SELECTOR)).some(
          (c) => getComputedStyle(c).visibility === 'hidden',
        )
      );
    };
    const ITEM_SELECTOR = LIST_ITEM;
    const isItem = (el: Element) => el.matches(LIST_ITEM) || isCard(el) || isRow(el);
    const CONTROL_SELECTOR =
      'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=checkbox], [role=switch], [role=tab], [role=menuitem], [role=radio], [role=option], [role=link], [contenteditable=true]';
    const isControl = (el: Element) => el.matches(CONTROL_SELECTOR);
    const roleOf = (el: Element): string => {
      const explicit = el.getAttribute('role');
      if (explicit) return explicit.split(' ')[0];
      const tag = el.tagName.toLowerCase();
      if (tag === 'button') return 'button';
      if (tag === 'a') return 'link';
      if (tag === 'select') return (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox';
      if (tag === 'textarea') return 'textbox';
      if (tag === 'li') return 'listitem';
      if (tag === 'tr') return 'row';
      if (tag === 'article') return 'article';
      if (isCard(el) || isRow(el)) return 'item';
      if (tag === 'input') {
        const type = (el as HTMLInputElement).type;
        if (type === 'checkbox') return 'checkbox';
        if (type === 'radio') return 'radio';
        if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
        if (type === 'number') return 'spinbutton';
        if (type === 'range') return 'slider';
        return 'textbox';
      }
      return tag;
    };
    const labelledBy = (el: Element) =>
      clean(
        (el.getAttribute('aria-labelledby') ?? '')
          .split(/\s+/)
          .map((id) => (id ? document.getElementById(id)?.textContent : ''))
          .join(' '),
      );
    /**
     * A control's name from its content, as assistive technology reads it (and as a step finds it by
     * role and name): an icon marked aria-hidden (a "✓✓" beside the words) or a part not rendered is
     * left out; words hidden only from sight (clipped to a pixel, a label at font size 0) are kept.
     */
    const contentName = (el: Element): string => {
      const parts: string[] = [];
      // A control hidden until its item is hovered is named all the same: only its parts are judged.
      const shownItself = getComputedStyle(el).visibility !== 'hidden';
      const walk = (node: Node) => {
        if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
        if (!(node instanceof Element)) return;
        if (node !== el) {
          if (node.getAttribute('aria-hidden') === 'true') return;
          const style = getComputedStyle(node);
          if (style.display === 'none' || (shownItself && style.visibility === 'hidden')) return;
        }
        for (const child of Array.from(node.childNodes)) walk(child);
      };
      walk(el);
      return parts.join('');
    };
    const nameOf = (el: Element): string => {
      const aria = clean(el.getAttribute('aria-label')) || labelledBy(el);
      if (aria) return aria;
      if (
        el instanceof HTMLInputElement ||
        el instanceof HTMLSelectElement ||
        el instanceof HTMLTextAreaElement
      ) {
        const label = clean(el.labels?.[0]?.textContent);
        if (label) return label;
        if (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type))
          return clean(el.value);
        return clean(el.getAttribute('placeholder')) || clean(el.getAttribute('title')) || clean(el.name);
      }
      return (
        clean(contentName(el)) ||
        clean(el.getAttribute('title')) ||
        clean(el.querySelector('img')?.getAttribute('alt'))
      );
    };
    /** The item an element sits in (the innermost visible one). */
    const itemOf = (el: Element): Element | null => {
      let cur: Element | null = el.parentElement;
      while (cur && cur !== document.body) {
        if (isItem(cur) && visible(cur)) return cur;
        cur = cur.parentElement;
      }
      return null;
    };
    /** Text of an element without what its controls say. */
    const ownText = (el: Element): string => {
      const parts: string[] = [];
      const walk = (node: Node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          parts.push(node.textContent ?? '');
          return;
        }
        if (!(node instanceof Element)) return;
        if (node !== el && isControl(node) && node.tagName !== 'LABEL') return;
        if (node instanceof HTMLElement && !visible(node) && node.tagName !== 'BR') return;
        const style = node instanceof HTMLElement ? getComputedStyle(node) : null;
        const block = style && style.display !== 'inline' && style.display !== 'contents';
        if (block) parts.push(' ');
        for (const child of Array.from(node.childNodes)) walk(child);
        if (block) parts.push(' ');
      };
      walk(el);
      return clean(parts.join(''));
    };
    // "#6" and "No. 12" are an item's number, not its name: they change from one run to the next.
    const isNumberish = (t: string) => /^(?:no\.?\s*)?[#№\d\s.,:%$€£¥+×x*()/-]*$/i.test(t);
    const labelOfItem = (item: Element): string => {
      // The first visible text leaf that is not a control and not just a number.
      const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const t = clean(node.textContent);
        if (!t || isNumberish(t) || t.length < 2) continue;
        const parent = node.parentElement;
        if (!parent || !visible(parent)) continue;
        const control = parent.closest(CONTROL_SELECTOR);
        if (control && item.contains(control) && control.tagName !== 'A') continue;
        // A phrase: the text's inline parent when it is short.
        return t.length > 80 ? t.slice(0, 80) : t;
      }
      return clean(ownText(item)).slice(0, 80);
    };
    const itemLabels = new Map<Element, string>();
    const itemLabel = (item: Element | null) => {
      if (!item) return null;
      let label = itemLabels.get(item);
      if (label === undefined) {
        label = labelOfItem(item);
        itemLabels.set(item, label);
      }
      return label || null;
    };
    const pathOf = (el: Element, stop: Element | null): string => {
      const parts: string[] = [];
      let cur: Element | null = el;
      while (cur && cur !== stop && cur !== document.body) {
        if (cur.id && !/\d{3,}/.test(cur.id)) {
          parts.unshift(`#${cur.id}`);
          break;
        }
        const parent: Element | null = cur.parentElement;
        const tag = cur.tagName.toLowerCase();
        const same = parent ? Array.from(parent.children).filter((c) => c.tagName === cur!.tagName) : [];
        parts.unshift(same.length > 1 ? `${tag}[${same.indexOf(cur)}]` : tag);
        cur = parent;
      }
      return parts.join('>');
    };
    const keyed = <T extends { key: string }>(list: T[]): T[] => {
      const seen = new Map<string, number>();
      for (const x of list) {
        const n = seen.get(x.key) ?? 0;
        seen.set(x.key, n + 1);
        if (n > 0) x.key = `${x.key}#${n}`;
      }
      return list;
    };

    const all = Array.from(document.body?.querySelectorAll('*') ?? []);
    const shown = all.filter((el) => visible(el));
    const formEls = Array.from(document.forms).filter((f) => visible(f));
    const forms = formEls.map((f) => {
      const action = new URL(f.getAttribute('action') || location.href, location.href);
      const submitEl = f.querySelector<HTMLElement>(
        'button:not([type=button]):not([type=reset]), input[type=submit], input[type=image]',
      );
      return {
        action: action.href,
        method: (f.getAttribute('method') || 'get').toLowerCase(),
        sameOrigin: action.origin === location.origin,
        sensitive: !!f.querySelector(
          'input[type=password], [autocomplete^="cc-"], input[name*="card" i], input[name*="cvc" i], input[name*="cvv" i]',
        ),
        submit: submitEl ? nameOf(submitEl) || null : null,
      };
    });
    /** The text of the smallest block around a nameless control that has some, when it is short. */
    const nearOf = (el: Element): string | null => {
      let cur = el.parentElement;
      for (let up = 0; cur && cur !== document.body && up < 3; up++, cur = cur.parentElement) {
        const text = ownText(cur);
        if (text) return text.length <= 80 ? text : null;
      }
      return null;
    };
    const describe = (el: Element) => {
      const item = itemLabel(itemOf(el));
      const role = roleOf(el);
      const name = nameOf(el).slice(0, 120);
      const near = !name && item === null && role === 'button' ? nearOf(el) : null;
      const field =
        el instanceof HTMLInputElement ||
        el instanceof HTMLTextAreaElement ||
        el instanceof HTMLSelectElement;
      const checkable = el instanceof HTMLInputElement && ['checkbox', 'radio'].includes(el.type);
      return {
        key: `${role}:${name}@${item ?? ''}`,
        role,
        name,
        item,
        checked: checkable
          ? (el as HTMLInputElement).checked
          : el.hasAttribute('aria-checked')
            ? el.getAttribute('aria-checked') === 'true'
            : null,
        value: field && !checkable ? (el as HTMLInputElement).value.slice(0, 200) : null,
        states: statesOf(el),
        disabled: (el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true',
        href: el instanceof HTMLAnchorElement ? el.href : null,
        type: el instanceof HTMLInputElement ? el.type : el.tagName.toLowerCase(),
        form: (() => {
          const f = (el as HTMLInputElement).form ?? el.closest('form');
          const i = f ? formEls.indexOf(f) : -1;
          return i >= 0 ? i : null;
        })(),
        options:
          el instanceof HTMLSelectElement
            ? Array.from(el.options)
                .map((o) => clean(o.text))
                .slice(0, 30)
            : [],
        leaves:
          el instanceof HTMLAnchorElement &&
          (el.target === '_blank' ||
            el.hasAttribute('download') ||
            !/^https?:$/.test(el.protocol) ||
            el.origin !== location.origin),
        required: (el as HTMLInputElement).required === true || el.getAttribute('aria-required') === 'true',
        near,
      };
    };
    const itemEls = shown.filter((el) => isItem(el));
    const items = keyed(
      itemEls.map((el) => {
        const label = itemLabel(el) ?? '';
        const box = el.querySelector<HTMLElement>('input[type=checkbox], [role=checkbox]');
        return {
          key: `${roleOf(el)}:${label}`,
          role: roleOf(el),
          label,
          text: ownText(el).slice(0, 200),
          states: statesOf(el),
          checked: box
            ? box instanceof HTMLInputElement
              ? box.checked
              : box.getAttribute('aria-checked') === 'true'
            : null,
        };
      }),
    );
    const controls = keyed(shown.filter((el) => isControl(el)).map((el) => describe(el)));
    const hiddenControls = keyed(
      itemEls
        .flatMap((el) => Array.from(el.querySelectorAll(CONTROL_SELECTOR)))
        .filter((el) => !visible(el) && itemOf(el) !== null && visible(itemOf(el)!))
        .map((el) => describe(el))
        .concat(
          // An icon button outside any item, shown only while its block is hovered (a bin beside a
          // heading): laid out but invisible, in a visible parent, found by its block's text (`near`).
          all
            .filter(
              (el) =>
                roleOf(el) === 'button' &&
                isControl(el) &&
                !visible(el) &&
                el.getClientRects().length > 0 &&
                itemOf(el) === null &&
                el.parentElement !== null &&
                visible(el.parentElement),
            )
            .map((el) => describe(el))
            .filter((c) => c.near !== null),
        ),
    );
    const INLINE = /^(SPAN|STRONG|B|EM|I|SMALL|CODE|MARK|ABBR|TIME|DATA|OUTPUT|SUP|SUB|U|S)$/;
    const phraseOf = (el: Element): Element => {
      let cur = el;
      while (cur.parentElement && cur.parentElement !== document.body) {
        const parent = cur.parentElement;
        if (!INLINE.test(parent.tagName) && parent.tagName !== 'P' && parent.tagName !== 'LABEL') break;
        if (isItem(parent) || isControl(parent)) break;
        if (clean(parent.textContent).length > 80) break;
        cur = parent;
      }
      return cur;
    };
    const phrases = new Set<Element>();
    for (const el of shown) {
      if (isControl(el) || el.closest('script, style, noscript, template')) continue;
      if (el.closest(CONTROL_SELECTOR)) continue;
      const hasOwn = Array.from(el.childNodes).some(
        (n) => n.nodeType === Node.TEXT_NODE && clean(n.textContent) !== '',
      );
      if (hasOwn) phrases.add(phraseOf(el));
    }
    // What a text captions (SnapshotText.caption). A row header (`<th scope="row">Food</th>`) is data.
    const CAPTION = 'thead th, th[scope="col"], [role="columnheader"], legend, label, dt';
    const isCaption = (el: Element, text: string): boolean => el.closest(CAPTION) !== null || /:$/.test(text);
    const texts = keyed(
      Array.from(phrases)
        .map((el) => {
          const text = ownText(el);
          const itemEl = itemOf(el);
          const item = itemLabel(itemEl);
          const parent = el.parentElement;
          const parentText = parent && parent !== itemEl ? ownText(parent) : '';
          const context =
            parentText &&
            parentText !== text &&
            parentText.length <= 60 &&
            !(parent && isItem(parent)) &&
            !parent?.querySelector(`${ITEM_SELECTOR}, ${CONTROL_SELECTOR}`)
              ? parentText
              : null;
          return {
            key: itemEl ? `item(${item})>${pathOf(el, itemEl)}` : pathOf(el, null),
            text,
            context,
            item,
            states: statesOf(el),
            caption: isCaption(el, text),
          };
        })
        .filter((t) => t.text !== '' && t.text.length <= 200),
    );
    const counts: Record<string, number> = {};
    for (const el of shown) {
      const role = roleOf(el);
      counts[role] = (counts[role] ?? 0) + 1;
    }
    const dialogs = shown
      .filter(
        (el) =>
          (el.tagName === 'DIALOG' && (el as HTMLDialogElement).open) ||
          ['dialog', 'alertdialog'].includes(el.getAttribute('role') ?? ''),
      )
      .map((el) => nameOf(el).slice(0, 80));
    const active = document.activeElement;
    const focused =
      active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement
        ? { label: nameOf(active), value: active.value }
        : null;
    return {
      url: location.href,
      title: document.title,
      items,
      controls,
      hiddenControls,
      forms,
      texts,
      dialogs,
      counts,
      focused,
    };
  });
}
