// Writes the support files an export carries (tests/support/argus.ts, and tests/support/auth.ts when
// the project has a login) from their sources:
// - src/template/argus.ts gets, between its two "---- … page-functions.ts" marker lines, Argus's
//   packages/engine/src/page-functions.ts as it is (how targets are looked for, what runs in the page),
//   so the engine and an export share one copy of those semantics;
// - src/support-source.ts then holds both templates (argus.ts and auth.ts, the sign-in per worker) as
//   strings the export can carry without reading files at run time (the server runs as one bundle).
//
//   node packages/playwright-export/embed-support.mjs           writes both
//   node packages/playwright-export/embed-support.mjs --check   writes nothing; exits 1 naming each file
//                                                               that differs from what it would write
//
// src/support-source.test.ts runs the check.
import { readFileSync, writeFileSync } from 'node:fs';

const TEMPLATE = new URL('./src/template/argus.ts', import.meta.url);
const AUTH = new URL('./src/template/auth.ts', import.meta.url);
const SUPPORT = new URL('./src/support-source.ts', import.meta.url);
const PAGE_FUNCTIONS = new URL('../engine/src/page-functions.ts', import.meta.url);
const BEGIN = /^\/\/ ---- Copied from Argus's packages\/engine\/src\/page-functions\.ts .*\n/m;
const END = /^\/\/ ---- End of the copy of packages\/engine\/src\/page-functions\.ts\. ----\n/m;

/** The template with the page functions copied in (the lines between the markers replaced). */
function withPageFunctions(template, pageFunctions) {
  const begin = BEGIN.exec(template);
  const end = END.exec(template);
  if (!begin || !end || end.index < begin.index)
    throw new Error(`${TEMPLATE.pathname}: the two page-functions.ts marker lines are missing`);
  const from = begin.index + begin[0].length;
  return `${template.slice(0, from)}${pageFunctions}${template.slice(end.index)}`;
}

/** src/support-source.ts for the two templates. */
function supportSource(template, auth) {
  return (
    '// Generated from template/argus.ts and template/auth.ts by embed-support.mjs: edit the templates,\n' +
    '// then run it again.\n' +
    '\n' +
    '/** tests/support/argus.ts: how Argus finds what a step names, and its checks. */\n' +
    'export const SUPPORT_SOURCE: string =\n' +
    '  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a TypeScript file\n' +
    `  ${JSON.stringify(template)};\n` +
    '\n' +
    '/** tests/support/auth.ts: the sign-in once per worker, and the account of a pool each worker takes. */\n' +
    'export const AUTH_SOURCE: string =\n' +
    '  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a TypeScript file\n' +
    `  ${JSON.stringify(auth)};\n`
  );
}

const template = withPageFunctions(readFileSync(TEMPLATE, 'utf8'), readFileSync(PAGE_FUNCTIONS, 'utf8'));
const outputs = [
  [TEMPLATE, template],
  [SUPPORT, supportSource(template, readFileSync(AUTH, 'utf8'))],
];
if (process.argv.includes('--check')) {
  const stale = outputs.filter(([file, text]) => readFileSync(file, 'utf8') !== text);
  for (const [file] of stale)
    console.error(
      `${file.pathname} is not generated from its sources: run node packages/playwright-export/embed-support.mjs`,
    );
  process.exit(stale.length > 0 ? 1 : 0);
}
for (const [file, text] of outputs) writeFileSync(file, text);
