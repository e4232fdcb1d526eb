// Writes src/support-source.ts from src/template/argus.ts: the support file every export carries, as a
// string the export can hold without reading files at run time (the server runs as one bundle).
// `node packages/playwright-export/embed-support.mjs`; src/export.test.ts fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';

const template = readFileSync(new URL('./src/template/argus.ts', import.meta.url), 'utf8');
const out =
  '// Generated from template/argus.ts by embed-support.mjs: edit the template, then run it again.\n' +
  'export const SUPPORT_SOURCE: string =\n' +
  '  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a TypeScript file\n' +
  `  ${JSON.stringify(template)};\n`;
writeFileSync(new URL('./src/support-source.ts', import.meta.url), out);
