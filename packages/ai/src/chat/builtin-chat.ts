import { type BrowserSession, BUILTIN_ENGINE, type PageSnapshot, type SnapshotControl } from '@argus/engine';
import { parseStep, q, type Step } from '@argus/protocol';
import { checkLine, clickLine, hoverLine } from '../llm/page-view';
import { answerQuestion } from './answers';
import { ActionFailed, ActionLog, doneText, firstLine, mustRethrow, NotOnPage, pageNow } from './chat-common';
import type { ChatContext, ChatPlanner, ChatTurn } from './chat-planner';
import { hrefWords, isTextField, listNames, MATCH_THRESHOLD, rank, similarity } from './match';
import { type Intent, parseIntent, splitClauses, stepLanguage } from './phrases';

/** What the built-in engine understands, for the reply to a message it does not. */
export const BUILTIN_CHAT_HELP = [
  'Without an AI model I follow simple instructions about the page in front of me, for example:',
  '- "go to the products page", "open https://example.com", "go back", "reload"',
  '- "click Sign in", "press the Search button", "hover over Products"',
  '- "search for shoes", "fill the email with qa@example.com", "select \'Order support\' from topic", "check \'Remember me\'"',
  '- "scroll down", "scroll to the bottom", "press Enter", "wait 2 seconds"',
  '- questions: "what is on this page?", "where am I?", "what links are there?", "is there a sign in button?"',
  '- any line of the step language (Click link "Pricing"), several joined with "then".',
  'An LLM engine (choose a model in Settings) understands free-form requests.',
].join('\n');

const CLICKABLE = new Set(['button', 'link', 'tab', 'menuitem', 'option', 'switch', 'checkbox', 'radio']);

/**
 * The rule-based chat planner: no model. It performs step-language lines as they are, and plain
 * phrasings ('go to the products page', 'search for shoes', 'fill the email with …') resolved against
 * the page's controls; it answers questions about the page from what it observes. Every action is a
 * step-language line (so a conversation can be saved as a test), reported as it is done.
 */
export class BuiltinChatPlanner implements ChatPlanner {
  readonly engine = BUILTIN_ENGINE;

  async turn(session: BrowserSession, message: string, context: ChatContext = {}): Promise<ChatTurn> {
    const log = new ActionLog(session, context);
    log.checkpoint();
    const text = message.trim();
    const reply = (r: string): ChatTurn => ({ reply: r, actions: log.actions, engine: this.engine });
    if (text === '') return reply(`Tell me what to do in the browser.\n${BUILTIN_CHAT_HELP}`);

    // A whole line of the step language is taken as it is, commas and all.
    const whole = text.includes('\n') ? null : stepLanguage(text);
    const clauses = whole ? [text] : splitClauses(text);
    const intents = whole
      ? [{ clause: text, intent: { kind: 'step', step: whole } as Intent }]
      : clauses.map((clause) => ({ clause, intent: parseIntent(clause) }));
    const unknown = intents.find((i) => i.intent === null);
    if (unknown || intents.length === 0) {
      const part = unknown && intents.length > 1 ? ` (in "${text.slice(0, 300)}")` : '';
      return reply(
        `I could not understand "${(unknown?.clause ?? text).slice(0, 300)}"${part}.\n${BUILTIN_CHAT_HELP}`,
      );
    }

    const said: string[] = [];
    let failure: string | null = null;
    for (let i = 0; i < intents.length; i++) {
      const intent = intents[i].intent as Intent;
      log.checkpoint();
      try {
        const answer = await this.carryOut(session, intent, log);
        if (answer) said.push(answer);
      } catch (error) {
        if (mustRethrow(error, session)) throw error;
        const rest = intents.slice(i + 1).map((r) => r.clause);
        const notDone = rest.length ? `\nNot done: ${rest.map((r) => `"${r}"`).join(', ')}.` : '';
        if (error instanceof ActionFailed)
          failure = `${log.actions.length ? 'Then this' : 'This'} failed: ${error.line} — ${error.reason}${notDone}`;
        else if (error instanceof NotOnPage) failure = `${error.message}${notDone}`;
        else failure = `Something went wrong: ${firstLine(error)}${notDone}`;
        break;
      }
    }
    const parts = [doneText(log.actions), failure ?? '', ...said].filter(Boolean);
    if (log.actions.length > 0 || failure) parts.push(await pageNow(session, context.signal));
    return reply(parts.join('\n'));
  }

  /** Does what one clause asks; answers the reply to a question. */
  private async carryOut(session: BrowserSession, intent: Intent, log: ActionLog): Promise<string | null> {
    switch (intent.kind) {
      case 'ask':
        return answerQuestion(session, intent.question, log.signal);
      default:
        await this.act(session, intent, log);
        return null;
    }
  }

  private async act(
    session: BrowserSession,
    intent: Exclude<Intent, { kind: 'ask' }>,
    log: ActionLog,
  ): Promise<void> {
    const snapshot = () => session.snapshot({ signal: log.signal, timeoutMs: log.timeoutMs });
    switch (intent.kind) {
      case 'step':
        return log.perform(intent.step);
      case 'scroll': {
        const { width, height } = session.viewport;
        const deltaY = Math.round(height * 0.8) * (intent.direction === 'down' ? 1 : -1);
        return log.input(`Scroll ${intent.direction}`, `Scrolled ${intent.direction}`, () =>
          session.wheel(
            { x: Math.round(width / 2), y: Math.round(height / 2), deltaX: 0, deltaY },
            { signal: log.signal, timeoutMs: log.timeoutMs },
          ),
        );
      }
      case 'goto':
        return this.goTo(await snapshot(), intent.target, log);
      case 'click':
        return this.click(await snapshot(), intent.target, intent.role, log);
      case 'search':
        return this.search(session, intent.query, log);
      case 'fill':
        return this.fill(await snapshot(), intent.field, intent.value, log);
      case 'select':
        return this.select(await snapshot(), intent.option, intent.field, log);
      case 'check':
        return this.check(await snapshot(), intent.target, intent.checked, log);
      case 'hover':
        return this.hover(await snapshot(), intent.target, log);
      case 'scrollTo':
        return this.scrollTo(await snapshot(), intent.target, log);
    }
  }

  private async goTo(page: PageSnapshot, target: string, log: ActionLog): Promise<void> {
    const candidates = allControls(page).filter((c) =>
      ['link', 'button', 'tab', 'menuitem'].includes(c.role),
    );
    const best = rank(
      candidates,
      (c) =>
        Math.max(similarity(c.name, target), 0.9 * similarity(hrefWords(c.href), target)) +
        (c.role === 'link' ? 0.01 : 0),
    )[0];
    if (!best) {
      const links = page.controls.filter((c) => c.role === 'link').map((c) => c.name);
      throw new NotOnPage(
        `I found no link or button for "${target}" on this page${links.length ? `; its links are ${listNames(links, 12)}` : ''}. Name the link as the page shows it, or give an address (go to https://…).`,
      );
    }
    await this.clickControl(page, best.item, log);
  }

  private async click(
    page: PageSnapshot,
    target: string,
    role: string | undefined,
    log: ActionLog,
  ): Promise<void> {
    const controls = allControls(page).filter((c) => CLICKABLE.has(c.role) || !isTextField(c));
    const ranked = rank(controls, (c) => similarity(c.name, target) + (role && c.role === role ? 0.15 : 0));
    const best = (role ? ranked.find((r) => r.item.role === role) : undefined) ?? ranked[0];
    if (best) return this.clickControl(page, best.item, log);
    const text = rank(page.texts, (t) => similarity(t.text, target))[0];
    if (text && text.score >= 0.6)
      return log.perform({ verb: 'click', target: text.item.text.slice(0, 200) });
    const buttons = page.controls.filter((c) => c.role === 'button').map((c) => c.name);
    const links = page.controls.filter((c) => c.role === 'link').map((c) => c.name);
    throw new NotOnPage(
      `I found nothing called "${target}" to click on this page.${buttons.length ? ` Buttons: ${listNames(buttons, 8)}.` : ''}${links.length ? ` Links: ${listNames(links, 10)}.` : ''}`,
    );
  }

  private clickControl(page: PageSnapshot, control: SnapshotControl, log: ActionLog): Promise<void> {
    // An item that is the control itself (a nav link in its own <li>) narrows nothing.
    const own = control.item?.trim().toLowerCase() === control.name.trim().toLowerCase();
    const controls = allControls(page).map((c) => (own && c === control ? { ...c, item: null } : c));
    return log.perform(parseStep(clickLine(controls, controls[allControls(page).indexOf(control)])));
  }

  private async search(session: BrowserSession, query: string, log: ActionLog): Promise<void> {
    const read = () => session.snapshot({ signal: log.signal, timeoutMs: log.timeoutMs });
    let page = await read();
    let field = searchField(page);
    if (!field) {
      // No search field here: a link or button to the search page first.
      const to = rank(
        page.controls.filter((c) => ['link', 'button'].includes(c.role)),
        (c) => (/\bsearch\b/i.test(c.name) ? similarity(c.name, 'search') + 0.1 : 0),
      )[0];
      if (!to) throw new NotOnPage(`There is no search field on this page, nor a link to one.`);
      await this.clickControl(page, to.item, log);
      page = await read();
      field = searchField(page);
      if (!field) throw new NotOnPage(`I opened "${to.item.name}", but found no search field there either.`);
    }
    await log.perform(
      { verb: 'fill', field: field.name, value: query },
      `Typed ${q(query)} into the search field ${q(field.name)}`,
    );
    await log.perform({ verb: 'press', key: 'Enter', field: field.name }, 'Pressed Enter to search');
  }

  private async fill(page: PageSnapshot, fieldWords: string, value: string, log: ActionLog): Promise<void> {
    const fields = allControls(page).filter(isTextField);
    const best = rank(fields, (c) =>
      Math.max(similarity(c.name, fieldWords), typeMatches(c, fieldWords) ? 0.8 : 0),
    )[0]?.item;
    const field =
      best ??
      (fieldWords === ''
        ? (fields.find((f) => f.name === page.focused?.label) ??
          (fields.length === 1 ? fields[0] : undefined))
        : undefined);
    if (!field?.name) {
      throw new NotOnPage(
        `I found no field like "${fieldWords}" on this page${fields.length ? `; its fields are ${listNames(fields.map((f) => f.name))}` : ' (it has no text fields)'}.`,
      );
    }
    const step: Step =
      value === '' ? { verb: 'clear', field: field.name } : { verb: 'fill', field: field.name, value };
    await log.perform(step);
  }

  private async select(
    page: PageSnapshot,
    option: string,
    fieldWords: string | undefined,
    log: ActionLog,
  ): Promise<void> {
    const selects = allControls(page).filter((c) => c.options.length > 0);
    const byOption = (c: SnapshotControl) => rank(c.options, (o) => similarity(o, option))[0];
    let control: SnapshotControl | undefined;
    if (fieldWords) control = rank(selects, (c) => similarity(c.name, fieldWords))[0]?.item;
    else control = rank(selects, (c) => byOption(c)?.score ?? 0)[0]?.item;
    if (!control) {
      // 'select X' may also mean a checkbox or a radio button, or a button to click.
      if (!fieldWords) return this.click(page, option, undefined, log);
      throw new NotOnPage(
        `I found no list called "${fieldWords}" on this page${selects.length ? `; its lists are ${listNames(selects.map((s) => s.name))}` : ''}.`,
      );
    }
    const picked = byOption(control);
    if (!picked)
      throw new NotOnPage(
        `"${control.name}" has no option like "${option}"; its options are ${listNames(control.options, 12)}.`,
      );
    await log.perform({ verb: 'select', option: picked.item, field: control.name });
  }

  private async check(page: PageSnapshot, target: string, checked: boolean, log: ActionLog): Promise<void> {
    const controls = allControls(page);
    const boxes = controls.filter(
      (c) => c.checked !== null || ['checkbox', 'radio', 'switch'].includes(c.role),
    );
    const box = rank(
      boxes.filter((b) => b.name),
      (b) => similarity(b.name, target),
    )[0]?.item;
    if (box) return log.perform(parseStep(checkLine(controls, box, checked)));
    const item = rank(
      page.items.filter((i) => i.checked !== null),
      (i) => similarity(i.label, target),
    )[0]?.item;
    if (item) return log.perform({ verb: 'check', checked, region: item.label });
    throw new NotOnPage(
      `I found no checkbox for "${target}" on this page${boxes.length ? `; its checkboxes are ${listNames(boxes.map((b) => b.name || '(unnamed)'))}` : ''}.`,
    );
  }

  private async hover(page: PageSnapshot, target: string, log: ActionLog): Promise<void> {
    const controls = allControls(page);
    const control = rank(
      controls.filter((c) => c.name),
      (c) => similarity(c.name, target),
    )[0]?.item;
    if (control) return log.perform(parseStep(hoverLine(controls, control)));
    const text = rank(page.texts, (t) => similarity(t.text, target))[0];
    if (text) return log.perform({ verb: 'hover', target: text.item.text.slice(0, 200) });
    throw new NotOnPage(`I found nothing called "${target}" on this page to move the mouse over.`);
  }

  private async scrollTo(page: PageSnapshot, target: string, log: ActionLog): Promise<void> {
    const names = [...page.texts.map((t) => t.text), ...allControls(page).map((c) => c.name)];
    const best = rank(names, (n) => similarity(n, target))[0];
    await log.perform({
      verb: 'scroll',
      target: best && best.score >= MATCH_THRESHOLD ? best.item.slice(0, 200) : target,
    });
  }
}

function allControls(page: PageSnapshot): SnapshotControl[] {
  return [...page.controls, ...page.hiddenControls];
}

/** 'email' names an email field, 'password' a password field, 'search' a search field. */
function typeMatches(control: SnapshotControl, words: string): boolean {
  const w = words.toLowerCase();
  if (/\be-?mail\b/.test(w)) return control.type === 'email';
  if (/\bpassword\b/.test(w)) return control.type === 'password';
  if (/\bsearch\b/.test(w)) return control.type === 'search' || control.role === 'searchbox';
  if (/\b(?:phone|tel|telephone)\b/.test(w)) return control.type === 'tel';
  return false;
}

/** The page's search field: a search input, or a field named or placed as one. */
function searchField(page: PageSnapshot): SnapshotControl | undefined {
  const fields = page.controls.filter((c) => isTextField(c) && c.name);
  return (
    fields.find((c) => c.type === 'search' || c.role === 'searchbox') ??
    fields.find((c) => /\b(?:search|find|query|look ?up)\b/i.test(c.name)) ??
    fields.find(
      (c) => c.form !== null && /search|[?&/]q\b|query|find/i.test(page.forms[c.form]?.action ?? ''),
    )
  );
}
