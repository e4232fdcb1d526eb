import type { PageObservation } from '@argus/engine';
import { formatStep, PrioritySchema, parseStep, type TestCase, TestCaseSchema } from '@argus/protocol';
import { z } from 'zod';
import { nameBehaviour } from '../behaviour-cases';
import { checkpoint, type GenerateOptions, type Planner, type PlanRequest } from '../planner';
import type { ModelClient } from './model-client';
import { seesImages } from './model-config';

/** What the model writes: the protocol's test cases, with the fields a generation needs. */
export const GeneratedCasesSchema = z.object({
  test_cases: z
    .array(
      z.object({
        test_name: z.string().min(1).max(200),
        description: z.string().max(1000),
        category: z.string().max(60),
        priority: PrioritySchema,
        steps: z.array(z.string().min(1).max(400)).min(1).max(40),
        expected_result: z.string().max(1000),
      }),
    )
    .min(1)
    .max(25),
});

export const STEP_LANGUAGE_REFERENCE = `Step language (one step per line; quotes are required around names and values):
Navigate to <url> | Go back | Reload the page
Click "<text>" | Click button "<name>" | Click link "<name>" | Click "<text>" in "<item>" | Double-click "<text>"
Fill "<field label>" with "<value>" | Clear "<field>" | Select "<option>" from "<field>" | Check "<label>" | Uncheck "<label>"
Press Enter | Press Enter in "<field>" | Hover "<text>" | Scroll to bottom | Wait 2 seconds | Wait for "<text>"
Verify text "<text>" is visible | Verify text "<text>" is not visible | Verify text "<text>" is visible in "<item>"
Verify URL contains "<part>" | Verify title contains "<text>" | Verify field "<field>" has value "<value>"
Verify "<label>" is checked | Verify field "<field>" shows a validation error | Verify exactly 3 listitems are visible
Verify no error message is visible | Verify the page has no console errors | Verify all images have alt text`;

const SYSTEM = `You are a senior QA engineer writing an end-to-end test suite for a web application you have never seen.
You get observations of its pages and behaviours that were verified by acting on the app (each replayed twice).
Write tests that check what the app DOES for its users (adding, editing, filtering, totals, validation, navigation results),
not only that the page loads. Cover every verified behaviour with a test: its steps and verified checks are known to work
on this app, so reuse them, and add the checks a careful tester would (counts, totals, what must disappear).
Each test is independent and starts with "Navigate to <url>".
Write every step you can in the step language below, exactly in its syntax. Only when a step cannot be said in it,
write a short plain-English instruction instead (a model will carry it out in the browser); use that sparingly.
Every test ends with at least one Verify step, and its expected_result says concretely what the user should see.
Use only texts, labels and URLs that appear in the observations; never invent credentials that would not work.

${STEP_LANGUAGE_REFERENCE}

Answer with JSON only: {"test_cases": [{"test_name", "description", "category", "priority" (critical|high|medium|low), "steps": [..], "expected_result"}]}`;

const MAX_PROMPT_CHARS = 24_000;

/** The explored pages, briefly: what a tester would note on a first visit. */
export function describePages(pages: PageObservation[]): string {
  const blocks = pages.slice(0, 8).map((page, i) => {
    const lines = [`Page ${i + 1}: ${page.url} (HTTP ${page.status}) — "${page.title}"`];
    if (page.headings.length)
      lines.push(
        `Headings: ${page.headings
          .slice(0, 12)
          .map((h) => `h${h.level} ${h.text}`)
          .join(' | ')}`,
      );
    for (const form of page.forms.slice(0, 4))
      lines.push(
        `Form "${form.name}"${form.isSearch ? ' (search)' : ''}: fields ${form.fields
          .slice(0, 10)
          .map((f) => JSON.stringify(f))
          .join(', ')}; submit ${JSON.stringify(form.submit)}`,
      );
    if (page.buttons.length)
      lines.push(
        `Buttons: ${page.buttons
          .slice(0, 20)
          .map((b) => JSON.stringify(b))
          .join(', ')}`,
      );
    const links = page.links.filter((l) => l.sameOrigin).slice(0, 20);
    if (links.length)
      lines.push(`Links: ${links.map((l) => `${JSON.stringify(l.text)} → ${l.href}`).join(', ')}`);
    for (const table of page.tables.slice(0, 2))
      lines.push(
        `Table ${JSON.stringify(table.caption)}: ${table.headers.join(' | ')}; first rows: ${table.rows
          .slice(0, 3)
          .map((r) => r.join(' | '))
          .join(' / ')}`,
      );
    if (page.listItems.length)
      lines.push(
        `List items: ${page.listItems
          .slice(0, 12)
          .map((t) => JSON.stringify(t))
          .join(', ')}`,
      );
    if (page.aria) lines.push(`Accessibility tree (roles and names):\n${page.aria.slice(0, 1500)}`);
    if (page.consoleErrors.length)
      lines.push(`Console errors: ${page.consoleErrors.slice(0, 3).join(' | ')}`);
    return lines.join('\n');
  });
  return blocks.join('\n\n');
}

/**
 * The LLM engine's planner: the explored pages and the verified behaviours go to the model, which
 * writes the suite as structured output checked against the protocol's schemas. Lines outside the
 * step language are kept as free-form steps, which the LLM interpreter carries out at run time.
 */
export class LlmPlanner implements Planner {
  readonly engine: string;
  readonly freeForm = true;

  constructor(private readonly client: ModelClient) {
    this.engine = client.engine;
  }

  get vision(): boolean {
    return seesImages(this.client.config);
  }

  async generate(request: PlanRequest, options: GenerateOptions = {}): Promise<TestCase[]> {
    await checkpoint(options, `Asking ${this.client.config.model} to write the test cases`);
    const behaviours = (request.behaviours ?? []).slice(0, 20).map((b, i) => {
      const steps = [...b.setup, ...b.action].map(formatStep);
      const checks = b.assertions.map(formatStep);
      return `${i + 1}. ${nameBehaviour(b).name} (on ${b.url})\n   steps: ${steps.join(' ; ')}\n   verified: ${checks.join(' ; ')}`;
    });
    let prompt = [
      `Application: ${request.url}`,
      request.command
        ? `The user asked to test: ${request.command}\nWrite only tests for that request.`
        : 'Write a full suite (8 to 15 tests) covering the app.',
      `Pages explored:\n${describePages(request.pages)}`,
      behaviours.length
        ? `Verified behaviours (steps that worked, and effects that held on replay):\n${behaviours.join('\n')}`
        : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    if (prompt.length > MAX_PROMPT_CHARS)
      prompt = `${prompt.slice(0, MAX_PROMPT_CHARS)}\n(observations truncated)`;
    const answer = await this.client.object({
      kind: 'generation',
      system: SYSTEM,
      prompt,
      images: request.screenshot && this.vision ? [request.screenshot] : [],
      schema: GeneratedCasesSchema,
      name: 'test_suite',
      signal: options.signal,
    });
    await checkpoint(options);
    const cases = answer.test_cases.map((c) =>
      TestCaseSchema.parse({
        ...c,
        steps: c.steps.map(normaliseLine),
        url: request.pages[0]?.url ?? request.url,
      }),
    );
    const freeForm = cases.flatMap((c) => c.steps).filter((line) => !parses(line)).length;
    if (freeForm)
      options.onProgress?.(
        `${freeForm} step${freeForm === 1 ? ' is' : 's are'} free-form; the model carries ${freeForm === 1 ? 'it' : 'them'} out at run time`,
      );
    return cases;
  }
}

function parses(line: string): boolean {
  try {
    parseStep(line);
    return true;
  } catch {
    return false;
  }
}

/** A line as the model wrote it, minus list numbering and stray quotes around the whole line. */
function normaliseLine(line: string): string {
  return line
    .trim()
    .replace(/^(\d+[.)]|[-*•])\s+/, '')
    .replace(/^`(.*)`$/, '$1');
}
