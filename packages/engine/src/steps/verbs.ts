import { STEP_GRAMMAR, type StepVerb, type VerbGrammar } from '@argus/protocol';
import * as checks from './check-verbs';
import * as input from './input-verbs';
import * as pageChecks from './page-check-verbs';
import * as pageVerbs from './page-verbs';
import type { VerbAction } from './verb-action';
import * as visual from './visual-verbs';

/** One verb of the step language as the engine carries it out. */
export interface Verb<V extends StepVerb> {
  /** How a line of it is read and written: its entry in @argus/protocol's `STEP_GRAMMAR`, declared there once. */
  grammar: VerbGrammar<V>;
  /** What it does, in a line (docs/STEP-LANGUAGE.md has each form and its example). */
  summary: string;
  /** How it is carried out on the page; answers the selector it used, if any. */
  perform: VerbAction<V>;
}

/**
 * Every verb of the step language, one entry each: the only place a verb is carried out. A verb added
 * to `StepSchema` (@argus/protocol) fails to compile here until it has its entry.
 */
export const VERBS: { readonly [V in StepVerb]: Verb<V> } = {
  navigate: {
    grammar: STEP_GRAMMAR.navigate,
    summary: 'opens a page; an answer of 400 or more fails',
    perform: pageVerbs.navigate,
  },
  back: { grammar: STEP_GRAMMAR.back, summary: 'browser back', perform: pageVerbs.back },
  reload: {
    grammar: STEP_GRAMMAR.reload,
    summary: 'reloads the page (its console and request record start again)',
    perform: pageVerbs.reload,
  },
  click: {
    grammar: STEP_GRAMMAR.click,
    summary: 'clicks a target, or the control of a role in a region',
    perform: input.click,
  },
  doubleClick: {
    grammar: STEP_GRAMMAR.doubleClick,
    summary: 'double-clicks the text a person reads',
    perform: input.doubleClick,
  },
  fill: {
    grammar: STEP_GRAMMAR.fill,
    summary: 'replaces the value of a field found by its label',
    perform: input.fill,
  },
  clear: { grammar: STEP_GRAMMAR.clear, summary: 'empties a field', perform: input.clear },
  select: {
    grammar: STEP_GRAMMAR.select,
    summary: 'picks an option of a select by its text (or value)',
    perform: input.select,
  },
  check: {
    grammar: STEP_GRAMMAR.check,
    summary: 'ticks or unticks a checkbox or radio and waits for it to be so',
    perform: input.check,
  },
  press: {
    grammar: STEP_GRAMMAR.press,
    summary: "presses a key; copy, cut and paste use the session's clipboard",
    perform: input.press,
  },
  hover: { grammar: STEP_GRAMMAR.hover, summary: 'moves the mouse over a target', perform: input.hover },
  type: { grammar: STEP_GRAMMAR.type, summary: 'types into the field that has focus', perform: input.type },
  fillFocused: {
    grammar: STEP_GRAMMAR.fillFocused,
    summary: 'replaces the value of the field that has focus',
    perform: input.fillFocused,
  },
  scroll: {
    grammar: STEP_GRAMMAR.scroll,
    summary: 'scrolls to the top, the bottom, or a target',
    perform: pageVerbs.scroll,
  },
  wait: {
    grammar: STEP_GRAMMAR.wait,
    summary: 'waits a while (at most the step timeout)',
    perform: pageVerbs.wait,
  },
  waitForText: {
    grammar: STEP_GRAMMAR.waitForText,
    summary: 'waits for a text to be visible',
    perform: pageVerbs.waitForText,
  },
  viewport: {
    grammar: STEP_GRAMMAR.viewport,
    summary: 'resizes the viewport (within the viewport limits)',
    perform: pageVerbs.viewport,
  },
  screenshot: {
    grammar: STEP_GRAMMAR.screenshot,
    summary: 'nothing more than the screenshot every step gets',
    perform: pageVerbs.screenshot,
  },
  verifyText: {
    grammar: STEP_GRAMMAR.verifyText,
    summary: 'a text is (or is not) visible, in a region if named',
    perform: checks.verifyText,
  },
  verifyElement: {
    grammar: STEP_GRAMMAR.verifyElement,
    summary: 'an element of a role and name is (or is not) visible',
    perform: checks.verifyElement,
  },
  verifySum: {
    grammar: STEP_GRAMMAR.verifySum,
    summary: "the parts rows' numbers add up to the total row's",
    perform: pageChecks.verifySum,
  },
  verifyCountOf: {
    grammar: STEP_GRAMMAR.verifyCountOf,
    summary: 'the number shown with a text counts the rows showing a cell',
    perform: pageChecks.verifyCountOf,
  },
  verifyUrl: {
    grammar: STEP_GRAMMAR.verifyUrl,
    summary: 'the URL contains a text',
    perform: checks.verifyUrl,
  },
  verifyTitle: {
    grammar: STEP_GRAMMAR.verifyTitle,
    summary: 'the title contains a text',
    perform: checks.verifyTitle,
  },
  verifyValue: {
    grammar: STEP_GRAMMAR.verifyValue,
    summary: 'a field holds a value',
    perform: checks.verifyValue,
  },
  verifyInvalid: {
    grammar: STEP_GRAMMAR.verifyInvalid,
    summary: 'a field shows a validation error',
    perform: checks.verifyInvalid,
  },
  verifyNoErrors: {
    grammar: STEP_GRAMMAR.verifyNoErrors,
    summary: 'no error message or invalid field is shown',
    perform: pageChecks.verifyNoErrors,
  },
  verifyCount: {
    grammar: STEP_GRAMMAR.verifyCount,
    summary: 'at least n elements of a role are visible',
    perform: checks.verifyCount,
  },
  verifyExactCount: {
    grammar: STEP_GRAMMAR.verifyExactCount,
    summary: 'exactly n elements of a role are visible, in a region if named',
    perform: checks.verifyExactCount,
  },
  verifyChecked: {
    grammar: STEP_GRAMMAR.verifyChecked,
    summary: 'a checkbox or radio is (or is not) checked',
    perform: checks.verifyChecked,
  },
  verifyState: {
    grammar: STEP_GRAMMAR.verifyState,
    summary: 'a target or its item is (or is not) marked with a state (class, aria-*, data-state)',
    perform: checks.verifyState,
  },
  verifyNoConsoleErrors: {
    grammar: STEP_GRAMMAR.verifyNoConsoleErrors,
    summary: 'the page logged no console error since it loaded',
    perform: pageChecks.verifyNoConsoleErrors,
  },
  verifyNoFailedRequests: {
    grammar: STEP_GRAMMAR.verifyNoFailedRequests,
    summary: 'no request of the page failed or answered 400 or more',
    perform: pageChecks.verifyNoFailedRequests,
  },
  verifyLinksWork: {
    grammar: STEP_GRAMMAR.verifyLinksWork,
    summary: 'same-origin links answer below 400',
    perform: pageChecks.verifyLinksWork,
  },
  verifyImagesAlt: {
    grammar: STEP_GRAMMAR.verifyImagesAlt,
    summary: 'every image has an alt attribute',
    perform: pageChecks.verifyImagesAlt,
  },
  verifyNoOverflow: {
    grammar: STEP_GRAMMAR.verifyNoOverflow,
    summary: 'the page is no wider than its viewport',
    perform: pageChecks.verifyNoOverflow,
  },
  verifyAccessibility: {
    grammar: STEP_GRAMMAR.verifyAccessibility,
    summary: 'no serious or critical axe-core violation',
    perform: pageChecks.verifyAccessibility,
  },
  verifyLooksApproved: {
    grammar: STEP_GRAMMAR.verifyLooksApproved,
    summary:
      'the page (or a region) looks as its approved baseline; a difference is recorded for review, not failed',
    perform: visual.verifyLooksApproved,
  },
};
