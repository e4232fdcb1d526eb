import type { FormObservation, PageObservation } from '@argus/engine';
import { formatStep, type Step, type TestCase } from '@argus/protocol';
import { behaviourCases, describeBehaviours, matchCommand } from './behaviour-cases';
import { checkpoint, type GenerateOptions, type Planner, type PlanRequest } from './planner';

/** A case as the rules build it: steps as data, written as lines of the step language at the end. */
type Draft = Omit<TestCase, 'id' | 'url' | 'steps'> & { url: string; steps: Step[] };

const navigate = (url: string): Step => ({ verb: 'navigate', url });
const verifyUrl = (text: string): Step => ({ verb: 'verifyUrl', text });
const verifyText = (text: string, visible = true): Step => ({ verb: 'verifyText', text, visible });

const pageName = (p: PageObservation) =>
  p.headings.find((h) => h.level === 1)?.text || p.title || new URL(p.url).pathname;
const pathOf = (url: string) => {
  const path = new URL(url).pathname;
  return path === '/' ? '/' : path.replace(/\/$/, '');
};

/** Plausible input for a field, from its type and label. */
function sampleValue(field: FormObservation['fields'][number]): string {
  const label = `${field.label} ${field.name}`.toLowerCase();
  if (field.type === 'email' || /e-?mail/.test(label)) return 'qa.tester@example.com';
  if (field.type === 'tel' || /phone|tel/.test(label)) return '+1 555 0100';
  if (field.type === 'url' || /website|url/.test(label)) return 'https://example.com';
  if (field.type === 'number') return '3';
  if (field.type === 'date') return '2030-01-15';
  if (/name/.test(label)) return 'Argus Tester';
  if (/company|organi[sz]ation/.test(label)) return 'Argus QA';
  if (field.tag === 'textarea' || /message|comment|question/.test(label)) {
    return 'Hello, this message was sent by an Argus automated test.';
  }
  return 'Argus test';
}

/** Items the site lists (table rows, list items, link texts), to search for something that exists. */
function knownItems(pages: PageObservation[]): string[] {
  // Table rows name things (products, people); list items are often links or prose, so they come last.
  const items: string[] = [];
  for (const p of pages) for (const t of p.tables) for (const row of t.rows) if (row[0]) items.push(row[0]);
  for (const p of pages) {
    const linkTexts = new Set(p.links.map((l) => l.text));
    items.push(...p.listItems.filter((li) => !linkTexts.has(li)));
  }
  return items.filter((t) => /^[\p{L}\p{N} '&-]{5,60}$/u.test(t) && t.split(' ').length >= 2);
}

/** The texts an observation saw on its page, lower-cased (the step language matches text case-insensitively). */
function visibleText(p: PageObservation): string {
  return [
    p.title,
    ...p.headings.map((h) => h.text),
    ...p.links.map((l) => l.text),
    ...p.buttons,
    ...p.listItems,
    ...p.tables.flatMap((t) => [t.caption, ...t.headers, ...t.rows.flat()]),
    p.aria,
  ]
    .join('\n')
    .toLowerCase();
}

/** Fields whose valid values only the site knows: coupons, vouchers, one-time and verification codes. */
const CODE_FIELD =
  /coupon|promo|voucher|gift ?card|discount code|one[- ]?time|\botp\b|captcha|(?:verification|access|invit(?:e|ation)|referral) code/i;

/** The submit buttons of forms that behaviour exploration filled and submitted. */
function submittedForms(request: PlanRequest): Set<string> {
  return new Set((request.behaviours ?? []).filter((b) => b.kind === 'submit').map((b) => b.control.name));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function formKey(form: FormObservation): string {
  return `${form.name}|${form.fields.map((f) => f.label).join(',')}`;
}

export class BuiltinPlanner implements Planner {
  readonly engine = 'builtin (rule-based, no LLM)';

  async generate(request: PlanRequest, options: GenerateOptions = {}): Promise<TestCase[]> {
    await checkpoint(options);
    const drafts = request.command
      ? await this.forCommand(request, request.command, options)
      : [
          ...(await this.behaviourSuite(request, options)),
          ...(await this.fullSuite(request.pages, options, submittedForms(request))),
        ];
    await checkpoint(options);
    return drafts.map((d, i) => ({
      ...d,
      steps: d.steps.map(formatStep),
      id: `tc-${String(i + 1).padStart(3, '0')}`,
      ...(request.command ? { command: request.command } : {}),
    }));
  }

  // ---- case builders ----------------------------------------------------------------------------

  smoke(p: PageObservation, isStart: boolean): Draft {
    const h1 = p.headings.find((h) => h.level === 1)?.text;
    return {
      test_name: `Page loads cleanly: ${pageName(p)}`,
      description: `Opens ${pathOf(p.url)} and checks its title and main heading, and that it logs no console errors and no failed requests.`,
      steps: [
        navigate(p.url),
        ...(p.title ? [{ verb: 'verifyTitle', text: p.title } as const] : []),
        ...(h1 ? [{ verb: 'verifyElement', role: 'heading', name: h1, visible: true } as const] : []),
        { verb: 'verifyNoConsoleErrors' },
        { verb: 'verifyNoFailedRequests' },
      ],
      category: 'Smoke',
      priority: isStart ? 'high' : 'medium',
      expected_result: 'The page opens with its title and heading; the console and network are clean.',
      url: p.url,
    };
  }

  navigation(start: PageObservation): Draft | null {
    const seen = new Set<string>();
    const links = start.links.filter((l) => {
      const key = l.href.split('#')[0];
      if (!l.inNav || !l.sameOrigin || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (links.length === 0) return null;
    const steps = links
      .slice(0, 8)
      .flatMap((l): Step[] => [
        navigate(start.url),
        { verb: 'click', role: 'link', target: l.text },
        verifyUrl(pathOf(l.href)),
      ]);
    return {
      test_name: 'Main navigation reaches every page',
      description: `Follows each of the ${Math.min(links.length, 8)} navigation links from the start page and checks where it lands.`,
      steps,
      category: 'Navigation',
      priority: 'high',
      expected_result: 'Each navigation link opens its own page.',
      url: start.url,
    };
  }

  links(p: PageObservation): Draft {
    return {
      test_name: `No broken links: ${pageName(p)}`,
      description: `Requests every same-origin link on ${pathOf(p.url)} and fails on any answer of 400 or above.`,
      steps: [navigate(p.url), { verb: 'verifyLinksWork' }],
      category: 'Links',
      priority: 'medium',
      expected_result: 'Every link on the page answers successfully.',
      url: p.url,
    };
  }

  images(p: PageObservation): Draft {
    return {
      test_name: `Images have alt text: ${pageName(p)}`,
      description: `Checks that each of the ${p.images.length} images on ${pathOf(p.url)} has an alt attribute (empty for decorative images).`,
      steps: [navigate(p.url), { verb: 'verifyImagesAlt' }],
      category: 'Accessibility',
      priority: 'medium',
      expected_result: 'Every image has alternative text.',
      url: p.url,
    };
  }

  accessibility(p: PageObservation): Draft {
    return {
      test_name: `Accessibility (axe-core): ${pageName(p)}`,
      description: `Runs axe-core on ${pathOf(p.url)} and fails on violations of serious or critical impact.`,
      steps: [navigate(p.url), { verb: 'verifyAccessibility' }],
      category: 'Accessibility',
      priority: 'medium',
      expected_result: 'No serious or critical accessibility violations.',
      url: p.url,
    };
  }

  mobile(pages: PageObservation[]): Draft {
    const chosen = pages.slice(0, 6);
    return {
      test_name: 'No horizontal overflow on a mobile viewport',
      description: `Opens ${chosen.length} pages at 390×844 and checks that none is wider than the screen.`,
      steps: [
        { verb: 'viewport', width: 390, height: 844 },
        ...chosen.flatMap((p): Step[] => [navigate(p.url), { verb: 'verifyNoOverflow' }]),
      ],
      category: 'Responsive',
      priority: 'medium',
      expected_result: 'Every page fits the width of a phone screen.',
      url: chosen[0].url,
    };
  }

  validation(p: PageObservation, form: FormObservation): Draft | null {
    const required = form.fields.filter((f) => f.required && f.label);
    if (!form.submit || required.length === 0) return null;
    return {
      test_name: `Required fields are enforced: ${form.name}`,
      description: `Submits the "${form.name}" form on ${pathOf(p.url)} empty and expects each required field to show a validation error.`,
      steps: [
        navigate(p.url),
        { verb: 'click', role: 'button', target: form.submit },
        ...required.slice(0, 5).map((f): Step => ({ verb: 'verifyInvalid', field: f.label })),
        verifyUrl(pathOf(p.url)),
      ],
      category: 'Forms',
      priority: form.hasPassword ? 'high' : 'medium',
      expected_result: 'The form is not sent and every required field says what is missing.',
      url: p.url,
    };
  }

  search(p: PageObservation, form: FormObservation, term: string, expect: string): Draft | null {
    const input =
      form.fields.find((f) => f.type === 'search' || /search|query/i.test(`${f.label} ${f.name}`)) ??
      form.fields[0];
    if (!input?.label) return null;
    return {
      test_name: `Search finds "${expect}"`,
      description: `Searches for "${term}" on ${pathOf(p.url)} and expects "${expect}", an item the site lists, among the results.`,
      steps: [
        navigate(p.url),
        { verb: 'fill', field: input.label, value: term },
        { verb: 'press', key: 'Enter', field: input.label },
        verifyText(expect),
      ],
      category: 'Functional',
      priority: 'high',
      expected_result: `Results for "${term}" include "${expect}".`,
      url: p.url,
    };
  }

  happyPath(p: PageObservation, form: FormObservation): Draft | null {
    if (!form.submit || form.hasPassword || form.isSearch || form.fields.length === 0) return null;
    // A made-up code is never a valid coupon: what such a form does is a behaviour test's to say.
    if (form.fields.some((f) => /coupon|promo|voucher|gift ?card|redeem/i.test(`${f.label} ${f.name}`)))
      return null;
    // A field that wants a code only the site knows (a coupon, a one-time code) rejects any value the
    // rules can make up: submitting it "successfully" cannot be expected, so no such test is written.
    if (form.fields.some((f) => CODE_FIELD.test(`${f.label} ${f.name}`))) return null;
    const steps: Step[] = [navigate(p.url)];
    for (const f of form.fields) {
      if (!f.label) continue;
      if (f.tag === 'select') {
        if (f.options[0]) steps.push({ verb: 'select', option: f.options[0], field: f.label });
      } else if (f.type === 'checkbox') {
        if (f.required) steps.push({ verb: 'check', target: f.label, checked: true });
      } else if (f.type !== 'radio' && f.type !== 'file') {
        steps.push({ verb: 'fill', field: f.label, value: sampleValue(f) });
      }
    }
    steps.push({ verb: 'click', role: 'button', target: form.submit }, { verb: 'verifyNoErrors' });
    return {
      test_name: `Form can be submitted: ${form.name}`,
      description: `Fills the "${form.name}" form on ${pathOf(p.url)} with plausible values and submits it.`,
      steps,
      category: 'Forms',
      priority: 'medium',
      expected_result: 'The form is accepted without validation errors.',
      url: p.url,
    };
  }

  /** What to tell the user when no behaviour found matches the command. */
  nothingMatched(command: string, found: string[], partly = false): string {
    const seen = found.length
      ? ` It found these behaviours: ${found.slice(0, 8).join('; ')}${found.length > 8 ? '; …' : ''}.`
      : ' It found no behaviour it could try on this page.';
    return (
      `The built-in rule-based engine found ${partly ? 'no behaviour' : 'nothing'} matching "${command}".${seen} ` +
      'It understands adding, completing, deleting, editing and filtering items, quantities and totals, coupon and ' +
      'other forms, login, search, navigation, broken links, accessibility, images, mobile layout, console errors, ' +
      'quoted texts and page names. Configure an LLM (AI_PROVIDER) for free-form commands.'
    );
  }

  // ---- suites -----------------------------------------------------------------------------------

  private forms(pages: PageObservation[]): { page: PageObservation; form: FormObservation }[] {
    const seen = new Set<string>();
    const out: { page: PageObservation; form: FormObservation }[] = [];
    for (const page of pages) {
      for (const form of page.forms) {
        const key = formKey(form);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ page, form });
      }
    }
    return out;
  }

  private searchTerm(pages: PageObservation[], wanted?: string): { term: string; expect: string } | null {
    const items = knownItems(pages);
    if (wanted) {
      const hit = items.find((i) => i.toLowerCase().includes(wanted.toLowerCase()));
      return { term: wanted, expect: hit ?? wanted };
    }
    const item = items[0];
    if (!item) return null;
    const word = item
      .split(' ')
      .sort((a, b) => b.length - a.length)[0]
      .toLowerCase();
    return { term: word, expect: item };
  }

  private linkPages(pages: PageObservation[]): PageObservation[] {
    const seen = new Set<string>();
    return pages.filter((p) => {
      const fresh = p.links.filter((l) => l.sameOrigin && !seen.has(l.href.split('#')[0]));
      for (const l of fresh) seen.add(l.href.split('#')[0]);
      return fresh.length > 0;
    });
  }

  private async formCases(
    pages: PageObservation[],
    options: GenerateOptions,
    filter: (f: FormObservation) => boolean,
    wantedTerm?: string,
  ): Promise<Draft[]> {
    const drafts: Draft[] = [];
    for (const { page, form } of this.forms(pages).filter(({ form }) => filter(form))) {
      await checkpoint(options, `Writing form tests: ${form.name}`);
      const v = this.validation(page, form);
      if (v) drafts.push(v);
      if (form.isSearch) {
        const term = this.searchTerm(pages, wantedTerm);
        const s = term && this.search(page, form, term.term, term.expect);
        if (s) drafts.push(s);
      } else {
        const h = this.happyPath(page, form);
        if (h) drafts.push(h);
      }
    }
    return drafts;
  }

  /** Tests of what the app does: one per behaviour found by acting on it, core ones first. */
  async behaviourSuite(request: PlanRequest, options: GenerateOptions = {}): Promise<Draft[]> {
    const behaviours = request.behaviours ?? [];
    if (behaviours.length === 0) return [];
    await checkpoint(options, `Writing behaviour tests from ${plural(behaviours.length, 'behaviour')}`);
    return behaviourCases(describeBehaviours(behaviours));
  }

  /** `tried`: the submit buttons of forms a behaviour test already submitted (their outcome is known). */
  async fullSuite(
    pages: PageObservation[],
    options: GenerateOptions = {},
    tried: Set<string> = new Set(),
  ): Promise<Draft[]> {
    if (pages.length === 0) return [];
    const [start] = pages;
    const drafts: Draft[] = [];
    await checkpoint(options, `Writing page load and navigation tests from ${plural(pages.length, 'page')}`);
    drafts.push(this.smoke(start, true));
    const nav = this.navigation(start);
    if (nav) drafts.push(nav);
    drafts.push(...(await this.formCases(pages, options, (f) => !f.submit || !tried.has(f.submit))));
    await checkpoint(options, 'Writing link, image, mobile layout and accessibility checks');
    for (const p of pages.slice(1)) drafts.push(this.smoke(p, false));
    for (const p of this.linkPages(pages)) drafts.push(this.links(p));
    for (const p of pages.filter((p) => p.images.length > 0)) drafts.push(this.images(p));
    drafts.push(this.mobile(pages));
    for (const p of pages) drafts.push(this.accessibility(p));
    return drafts;
  }

  /** Command mode: cases focused on what the command asks, recognised by its keywords. */
  async forCommand(request: PlanRequest, command: string, options: GenerateOptions = {}): Promise<Draft[]> {
    const { pages } = request;
    if (pages.length === 0) return [];
    await checkpoint(options, 'Reading the command for what to test');
    const text = command.toLowerCase();
    const quoted = [...command.matchAll(/["“'‘]([^"”'’]{2,80})["”'’]/g)].map((m) => m[1]);
    const has = (re: RegExp) => re.test(text);
    const drafts: Draft[] = [];

    // The behaviours the command asks for, by the words of each of its clauses.
    const named = describeBehaviours(request.behaviours ?? []);
    const { chosen, unmatched } = matchCommand(command, named);
    if (chosen.length) {
      await checkpoint(
        options,
        `Writing tests for ${plural(chosen.length, 'behaviour')} the command asks for`,
      );
      drafts.push(...behaviourCases(chosen));
    }
    const fromBehaviours = drafts.length;

    // Pages the command names: "the pricing page", "about page", "products".
    const namedPages = pages.filter((p) => {
      const words = `${p.title} ${pageName(p)} ${pathOf(p.url).replace(/[/._-]|html?/g, ' ')}`.toLowerCase();
      return words
        .split(/\s+/)
        .filter((w) => w.length > 3)
        .some((w) => new RegExp(`\\b${w.replace(/[^a-z0-9]/g, '')}\\b`).test(text));
    });

    if (has(/\blog ?in\b|sign ?in|log ?on|credential|password/)) {
      drafts.push(...(await this.formCases(pages, options, (f) => f.hasPassword)));
      const email = command.match(/[\w.+-]+@[\w-]+\.[\w.]+/)?.[0];
      const password =
        command.match(/password\s+(?:is\s+)?["'“]?([^\s"'”]+)/i)?.[1] ?? command.match(/\/\s*(\S+)/)?.[1];
      const login = this.forms(pages).find(({ form }) => form.hasPassword);
      if (login && email && password && login.form.submit) {
        const user = login.form.fields.find((f) => f.type !== 'password' && f.type !== 'checkbox');
        const pass = login.form.fields.find((f) => f.type === 'password');
        if (user?.label && pass?.label) {
          drafts.push({
            test_name: `Sign in with the given credentials: ${login.form.name}`,
            description: `Signs in on ${pathOf(login.page.url)} as ${email} and expects no error.`,
            steps: [
              navigate(login.page.url),
              { verb: 'fill', field: user.label, value: email },
              { verb: 'fill', field: pass.label, value: password },
              { verb: 'click', role: 'button', target: login.form.submit },
              { verb: 'verifyNoErrors' },
              verifyText(login.form.submit, false),
            ],
            category: 'Functional',
            priority: 'high',
            expected_result: 'The user is signed in and leaves the sign-in form.',
            url: login.page.url,
          });
        }
      }
    }
    if (has(/search|find|look ?up/)) {
      drafts.push(...(await this.formCases(pages, options, (f) => f.isSearch, quoted[0])));
    }
    if (has(/contact|form|submit|sign ?up|subscribe|newsletter/) && !has(/\blog ?in\b|sign ?in/)) {
      drafts.push(...(await this.formCases(pages, options, (f) => !f.isSearch && !f.hasPassword)));
    }
    await checkpoint(options);
    if (has(/navigat|menu|\blinks?\b/)) {
      const nav = this.navigation(pages[0]);
      if (nav) drafts.push(nav);
    }
    if (has(/broken|dead link|404|\blinks?\b/))
      for (const p of this.linkPages(pages)) drafts.push(this.links(p));
    if (has(/accessib|a11y|axe|wcag|screen reader/))
      for (const p of namedPages.length ? namedPages : pages) drafts.push(this.accessibility(p));
    if (has(/\balt\b|image/))
      for (const p of pages.filter((p) => p.images.length)) drafts.push(this.images(p));
    if (has(/mobile|responsive|phone|overflow|viewport/))
      drafts.push(this.mobile(namedPages.length ? namedPages : pages));
    if (has(/console|error|load|smoke|work/))
      for (const p of namedPages.length ? namedPages : [pages[0]]) drafts.push(this.smoke(p, p === pages[0]));

    // What the command quotes should be visible: checked on the page it was seen on (a page the
    // command names first), else on the first page the command names (or the start page).
    if (quoted.length && !has(/search|find|look ?up/)) {
      const shows = (p: PageObservation) => quoted.every((t) => visibleText(p).includes(t.toLowerCase()));
      const where = namedPages.find(shows) ?? pages.find(shows) ?? namedPages[0] ?? pages[0];
      drafts.push({
        test_name: `Shows ${quoted.map((t) => `"${t}"`).join(', ')}: ${pageName(where)}`,
        description: `Opens ${pathOf(where.url)} and checks the text the command quotes.`,
        steps: [navigate(where.url), ...quoted.map((t) => verifyText(t))],
        category: 'Content',
        priority: 'high',
        expected_result: 'Each quoted text is visible.',
        url: where.url,
      });
    }
    for (const p of namedPages) if (!drafts.some((d) => d.url === p.url)) drafts.push(this.smoke(p, false));

    if (drafts.length === 0) {
      // Honest: nothing found matches, so nothing unrelated is handed out; the user is told why.
      options.onNotice?.(
        this.nothingMatched(
          command,
          named.map((n) => n.name),
        ),
      );
      return [];
    }
    // Part of the command found nothing, and no other rule took it up: say which part.
    const fromRules = drafts.length - fromBehaviours;
    if (fromBehaviours > 0 && fromRules === 0 && unmatched.length > 0) {
      options.onNotice?.(
        `The built-in rule-based engine found nothing matching ${unmatched.map((c) => `"${c}"`).join(', ')}; ` +
          'the tests cover the rest of the command. Configure an LLM (AI_PROVIDER) for free-form commands.',
      );
    }
    // One case per name: the rules above can overlap.
    const unique = new Map<string, Draft>();
    for (const d of drafts) if (!unique.has(d.test_name)) unique.set(d.test_name, d);
    return [...unique.values()];
  }
}
