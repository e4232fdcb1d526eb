import { parseStep, type Step } from '@argus/protocol';
import type { SessionOpener } from './browser-pool';
import type { BrowserSession, Screenshot, StorageState } from './browser-session';
import { AbortedError, abortableDelay, cleanError } from './errors';
import type { SessionRenewal } from './session-renewal';
import { totpCode } from './totp';
import { fillText, type StepVariables } from './variables';
import { resolveWebUrl } from './web-url';

/**
 * How to sign in to a project's app (docs/PROJECTS.md#sites-behind-a-login): with credentials, the
 * engine opens the sign-in page and fills its form as a person would; with recorded steps, it performs
 * them. Values are the names of the environment's variables and secrets, never the values.
 */
export type SignInPlan =
  | {
      mode: 'credentials';
      /** Absolute, or relative to the environment's base URL. */
      loginUrl: string;
      /** Variable names: the username or email, the password, and the TOTP secret if the site asks a code. */
      username: string;
      password: string;
      totp?: string | null;
    }
  | { mode: 'steps'; steps: string[] };

/** Argus could not sign in: the reason in words, and the page as it was when it gave up. */
export class SignInError extends Error {
  override name = 'SignInError';
  constructor(
    message: string,
    readonly screenshot?: Screenshot,
  ) {
    super(message);
  }
}

export interface SignInOptions {
  baseUrl: string;
  variables: StepVariables;
  viewport?: { width: number; height: number };
  signal?: AbortSignal;
  /** Each navigation, field and wait of the sign-in. @default 15000 */
  stepTimeoutMs?: number;
}

/**
 * Signs in once in a fresh session and answers its storage state, from which every test case and
 * exploration of the run starts. Throws SignInError (with a screenshot of where it stopped).
 */
export async function signIn(
  pool: SessionOpener,
  plan: SignInPlan,
  options: SignInOptions,
): Promise<{ state: StorageState; form: string | null }> {
  const session = await pool.openSession({
    viewport: options.viewport,
    signal: options.signal,
    baseUrl: options.baseUrl,
    variables: options.variables,
  });
  try {
    const form = await signInHere(session, plan, options);
    return { state: await session.storageState(), form };
  } catch (error) {
    if (error instanceof AbortedError || options.signal?.aborted) throw error;
    const screenshot = session.closed ? undefined : await session.screenshot().catch(() => undefined);
    const reason = error instanceof SignInError ? error.message : cleanError(error);
    throw new SignInError(session.hideSecrets(reason), screenshot);
  } finally {
    await session.close();
  }
}

/** The page that means "signed out": the login page's address (origin and path), or null when unknown. */
export function signInPageOf(plan: SignInPlan, baseUrl: string): URL | null {
  if (plan.mode === 'credentials') return new URL(resolveWebUrl(plan.loginUrl, baseUrl));
  for (const line of plan.steps) {
    const step = safeParse(line);
    if (step?.verb === 'navigate' && !step.url.includes('{{'))
      return new URL(resolveWebUrl(step.url, baseUrl));
  }
  return null;
}

/** Whether an address is the sign-in page's (the same origin and path; the query aside). */
export function isSignInAddress(url: string, page: URL | null): boolean {
  if (!page) return false;
  try {
    const now = new URL(url);
    return now.origin === page.origin && now.pathname.replace(/\/$/, '') === page.pathname.replace(/\/$/, '');
  } catch {
    // not a web page: not the sign-in page by its address
    return false;
  }
}

/** Whether the session shows the sign-in page (a session that expired lands there). */
export async function onSignInPage(
  session: BrowserSession,
  page: URL | null,
  form: string | null = null,
): Promise<boolean> {
  if (isSignInAddress(session.url, page)) return true;
  // An app may show its sign-in form at the address asked for, without a redirect: the same form
  // (the same visible fields) the run signed in with means signed out, wherever it shows.
  if (!form || session.closed) return false;
  return (await session.evaluate(signInFormSignature, null).catch(() => null)) === form;
}

/**
 * The visible form holding a visible password field, as its visible fields (tag, type and name or
 * id, in order), or null when the page shows no password field. Runs in the page.
 */
function signInFormSignature(): string | null {
  const visible = (el: Element) => {
    const box = (el as HTMLElement).getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const password = [...document.querySelectorAll('input[type="password"]')].find(visible) as
    | HTMLInputElement
    | undefined;
  if (!password) return null;
  const scope: ParentNode = password.form ?? document;
  const skipped = ['hidden', 'submit', 'button', 'image', 'reset'];
  return [...scope.querySelectorAll('input, select, textarea')]
    .filter((el) => visible(el) && !skipped.includes((el as HTMLInputElement).type))
    .map((el) => {
      const field = el as HTMLInputElement;
      return `${field.tagName.toLowerCase()}:${field.type}:${field.name || field.id}`;
    })
    .join('|');
}

/**
 * Signs in within `session` (the first sign-in, or again after the session expired). Throws on
 * failure. Answers the sign-in form it filled (`signInFormSignature`), or null when it saw none.
 */
export async function signInHere(
  session: BrowserSession,
  plan: SignInPlan,
  options: Omit<SignInOptions, 'viewport'>,
): Promise<string | null> {
  const timeoutMs = options.stepTimeoutMs ?? 15_000;
  const formShown = () => session.evaluate(signInFormSignature, null).catch(() => null);
  if (plan.mode === 'steps') {
    let form: string | null = null;
    for (const [index, line] of plan.steps.entries()) {
      const step = safeParse(line);
      if (!step) throw new SignInError(`login step ${index + 1} is not in the step language: ${line}`);
      // The last password form shown before a step is the one the recorded login filled.
      if (index > 0) form = (await formShown()) ?? form;
      try {
        await session.perform(step, { signal: options.signal, timeoutMs });
      } catch (error) {
        if (error instanceof AbortedError) throw error;
        throw new SignInError(`login step ${index + 1} (${line}) failed: ${cleanError(error)}`);
      }
    }
    return form;
  }
  const value = (name: string) => fillText(`{{${name}}}`, options.variables);
  // Checked before the browser is touched: a missing value is a configuration problem, said as such.
  const username = value(plan.username);
  const password = value(plan.password);
  const totpSecret = plan.totp ? value(plan.totp) : null;
  const url = resolveWebUrl(plan.loginUrl, options.baseUrl);
  const opened = await session.navigate(url, { signal: options.signal, timeoutMs });
  if (opened.status >= 400) throw new SignInError(`the sign-in page ${url} answered HTTP ${opened.status}`);
  const form = await waitFor(
    () => session.evaluate(readSignInForm, null),
    (f) => f.password,
    {
      timeoutMs,
      signal: options.signal,
    },
  );
  if (!form.password) {
    throw new SignInError(
      `no sign-in form on ${session.url}: no password field was found (has the sign-in page changed?)`,
    );
  }
  const signature = await formShown();
  if (form.username) {
    await session.evaluate(focusField, 'username');
    await session.type(username, { signal: options.signal });
  }
  await session.evaluate(focusField, 'password');
  await session.type(password, { signal: options.signal });
  const before = session.url;
  await submit(session, options.signal, timeoutMs);
  let after = await settled(session, before, options.signal, timeoutMs);
  if (after.code) {
    if (!totpSecret) {
      throw new SignInError(
        "the site asks for a two-factor code, and the project's login names no TOTP secret to make one",
      );
    }
    const code = totp(totpSecret);
    await session.evaluate(focusField, 'code');
    await session.type(code, { signal: options.signal });
    const codePage = session.url;
    await submit(session, options.signal, timeoutMs);
    after = await settled(session, codePage, options.signal, timeoutMs);
    if (after.code) {
      throw new SignInError(
        `the two-factor code was not accepted${after.message ? `: the page says "${after.message}"` : ''}`,
      );
    }
  }
  if (after.password) {
    throw new SignInError(
      `still on the sign-in page after submitting the username and password${
        after.message ? `: the page says "${after.message}"` : ' (wrong username or password?)'
      }`,
    );
  }
  return signature;
}

/** The current code of a TOTP secret (base32, as sites show it for authenticator apps; an otpauth:// URI too). */
function totp(secret: string): string {
  try {
    return totpCode(secret);
  } catch {
    throw new SignInError('the TOTP secret is not a base32 secret or otpauth:// URI');
  }
}

/** Presses Enter in the focused field, as a person does; the form's own button when Enter did nothing. */
async function submit(session: BrowserSession, signal: AbortSignal | undefined, timeoutMs: number) {
  const before = session.url;
  await session.perform({ verb: 'press', key: 'Enter' }, { signal, timeoutMs });
  if (session.url !== before) return;
  await abortableDelay(300, signal);
  if (session.url !== before) return;
  const state = await session.evaluate(readSignInForm, null).catch(() => null);
  if (state && (state.password || state.code)) await session.evaluate(clickSubmit, null).catch(() => {});
}

interface FormState {
  /** A visible password field. */
  password: boolean;
  /** A visible username or email field before it (or in the same form). */
  username: boolean;
  /** A visible one-time-code field (and no password field). */
  code: boolean;
  /** What the page says about the attempt (an alert or error text), if anything. */
  message: string;
}

/** Waits for the page to move on from the submit: the sign-in fields gone, a code asked, or a message. */
async function settled(
  session: BrowserSession,
  from: string,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<FormState> {
  const deadline = Date.now() + timeoutMs;
  let last: FormState = { password: true, username: false, code: false, message: '' };
  let sameFor = 0;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new AbortedError();
    last = (await session.evaluate(readSignInForm, null).catch(() => null)) ?? last;
    if (!last.password) return last;
    // Still a password field: the same page answered with a message, or a new page asks again.
    if (last.message || session.url !== from) {
      if (++sameFor >= 2) return last;
    }
    await abortableDelay(150, signal);
  }
  return last;
}

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal },
): Promise<T> {
  const deadline = Date.now() + Math.min(timeoutMs, 3_000);
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await abortableDelay(150, signal);
  }
}

function safeParse(line: string): Step | null {
  try {
    return parseStep(line);
  } catch {
    return null;
  }
}

// ---- run in the page (serialised: they see only their argument) -------------------------------------

function readSignInForm(): FormState {
  const visible = (el: Element) => {
    const box = (el as HTMLElement).getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const inputs = [...document.querySelectorAll('input')].filter((i) => visible(i) && !i.disabled);
  const password = inputs.find((i) => i.type === 'password');
  const describe = (i: HTMLInputElement) =>
    [i.name, i.id, i.placeholder, i.getAttribute('aria-label'), i.autocomplete, i.labels?.[0]?.textContent]
      .join(' ')
      .toLowerCase();
  const codeLike = (i: HTMLInputElement) =>
    i.autocomplete === 'one-time-code' ||
    /\b(code|otp|totp|2fa|two.?factor|authenticat|verification|token)\b/.test(describe(i));
  const textLike = (i: HTMLInputElement) => ['text', 'email', 'tel', ''].includes(i.type);
  const code = !password && inputs.some((i) => textLike(i) && codeLike(i));
  const username = !!password && inputs.some((i) => textLike(i) && !codeLike(i) && i !== password);
  const said = [...document.querySelectorAll('[role="alert"], [aria-live], .error, .errors, .alert, .flash')]
    .filter(visible)
    .map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim())
    .find((text) => text.length > 0);
  return { password: !!password, username, code, message: (said ?? '').slice(0, 200) };
}

/** Focuses the field a person would type into: the username before the password, the password, or the code. */
function focusField(which: 'username' | 'password' | 'code'): boolean {
  const visible = (el: Element) => {
    const box = (el as HTMLElement).getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const inputs = [...document.querySelectorAll('input')].filter((i) => visible(i) && !i.disabled);
  const textLike = (i: HTMLInputElement) => ['text', 'email', 'tel', ''].includes(i.type);
  const password = inputs.find((i) => i.type === 'password');
  let field: HTMLInputElement | undefined;
  if (which === 'password') field = password;
  else if (which === 'code') {
    field =
      inputs.find((i) => i.autocomplete === 'one-time-code') ?? inputs.find((i) => textLike(i) && !i.value);
  } else if (password) {
    // The text field closest before the password, preferring one that says it is a user name or email.
    const candidates = inputs.filter(
      (i) =>
        textLike(i) &&
        (!password.form || i.form === password.form) &&
        i.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING,
    );
    const score = (i: HTMLInputElement) =>
      /user|email|login|account|identifier/i.test(`${i.name} ${i.id} ${i.autocomplete} ${i.type}`) ? 1 : 0;
    field = candidates.sort((a, b) => score(b) - score(a))[0] ?? candidates.at(-1);
  }
  if (!field) return false;
  field.focus();
  field.select?.();
  return document.activeElement === field;
}

/** Clicks the form's submit button (for a form whose Enter key does nothing). */
function clickSubmit(): boolean {
  const field = document.activeElement as HTMLInputElement | null;
  const scope: ParentNode = field?.form ?? document;
  const button = [
    ...scope.querySelectorAll<HTMLElement>('button, input[type="submit"], [role="button"]'),
  ].find(
    (b) =>
      (b as HTMLButtonElement).type === 'submit' ||
      /sign in|log in|login|continue|next|verify|submit/i.test(
        b.textContent ?? (b as HTMLInputElement).value,
      ),
  );
  button?.click();
  return !!button;
}

/**
 * A run's signed-in browser (docs/PROJECTS.md#sites-behind-a-login): `start()` signs in once, every
 * session opened through it starts from that sign-in's storage state with the environment's
 * variables, and `renewal` lets a test that finds itself signed out sign in again (the new state is
 * kept for the tests after it).
 */
export class SignedInSessions implements SessionOpener {
  private state: StorageState | undefined;
  /** The sign-in form the run signed in with (`signInFormSignature`). */
  private form: string | null = null;
  private readonly page: URL | null;

  constructor(
    private readonly pool: SessionOpener,
    private readonly plan: SignInPlan | null,
    private readonly options: SignInOptions,
  ) {
    this.page = plan ? signInPageOf(plan, options.baseUrl) : null;
  }

  /** Signs in (nothing to do without a login). Throws SignInError. */
  async start(): Promise<void> {
    if (!this.plan) return;
    const { state, form } = await signIn(this.pool, this.plan, this.options);
    this.state = state;
    this.form = form;
  }

  openSession(options: Parameters<SessionOpener['openSession']>[0] = {}): Promise<BrowserSession> {
    return this.pool.openSession({
      ...options,
      // A mobile project's sessions are phones, the explorer's too (it names no viewport of its own).
      viewport: options.viewport ?? this.options.viewport,
      storageState: options.storageState ?? this.state,
      variables: options.variables ?? this.options.variables,
    });
  }

  /** For the test runner; undefined without a login. */
  get renewal(): SessionRenewal | undefined {
    const plan = this.plan;
    if (!plan) return undefined;
    return {
      isSignInPage: (session) => onSignInPage(session, this.page, this.form),
      isSignInUrl: (url) => isSignInAddress(url, this.page),
      signInAgain: async (session, signal) => {
        const form = await signInHere(session, plan, {
          ...this.options,
          signal: signal ?? this.options.signal,
        });
        this.form = form ?? this.form;
        this.state = await session.storageState();
      },
    };
  }
}
