import { parseStep, type Step, StepSyntaxError, type TargetRole } from '@argus/protocol';

/**
 * What one clause of a chat message asks for, before it is resolved against the page: a step-language
 * line as it is, or a plain phrasing whose target ('the pricing page', 'the email') the page decides.
 */
export type Intent =
  | { kind: 'step'; step: Step }
  /** A page named in words: the link or button that leads there. */
  | { kind: 'goto'; target: string }
  | { kind: 'search'; query: string }
  | { kind: 'click'; target: string; role?: TargetRole }
  | { kind: 'fill'; field: string; value: string }
  | { kind: 'select'; option: string; field?: string }
  | { kind: 'check'; target: string; checked: boolean }
  | { kind: 'hover'; target: string }
  | { kind: 'scroll'; direction: 'down' | 'up' }
  | { kind: 'scrollTo'; target: string }
  | { kind: 'ask'; question: string };

const QUOTES = /"[^"]*"|“[^”]*”|‘[^’]*’|(?<![\w])'[^']*'(?![\w])/g;

/**
 * Splits a message into clauses: lines, sentences, and parts joined with ';', ',', 'then', 'and then',
 * 'after that'. Quoted text is never split.
 */
export function splitClauses(message: string): string[] {
  // Quoted spans are masked so that separators inside them do not count.
  const masked = message.replace(QUOTES, (m) => '\u0000'.repeat(m.length));
  const separator =
    /\s*(?:\r?\n|;|,\s*(?:and\s+)?(?:then|after that|afterwards)\b|\b(?:and\s+)?then\b|\bafter that\b|,(?=\s)|\.(?=\s+\S))\s*/gi;
  const parts: string[] = [];
  let start = 0;
  for (const match of masked.matchAll(separator)) {
    const at = match.index ?? 0;
    parts.push(message.slice(start, at));
    start = at + match[0].length;
  }
  parts.push(message.slice(start));
  return parts
    .map((p) =>
      p
        .trim()
        .replace(/[.!]+$/, '')
        .trim(),
    )
    .filter((p) => p !== '');
}

const POLITE_START =
  /^(?:(?:ok(?:ay)?|now|so|next|first|finally|also|and|please|pls|hey|hi)\b[,!]?\s*|(?:can|could|would|will) you(?: please)?\s+|i(?:'d| would) like (?:you )?to\s+|i want (?:you )?to\s+|i need (?:you )?to\s+|let(?:'s| us)\s+|try (?:to )?|go ahead and\s+)+/i;
const POLITE_END = /(?:[,\s]+(?:please|for me|thanks|thank you|now))+$|[?!.]+$/i;

/** The clause without 'please', 'can you', 'for me' and a final '?'. */
export function stripPolite(clause: string): string {
  let text = clause.trim();
  for (let i = 0; i < 3; i++) {
    const next = text.replace(POLITE_START, '').replace(POLITE_END, '').trim();
    if (next === text) break;
    text = next;
  }
  return text;
}

const REQUEST_START = /^(?:please\s+)?(?:can|could|would|will) you\b/i;
const QUESTION_START =
  /^(?:what(?:'s|s)?|where(?:'s)?|which|who|why|how|when|is|are|isn't|aren't|does|do|did|can i|could i|may i|should i|was|were|has|have|tell me|describe|summari[sz]e|list)\b/i;

/** Whether the clause asks about the page rather than for an action ('can you click…?' is a request). */
export function isQuestion(clause: string): boolean {
  const text = clause.trim();
  if (REQUEST_START.test(text)) return false;
  return text.endsWith('?') || QUESTION_START.test(text);
}

const KEYS: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  escape: 'Escape',
  esc: 'Escape',
  tab: 'Tab',
  space: 'Space',
  spacebar: 'Space',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
};

/** A key as Playwright names it ('escape' → 'Escape'), or null when the words name no key. */
export function keyName(words: string): string | null {
  const compact = words
    .toLowerCase()
    .replace(/\b(?:the|key|button)\b/g, '')
    .replace(/[\s_-]+/g, '');
  if (KEYS[compact]) return KEYS[compact];
  // Chords and single characters as written: Control+A, a.
  if (/^[A-Za-z0-9]$/.test(words.trim())) return words.trim();
  if (/^(?:control|ctrl|shift|alt|meta)\+[A-Za-z0-9]+$/i.test(words.trim()))
    return words
      .trim()
      .split('+')
      .map((k) =>
        k.toLowerCase() === 'ctrl' ? 'Control' : k.length > 1 ? k[0].toUpperCase() + k.slice(1) : k,
      )
      .join('+');
  return null;
}

/** The value without the quotes around it. */
export function unquote(text: string): string {
  const t = text.trim();
  const m = /^(?:"(.*)"|“(.*)”|‘(.*)’|'(.*)')$/s.exec(t);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4]) : t;
}

const ROLE_WORDS: Record<string, TargetRole> = {
  button: 'button',
  link: 'link',
  tab: 'tab',
  checkbox: 'checkbox',
  'menu item': 'menuitem',
  option: 'option',
};

/** 'the "Sign in" button' → { target: 'Sign in', role: 'button' }. */
export function targetOf(words: string): { target: string; role?: TargetRole } {
  let text = words.trim();
  let role: TargetRole | undefined;
  const suffix = /\s+(button|link|tab|checkbox|menu item|option)$/i.exec(text);
  if (suffix) {
    role = ROLE_WORDS[suffix[1].toLowerCase()];
    text = text.slice(0, suffix.index);
  }
  const prefix = /^(?:on\s+)?(?:the|a|an|that|this)?\s*(button|link|tab|checkbox)\s+(?=["“‘'])/i.exec(text);
  if (prefix) {
    role = ROLE_WORDS[prefix[1].toLowerCase()];
    text = text.slice(prefix[0].length);
  }
  text = text.replace(/^(?:on\s+)?(?:the|a|an|that|this)\s+/i, '').trim();
  return { target: unquote(text), ...(role ? { role } : {}) };
}

/** 'the email field' → 'email'. */
export function fieldOf(words: string): string {
  return unquote(
    words
      .trim()
      .replace(/^(?:the|a|an|my)\s+/i, '')
      .replace(/\s+(?:field|box|input|textbox|text box|text field|area|textarea)$/i, '')
      .trim(),
  );
}

/** 'the pricing page' → 'pricing'. */
export function pageNameOf(words: string): string {
  return unquote(
    words
      .trim()
      .replace(/^(?:the|a|an|our|my|your)\s+/i, '')
      .replace(/(?:'s)?\s+(?:page|section|screen|tab|site|link|area)$/i, '')
      .trim(),
  );
}

/** An address someone typed: a URL with a scheme, a path, or a host name (example.com, localhost:3000). */
export function looksLikeAddress(text: string): boolean {
  const t = text.trim();
  if (/\s/.test(t) || t === '') return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t) || /^(?:\/|\.\.?\/|\?|#)/.test(t)) return true;
  if (/^localhost(?::\d+)?(?:[/?#].*)?$/i.test(t)) return true;
  if (/^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:[/?#].*)?$/.test(t)) return true;
  return /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:[/?#].*)?$/i.test(t);
}

/** A bare host ('example.com') gets https://; a path or a file name ('about.html') stays relative. */
export function addressUrl(text: string): string {
  const t = text.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(t) || /^(?:\/|\.\.?\/|\?|#)/.test(t)) return t;
  const host = t.split(/[/?#:]/, 1)[0];
  if (/\.(?:html?|php|aspx?|jsp|xml|json|txt)$/i.test(host)) return t;
  if (/^localhost$/i.test(host) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return `http://${t}`;
  return `https://${t}`;
}

function stepOf(text: string): Step | null {
  try {
    return parseStep(text);
  } catch (error) {
    if (error instanceof StepSyntaxError) return null;
    throw error;
  }
}

/** A clause of the step language as is: null when it does not parse or only looks like it does. */
export function stepLanguage(clause: string): Step | null {
  const step = stepOf(clause);
  if (!step) return null;
  // 'open pricing' parses as Navigate to pricing; a bare word is a page's name, not an address.
  if (
    step.verb === 'navigate' &&
    !looksLikeAddress(step.url) &&
    !/^["'“‘]/.test(clause.split(/\s+/).pop() ?? '')
  )
    return null;
  // In a chat, a bare host ('example.com') is a site, not a path on the current one.
  if (step.verb === 'navigate') return { ...step, url: addressUrl(step.url) };
  if (step.verb === 'press') {
    const key = keyName(step.key) ?? step.key;
    return { ...step, key };
  }
  return step;
}

type PhraseRule = [RegExp, (m: RegExpExecArray) => Intent | null];

const SCROLL_TO_END =
  /^scroll(?: the page)?(?: all the way)?(?: (?:down|up))? to (?:the )?(bottom|top|end|start|beginning)(?: of (?:the|this) page)?$/i;

const RULES: PhraseRule[] = [
  [
    /^(?:go |navigate |move )?back(?: to the previous page)?$/i,
    () => ({ kind: 'step', step: { verb: 'back' } }),
  ],
  [/^(?:go to |show )?(?:the )?previous page$/i, () => ({ kind: 'step', step: { verb: 'back' } })],
  [/^(?:reload|refresh)(?: (?:the|this) page)?$/i, () => ({ kind: 'step', step: { verb: 'reload' } })],
  [
    SCROLL_TO_END,
    (m) => ({
      kind: 'step',
      step: { verb: 'scroll', target: /bottom|end/i.test(m[1]) ? 'bottom' : 'top' },
    }),
  ],
  [
    /^(?:scroll|page)(?: the page)? (down|up)(?: (?:a bit|a little|some|more|a page|one page|the page))?$/i,
    (m) => ({ kind: 'scroll', direction: m[1].toLowerCase() as 'down' | 'up' }),
  ],
  [/^scroll$/i, () => ({ kind: 'scroll', direction: 'down' })],
  [/^scroll (?:down |up )?to (?:the )?(.+)$/i, (m) => ({ kind: 'scrollTo', target: targetOf(m[1]).target })],
  [
    /^(?:wait|pause|sleep)(?: for)? (?:(an?|one|\d+(?:\.\d+)?)\s*)(seconds?|secs?|s|milliseconds?|ms|minute)$/i,
    (m) => {
      const n = /^(?:an?|one)$/i.test(m[1]) ? 1 : Number(m[1]);
      const ms = /^m(?:s|illi)/i.test(m[2]) ? n : /^minute/i.test(m[2]) ? n * 60_000 : n * 1000;
      return { kind: 'step', step: { verb: 'wait', ms: Math.min(30_000, Math.round(ms)) } };
    },
  ],
  [
    /^wait (?:for|until)(?: the text)? (.+?)(?: (?:appears|shows|is visible|to appear|to show))?$/i,
    (m) => ({ kind: 'step', step: { verb: 'waitForText', text: unquote(m[1]) } }),
  ],
  [
    /^(?:press|hit|push|tap|type)\s+(?:the\s+)?(.+?)(?:\s+key)?$/i,
    (m) => {
      const key = keyName(m[1]);
      return key ? { kind: 'step', step: { verb: 'press', key } } : null;
    },
  ],
  [
    /^(?:search|look)(?: for| up)?\s+(.+?)(?:\s+(?:on|in) (?:the |this )?(?:site|page|shop|store|website))?$/i,
    (m) => ({ kind: 'search', query: unquote(m[1]) }),
  ],
  [
    /^(?:fill(?: in| out)?|set|change)\s+(.+?)\s+(?:with|to|as)\s+(.+)$/i,
    (m) => ({ kind: 'fill', field: fieldOf(m[1]), value: unquote(m[2]) }),
  ],
  [
    /^(?:type|enter|write|input|put|add)\s+(.+)\s+(?:into|in|in to|inside|to)\s+(?:the\s+)?(.+)$/i,
    (m) => ({ kind: 'fill', field: fieldOf(m[2]), value: unquote(m[1]) }),
  ],
  [/^type\s+(.+)$/i, (m) => ({ kind: 'step', step: { verb: 'type', value: unquote(m[1]) } })],
  [/^clear\s+(.+)$/i, (m) => ({ kind: 'fill', field: fieldOf(m[1]), value: '' })],
  [
    /^(?:select|choose|pick)\s+(.+?)\s+(?:from|in|for|on)\s+(?:the\s+)?(.+?)(?:\s+(?:menu|dropdown|drop-down|list|field|select|options))?$/i,
    (m) => ({ kind: 'select', option: unquote(m[1]), field: fieldOf(m[2]) }),
  ],
  [
    /^(check|tick|mark|uncheck|untick|unmark)\s+(?!that\b|if\b|whether\b)(.+?)(?:\s+(?:checkbox|box|option|as (?:done|complete|completed)))?$/i,
    (m) => ({
      kind: 'check',
      target: targetOf(m[2]).target,
      checked: !/^un/i.test(m[1]),
    }),
  ],
  [
    /^(?:hover|mouse)(?: over| on| onto)?\s+(.+)$|^move the (?:mouse|pointer|cursor) (?:over|to|onto)\s+(.+)$/i,
    (m) => ({ kind: 'hover', target: targetOf(m[1] ?? m[2]).target }),
  ],
  [
    /^(?:go|navigate|browse|head|take me|bring me|get me|jump|switch)(?: over| back)?(?: to| into)\s+(.+)$/i,
    (m) => gotoIntent(m[1]),
  ],
  [/^(?:open|visit|load|show me|show|view)\s+(.+)$/i, (m) => gotoIntent(m[1])],
  [
    /^(?:click|tap|press|hit|push|select|choose|pick|activate|follow)(?: on)?\s+(.+)$/i,
    (m) => {
      const { target, role } = targetOf(m[1]);
      return target ? { kind: 'click', target, ...(role ? { role } : {}) } : null;
    },
  ],
  [/^(?:sign|log) ?(?:in|on)$/i, () => ({ kind: 'click', target: 'Sign in' })],
];

function gotoIntent(words: string): Intent {
  const text = unquote(words.trim());
  if (looksLikeAddress(text)) return { kind: 'step', step: { verb: 'navigate', url: addressUrl(text) } };
  const end = /^(?:the )?(top|bottom)(?: of (?:the|this) page)?$/i.exec(text);
  if (end) return { kind: 'step', step: { verb: 'scroll', target: end[1].toLowerCase() } };
  return { kind: 'goto', target: pageNameOf(text) };
}

/**
 * What a clause asks for, or null when no rule reads it. Questions come first ('is there a search
 * box?'), then the step language as it is, then plain phrasings.
 */
export function parseIntent(clause: string): Intent | null {
  const raw = clause.trim();
  if (raw === '') return null;
  if (isQuestion(raw)) return { kind: 'ask', question: raw };
  const step = stepLanguage(raw) ?? stepLanguage(stripPolite(raw));
  if (step) return { kind: 'step', step };
  const text = stripPolite(raw);
  if (text === '') return null;
  for (const [pattern, build] of RULES) {
    const m = pattern.exec(text);
    if (!m) continue;
    const intent = build(m);
    if (intent) return intent;
  }
  return null;
}
