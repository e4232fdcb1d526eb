import type { Responder, ScriptedReply, ScriptedRequest } from './scripted-model-server';

/** A control as the indexed snapshot lists it: `[3] button "Add to cart" (…)`. */
interface Listed {
  index: number;
  role: string;
  name: string;
}

function listed(prompt: string): Listed[] {
  const out: Listed[] = [];
  for (const match of prompt.matchAll(/^\[(\d+)\] (\S+) "((?:[^"\\]|\\.)*)"/gm))
    out.push({ index: Number(match[1]), role: match[2], name: match[3] });
  return out;
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

function closest(controls: Listed[], text: string, roles?: string[]): Listed | undefined {
  const want = words(text);
  let best: Listed | undefined;
  let score = 0;
  for (const c of controls) {
    if (roles && !roles.includes(c.role)) continue;
    const s = [...words(c.name)].filter((w) => want.has(w)).length + (roles ? 0.5 : 0);
    if (s > score) {
      best = c;
      score = s;
    }
  }
  return best ?? (roles ? controls.find((c) => roles.includes(c.role)) : undefined);
}

const turn = (tool: string, element: number | null, value: string | null, goal: string): ScriptedReply => ({
  json: { thought: `The page is open; next: ${goal}`, next_goal: goal, tool, element, value },
});

/**
 * The browser agent as rules, for tests: a step with a quoted value ('Add a to-do called "Buy milk"')
 * fills the text field that best matches the step's words and presses Enter; any other step clicks
 * the control that best matches; then it says done.
 */
export function ruleAgent(request: ScriptedRequest): ScriptedReply {
  const step = /Step to carry out: (.*)/.exec(request.prompt)?.[1] ?? '';
  const done = request.prompt.split('Done so far:')[1]?.split('The page now:')[0] ?? '';
  const controls = listed(request.prompt);
  const value = /"([^"]+)"/.exec(step)?.[1];
  if (/Press Enter.*→ done|Click .*→ done/.test(done))
    return turn('done', null, `Carried out: ${step}`, 'Finish');
  if (value) {
    const field = closest(controls, step, ['textbox', 'searchbox', 'combobox']);
    if (!field) return turn('give_up', null, 'There is no text field on this page', 'Give up');
    if (/Fill .*→ done/.test(done)) return turn('press', field.index, 'Enter', 'Submit the text');
    return turn('fill', field.index, value, `Type "${value}" into ${field.name}`);
  }
  const target = closest(controls, step);
  if (!target) return turn('give_up', null, 'Nothing on this page matches the step', 'Give up');
  return turn('click', target.index, null, `Click ${target.name}`);
}

/** The judge as rules: passed when the page's text shows every quoted text of the expected result. */
export function ruleJudge(request: ScriptedRequest): ScriptedReply {
  const expected = /Expected result: (.*)/.exec(request.prompt)?.[1] ?? '';
  const page = request.prompt.split('Evidence — the page now:')[1] ?? '';
  const quoted = [...expected.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const missing = quoted.filter((text) => !page.includes(text));
  return {
    json: {
      passed: quoted.length > 0 && missing.length === 0,
      reason: missing.length
        ? `The page does not show ${missing.map((t) => `"${t}"`).join(', ')}`
        : `The page shows ${quoted.map((t) => `"${t}"`).join(', ')}`,
      checks: quoted.map((t) => `Verify text "${t}" is visible`),
    },
  };
}

/**
 * The chat's answers to questions about the page as rules: the page's title and URL, and the listed
 * element that best matches the question's words, quoted from the page view the prompt carries.
 */
export function ruleChat(request: ScriptedRequest): ScriptedReply {
  const question = /Question: (.*)/.exec(request.prompt)?.[1] ?? '';
  const title = /^Title: (.*)$/m.exec(request.prompt)?.[1] ?? '';
  const url = /^URL: (.*)$/m.exec(request.prompt)?.[1] ?? '';
  const match = closest(
    listed(request.prompt),
    question.replace(/\b(?:is|there|a|an|the|what|on|this|page)\b/gi, ''),
  );
  return {
    text: `You are on "${title}" (${url}).${match ? ` It has a ${match.role} "${match.name}".` : ''}`,
    inputTokens: 900,
    outputTokens: 40,
  };
}

/**
 * A whole model as rules: the suite given for generation requests, {@link ruleAgent} for browser
 * steps, {@link ruleJudge} for expected results, and 'OK' for anything else (a connection test).
 */
export function ruleModel(suite: { test_cases: unknown[] } = { test_cases: [] }): Responder {
  return (request) => {
    if (request.system.startsWith('You are a senior QA'))
      return { json: suite, inputTokens: 3000, outputTokens: 800 };
    if (request.system.startsWith('You drive a real web browser')) return ruleAgent(request);
    if (request.system.startsWith('You check a web test')) return ruleJudge(request);
    if (request.system.startsWith('You answer questions about the web page')) return ruleChat(request);
    return { text: 'OK' };
  };
}
