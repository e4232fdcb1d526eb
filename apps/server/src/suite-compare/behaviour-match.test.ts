import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { behaviourScore, compareSuites, countChanges, MATCH_THRESHOLD } from './behaviour-match';
import { normalisedSteps, signatureOf } from './behaviour-signature';
import { curatedCases } from './curated';

const testCase = (test_name: string, steps: string[]): TestCase => TestCaseSchema.parse({ test_name, steps });

const ADD = testCase('Adding a note shows it in the list', [
  'Navigate to /',
  'Fill "New note" with "Buy milk"',
  'Click button "Add"',
  'Verify text "Buy milk" is visible',
  'Verify exactly 1 listitems are visible',
]);
const SEARCH = testCase('Searching filters the notes', [
  'Navigate to /',
  'Fill "New note" with "Buy milk"',
  'Click button "Add"',
  'Fill "Search" with "zzz"',
  'Verify text "Buy milk" is not visible',
]);
const DELETE = testCase('Deleting a note removes it', [
  'Navigate to /',
  'Fill "New note" with "Walk the dog"',
  'Click button "Add"',
  'Click button "Delete" in "Walk the dog"',
  'Verify text "Walk the dog" is not visible',
]);
const HEALTH = testCase('The page loads cleanly', [
  'Navigate to /',
  'Verify title contains "Notes"',
  'Verify page has no console errors',
]);

describe('matching generated cases to saved ones by behaviour', () => {
  it('finds exactly the behaviour added and the one removed, the rest unchanged despite other test data', () => {
    const generated = [
      testCase('The page loads cleanly', HEALTH.steps),
      // The same behaviours, written with other test data and in another order.
      testCase('Adding a note', [
        'Navigate to /',
        'Fill "New note" with "Call mum {{RUN_ID}}"',
        'Click button "Add"',
        'Verify text "Call mum {{RUN_ID}}" is visible',
        'Verify exactly 1 listitems are visible',
      ]),
      testCase('Archiving a note moves it to the archive', [
        'Navigate to /',
        'Fill "New note" with "Old idea"',
        'Click button "Add"',
        'Click button "Archive" in "Old idea"',
        'Verify text "Archived (1)" is visible',
      ]),
      testCase('Deleting a note', [
        'Navigate to /',
        'Fill "New note" with "Pay rent"',
        'Click button "Add"',
        'Click button "Delete" in "Pay rent"',
        'Verify text "Pay rent" is not visible',
      ]),
    ];
    const saved = [ADD, SEARCH, DELETE, HEALTH].map((one) => ({ testCase: one, curated: false }));
    const changes = compareSuites(saved, generated);
    expect(countChanges(changes)).toEqual({ added: 1, removed: 1, changed: 0, unchanged: 3 });
    expect(changes.find((change) => change.kind === 'removed')?.saved?.test_name).toBe(SEARCH.test_name);
    const added = changes.find((change) => change.kind === 'added');
    expect(added?.generated?.test_name).toBe('Archiving a note moves it to the archive');
    expect(added?.key).toBe('g2');
    // Each saved case matched its own behaviour, not a look-alike.
    expect(changes.find((change) => change.key === 's2')?.generated?.test_name).toBe('Deleting a note');
  });

  it('matches a case whose labels a redesign renamed, as changed with its step diff', () => {
    const renamed = testCase('Creating a note', [
      'Navigate to /',
      'Fill "Note text" with "Buy milk"',
      'Click button "Create note"',
      'Verify text "Buy milk" is visible',
      'Verify exactly 1 listitems are visible',
    ]);
    const [change] = compareSuites([{ testCase: ADD, curated: true }], [renamed]);
    expect(change).toMatchObject({ kind: 'changed', key: 's0', curated: true, behaviour: 'Creating a note' });
    expect(change.diff.filter((line) => line.op !== 'same').map((line) => `${line.op} ${line.line}`)).toEqual(
      [
        'removed Fill "New note" with "Buy milk"',
        'removed Click button "Add"',
        'added Fill "Note text" with "Buy milk"',
        'added Click button "Create note"',
      ],
    );
  });

  it('does not match cases that act and check differently, however alike their names', () => {
    const checksAnotherThing = testCase('Searching filters the notes', [
      'Navigate to /settings',
      'Check "Dark mode"',
      'Verify "Dark mode" is checked',
    ]);
    expect(behaviourScore(signatureOf(SEARCH), signatureOf(checksAnotherThing))).toBeLessThan(
      MATCH_THRESHOLD,
    );
    expect(countChanges(compareSuites([{ testCase: SEARCH, curated: false }], [checksAnotherThing]))).toEqual(
      {
        added: 1,
        removed: 1,
        changed: 0,
        unchanged: 0,
      },
    );
  });

  it('tells apart behaviours that share their set-up and differ in their own action or effect', () => {
    const archive = testCase('Archiving a note', [
      'Navigate to /',
      'Fill "New note" with "Old idea"',
      'Click button "Add"',
      'Click button "Archive" in "Old idea"',
      'Verify text "Archived (1)" is visible',
    ]);
    // Deleting and searching both add a note first and check it is gone; archiving clicks as deleting does.
    expect(behaviourScore(signatureOf(DELETE), signatureOf(SEARCH))).toBeLessThan(MATCH_THRESHOLD);
    expect(behaviourScore(signatureOf(DELETE), signatureOf(archive))).toBeLessThan(MATCH_THRESHOLD);
    expect(countChanges(compareSuites([{ testCase: DELETE, curated: false }], [archive]))).toMatchObject({
      added: 1,
      removed: 1,
    });
  });

  it('sets typed test data aside, and nothing else', () => {
    expect(normalisedSteps(DELETE.steps)).toEqual([
      'Navigate to /',
      'Fill "New note" with "<value 1>"',
      'Click button "Add"',
      'Click button "Delete" in "<value 1>"',
      'Verify text "<value 1>" is not visible',
    ]);
    expect(signatureOf(DELETE)).toMatchObject({
      start: '/',
      actions: ['fill', 'click:button', 'click:button'],
      effects: ['text-data:gone'],
    });
  });
});

describe('curated cases', () => {
  it('are the ones whose steps a person changed last, not a generation or a repair', () => {
    const edited = { ...DELETE, steps: [...DELETE.steps, 'Verify exactly 0 listitems are visible'] };
    const repaired = { ...ADD, steps: ADD.steps.map((line) => line.replace('"Add"', '"Create"')) };
    const versions = [
      { version: 1, change: 'Created with 3 test cases', test_cases: [ADD, DELETE, HEALTH] },
      { version: 2, change: 'Added 0 test cases, changed 1, removed 0', test_cases: [ADD, edited, HEALTH] },
      { version: 3, change: 'Repaired from run 3f2a91c0: 1 case', test_cases: [repaired, edited, HEALTH] },
    ];
    expect(curatedCases(versions, [repaired, edited, HEALTH])).toEqual([false, true, false]);
  });
});
