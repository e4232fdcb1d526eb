import type { WeakeningKind } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { assertionWeakenings } from './assertion-strength';

/** A saved case of the todo app: what the repairs below change. */
const CASE = [
  'Navigate to /',
  'Fill "New task" with "Buy milk"',
  'Click button "Add"',
  'Verify text "Buy milk" is visible in "Tasks"',
  'Verify text "1 item left" is visible',
  'Verify exactly 1 listitem is visible',
  'Check "Buy milk"',
  'Verify "Buy milk" is checked',
  'Verify text "Nothing to do" is not visible',
  'Verify URL contains "/tasks/1"',
];

/** The case with line `index` replaced by `lines`. */
const edit = (index: number, ...lines: string[]) => [
  ...CASE.slice(0, index),
  ...lines,
  ...CASE.slice(index + 1),
];

const kinds = (after: string[]): WeakeningKind[] => assertionWeakenings(CASE, after).map((w) => w.kind);

describe('repairs built to weaken an assertion are flagged', () => {
  it('a dropped check is check_removed, with the check as it was and none after', () => {
    const [w, ...rest] = assertionWeakenings(CASE, edit(4));
    expect(rest).toEqual([]);
    expect(w).toMatchObject({
      kind: 'check_removed',
      before: 'Verify text "1 item left" is visible',
      after: null,
    });
    expect(w.detail).toBe(
      'Step 5 checked "Verify text "1 item left" is visible"; the repair no longer checks it',
    );
  });

  it('a check turned into an action is check_removed and says what took its place', () => {
    const [w] = assertionWeakenings(CASE, edit(4, 'Click "1 item left"'));
    expect(w.kind).toBe('check_removed');
    expect(w.detail).toContain('Click "1 item left"');
    expect(w.detail).toContain('checks nothing');
  });

  it('a check dropped among same-verb checks is found where it was', () => {
    const before = ['Verify text "A" is visible', 'Verify text "B" is visible', 'Verify text "C" is visible'];
    const after = ['Verify text "A" is visible', 'Verify text "C" is visible'];
    expect(assertionWeakenings(before, after)).toEqual([
      expect.objectContaining({ kind: 'check_removed', before: 'Verify text "B" is visible' }),
    ]);
  });

  it('a text narrowed to a part of itself, or without its number, is text_widened', () => {
    expect(kinds(edit(4, 'Verify text "item left" is visible'))).toEqual(['text_widened']);
    expect(kinds(edit(4, 'Verify text "items left" is visible'))).toEqual(['text_widened']);
    expect(kinds(edit(9, 'Verify URL contains "/tasks"'))).toEqual(['text_widened']);
    expect(kinds(edit(9, 'Verify URL contains "/todo/"'))).toEqual(['text_widened']);
  });

  it('a text check that no longer names the value the case typed is text_widened', () => {
    const after = edit(3, 'Verify text "Task added" is visible in "Tasks"');
    const [w] = assertionWeakenings(CASE, after);
    expect(w.kind).toBe('text_widened');
    expect(w.detail).toContain('"Buy milk", which the case typed');
  });

  it('an exact count changed, or made an at-least, or an at-least lowered, is count_lowered', () => {
    expect(kinds(edit(5, 'Verify exactly 2 listitems are visible'))).toEqual(['count_lowered']);
    expect(kinds(edit(5, 'Verify at least 1 listitems are visible'))).toEqual(['count_lowered']);
    const before = ['Verify at least 3 rows are visible'];
    expect(assertionWeakenings(before, ['Verify at least 2 rows are visible'])[0].kind).toBe('count_lowered');
    expect(assertionWeakenings(before, ['Verify exactly 2 rows are visible'])[0].kind).toBe('count_lowered');
  });

  it('a check limited to an item made a check of any is item_to_any', () => {
    expect(kinds(edit(3, 'Verify text "Buy milk" is visible'))).toEqual(['item_to_any']);
    expect(kinds(edit(7, 'Verify the checkbox in "Tasks" is checked'))).toEqual(['item_to_any']);
    const before = ['Verify button "Delete 3" is visible'];
    expect(assertionWeakenings(before, ['Verify at least 1 buttons are visible'])[0].kind).toBe(
      'item_to_any',
    );
    const inRow = ['Verify exactly 2 cells are visible in "Order 1042"'];
    expect(assertionWeakenings(inRow, ['Verify exactly 2 cells are visible in "Order"'])[0].kind).toBe(
      'item_to_any',
    );
  });

  it('a visual check dropped is check_removed; one of another region or of the whole page is check_softened', () => {
    const looks = ['Navigate to /', 'Verify "Pricing" looks as approved', 'Click "Buy"'];
    expect(assertionWeakenings(looks, ['Navigate to /', 'Click "Buy"']).map((w) => w.kind)).toEqual([
      'check_removed',
    ]);
    for (const now of ['Verify "Plans" looks as approved', 'Verify the page looks as approved']) {
      const [w, ...rest] = assertionWeakenings(looks, ['Navigate to /', now, 'Click "Buy"']);
      expect(rest).toEqual([]);
      expect(w).toMatchObject({ kind: 'check_softened', before: looks[1], after: now });
    }
    // Kept as it was (a repair around it) is no weakening.
    expect(assertionWeakenings(looks, ['Navigate to /', looks[1], 'Click button "Buy"'])).toEqual([]);
  });

  it('a state turned into presence, a not-visible turned into anything, or a check inverted is check_softened', () => {
    expect(kinds(edit(7, 'Verify text "Buy milk" is visible'))).toEqual(['check_softened']);
    expect(kinds(edit(7, 'Verify checkbox "Buy milk" is visible'))).toEqual(['check_softened']);
    expect(kinds(edit(7, 'Verify "Buy milk" is not checked'))).toEqual(['check_softened']);
    expect(kinds(edit(8, 'Verify text "Nothing to do" is visible'))).toEqual(['check_softened']);
    expect(kinds(edit(8, 'Verify URL contains "/"'))).toEqual(['check_softened']);
    const value = ['Verify field "Email" has value "ann@example.com"'];
    expect(assertionWeakenings(value, ['Verify textbox "Email" is visible'])[0].kind).toBe('check_softened');
    const marked = ['Verify listitem "Buy milk" is marked "completed"'];
    expect(assertionWeakenings(marked, ['Verify listitem "Buy milk" is visible'])[0].kind).toBe(
      'check_softened',
    );
  });

  it('an element name that loses its number is text_widened', () => {
    const before = ['Verify heading "Tasks (3)" is visible'];
    expect(assertionWeakenings(before, ['Verify heading "Tasks" is visible'])[0].kind).toBe('text_widened');
  });

  it('several weakenings in one repair are each flagged', () => {
    const after = edit(4, 'Verify text "left" is visible').filter((l) => !l.startsWith('Verify URL'));
    expect(kinds(after).sort()).toEqual(['check_removed', 'text_widened']);
  });

  it('a check line that does not parse is compared as text: kept as is passes, gone is removed', () => {
    const before = ['Click "Go"', 'Verify the moon is blue'];
    expect(assertionWeakenings(before, ['Click "Start"', 'Verify the moon is blue'])).toEqual([]);
    expect(assertionWeakenings(before, ['Click "Start"', 'Verify the moon is grey'])[0].kind).toBe(
      'check_removed',
    );
  });
});

describe('legitimate repairs are not flagged', () => {
  it('a renamed button (the action target changed)', () => {
    expect(assertionWeakenings(CASE, edit(2, 'Click button "Create task"'))).toEqual([]);
  });

  it('a menu click inserted before the moved control', () => {
    expect(assertionWeakenings(CASE, edit(2, 'Click button "More"', 'Click menuitem "Add"'))).toEqual([]);
  });

  it('a renamed heading in a check of the same role, numbers kept', () => {
    const before = ['Verify heading "Your tasks" is visible', 'Verify heading "3 open" is visible'];
    const after = ['Verify heading "Task list" is visible', 'Verify heading "Open: 3" is visible'];
    expect(assertionWeakenings(before, after)).toEqual([]);
  });

  it('a renamed region, a renamed route, a check made stronger or inserted', () => {
    expect(kinds(edit(3, 'Verify text "Buy milk" is visible in "To do"'))).toEqual([]);
    expect(kinds(edit(9, 'Verify URL contains "/todo/1"'))).toEqual([]);
    expect(kinds(edit(4, 'Verify text "1 item left to do" is visible'))).toEqual([]);
    expect(kinds(edit(3, CASE[3], 'Verify exactly 1 checkbox is visible in "Tasks"'))).toEqual([]);
    const before = ['Verify at least 2 rows are visible'];
    expect(assertionWeakenings(before, ['Verify exactly 3 rows are visible'])).toEqual([]);
  });

  it('a text check kept as a wait for the same text, or as the element that shows it', () => {
    expect(kinds(edit(4, 'Wait for "1 item left"'))).toEqual([]);
    expect(kinds(edit(4, 'Verify status "1 item left" is visible'))).toEqual([]);
  });

  it('the same steps', () => {
    expect(assertionWeakenings(CASE, CASE)).toEqual([]);
  });
});
