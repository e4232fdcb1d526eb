import { AbortedError, type PageObservation } from '@argus/engine';
import { parseStep } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { BuiltinPlanner } from './builtin-planner';

/** Two pages of a made-up shop, with quotes and backslashes where people type them. */
function observations(): PageObservation[] {
  const base = 'https://shop.example';
  const nav = (text: string, path: string) => ({
    text,
    href: `${base}${path}`,
    sameOrigin: true,
    inNav: true,
  });
  const page = (path: string, title: string, extra: Partial<PageObservation> = {}): PageObservation => ({
    url: `${base}${path}`,
    status: 200,
    title,
    headings: [{ level: 1, text: title }],
    links: [nav('Home', '/'), nav('Contact "us"', '/contact')],
    forms: [],
    buttons: [],
    images: [],
    tables: [],
    listItems: [],
    aria: '',
    consoleErrors: [],
    failedRequests: [],
    ...extra,
  });
  return [
    page('/', 'The "Best" Shop', {
      images: [{ src: 'hero.png', alt: 'Hero' }],
      tables: [{ caption: 'Products', headers: ['Name'], rows: [['Trail Running Shoes']] }],
      forms: [
        {
          name: 'Search',
          submit: 'Go',
          noValidate: false,
          isSearch: true,
          hasPassword: false,
          fields: [{ label: 'Search', tag: 'input', type: 'search', name: 'q', required: true, options: [] }],
        },
      ],
    }),
    page('/contact', 'Contact', {
      forms: [
        {
          name: 'Write to us',
          submit: 'Send "now"',
          noValidate: true,
          isSearch: false,
          hasPassword: false,
          fields: [
            { label: 'Your \\ name', tag: 'input', type: 'text', name: 'name', required: true, options: [] },
            { label: 'Topic', tag: 'select', type: 'select', name: 't', required: false, options: ['A "b"'] },
          ],
        },
      ],
    }),
  ];
}

const request = (command?: string) => ({ url: 'https://shop.example/', command, pages: observations() });

describe('BuiltinPlanner', () => {
  it('writes every step as a line of the step language, quotes and backslashes included', async () => {
    for (const command of [undefined, 'search for "shoes"', 'contact form']) {
      const cases = await new BuiltinPlanner().generate(request(command));
      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) for (const line of c.steps) expect(() => parseStep(line), line).not.toThrow();
    }
    const full = await new BuiltinPlanner().generate(request());
    const form = full.find((c) => c.test_name === 'Form can be submitted: Write to us');
    expect(form?.steps).toEqual([
      'Navigate to https://shop.example/contact',
      'Fill "Your \\\\ name" with "Argus Tester"',
      'Select "A \\"b\\"" from "Topic"',
      'Click button "Send \\"now\\""',
      'Verify no error message is visible',
    ]);
    expect(parseStep(form?.steps[2] ?? '')).toEqual({ verb: 'select', option: 'A "b"', field: 'Topic' });
  });

  it('says plainly when nothing matches a command, and hands out no unrelated checks', async () => {
    const notices: string[] = [];
    const cases = await new BuiltinPlanner().generate(request('do something'), {
      onNotice: (m) => notices.push(m),
    });
    expect(cases).toEqual([]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/found nothing matching "do something".*Configure an LLM/);
  });

  it('checks a quoted text on a page it was seen on, not on a page a word of it happens to name', async () => {
    // "Contact" in the quote names the contact page; the text itself was seen on the start page only.
    const cases = await new BuiltinPlanner().generate(
      request('make sure "Contact Trail Running Shoes" shows'),
    );
    const shows = cases.find((c) => c.test_name.startsWith('Shows'));
    expect(shows?.steps).toEqual([
      'Navigate to https://shop.example/contact',
      'Verify text "Contact Trail Running Shoes" is visible',
    ]);
    const seen = await new BuiltinPlanner().generate(
      request('make sure "Trail Running Shoes" is on the contact page'),
    );
    expect(seen.find((c) => c.test_name.startsWith('Shows'))).toMatchObject({
      test_name: 'Shows "Trail Running Shoes": The "Best" Shop',
      steps: ['Navigate to https://shop.example/', 'Verify text "Trail Running Shoes" is visible'],
    });
  });

  it('reports progress while it writes', async () => {
    const messages: string[] = [];
    await new BuiltinPlanner().generate(request(), { onProgress: (m) => messages.push(m) });
    expect(messages).toEqual([
      'Writing page load and navigation tests from 2 pages',
      'Writing form tests: Search',
      'Writing form tests: Write to us',
      'Writing link, image, mobile layout and accessibility checks',
    ]);
    const forCommand: string[] = [];
    await new BuiltinPlanner().generate(request('contact form'), { onProgress: (m) => forCommand.push(m) });
    expect(forCommand).toEqual(['Reading the command for what to test', 'Writing form tests: Write to us']);
  });

  it('rejects with AbortedError when stopped before it starts, reporting nothing', async () => {
    const messages: string[] = [];
    const stopped = new AbortController();
    stopped.abort();
    await expect(
      new BuiltinPlanner().generate(request(), {
        signal: stopped.signal,
        onProgress: (m) => messages.push(m),
      }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(messages).toEqual([]);
  });

  it('stops at the next unit of work when stopped mid-way, in full and command mode', async () => {
    for (const command of [undefined, 'search and contact form']) {
      const controller = new AbortController();
      const messages: string[] = [];
      const generation = new BuiltinPlanner().generate(request(command), {
        signal: controller.signal,
        onProgress: (m) => {
          messages.push(m);
          if (messages.length === 2) controller.abort();
        },
      });
      await expect(generation).rejects.toThrow(/Generation stopped/);
      expect(messages).toHaveLength(2);
    }
  });

  it('sees a Stop that arrives from elsewhere while it works (it yields between units)', async () => {
    const controller = new AbortController();
    const generation = new BuiltinPlanner().generate(request(), { signal: controller.signal });
    setImmediate(() => controller.abort());
    await expect(generation).rejects.toBeInstanceOf(AbortedError);
  });
  it('writes no "Form can be submitted" test for a form that wants a code only the site knows (a coupon)', async () => {
    const pages = observations();
    pages[1].forms.push({
      name: 'Your cart',
      submit: 'Apply',
      noValidate: false,
      isSearch: false,
      hasPassword: false,
      fields: [
        { label: 'Coupon code', tag: 'input', type: 'text', name: 'coupon', required: false, options: [] },
      ],
    });
    const names = (await new BuiltinPlanner().generate({ url: 'https://shop.example/', pages })).map(
      (c) => c.test_name,
    );
    expect(names).toContain('Form can be submitted: Write to us');
    expect(names).not.toContain('Form can be submitted: Your cart');
  });
});
