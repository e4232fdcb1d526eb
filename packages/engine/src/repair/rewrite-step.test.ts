import { describe, expect, it } from 'vitest';
import { nameSimilarity } from './names';
import { rewriteCase } from './rewrite-step';

describe('rewriteCase', () => {
  it('points the failed step and every later step naming the same target at the replacement', () => {
    const steps = [
      'Navigate to /',
      'Click "Add"',
      'Verify button "Add" is visible',
      'Click "Add task"',
      'Verify text "Added" is visible',
    ];
    const { after, repairedIndex } = rewriteCase(steps, 1, {
      name: 'Create task',
      role: 'button',
      keepRegion: true,
      reveal: null,
    });
    expect(after).toEqual([
      'Navigate to /',
      'Click button "Create task"',
      'Verify button "Create task" is visible',
      'Click "Add task"',
      'Verify text "Added" is visible',
    ]);
    expect(repairedIndex).toBe(1);
  });

  it('leaves a later step naming the same words with another role: another control (a nav link and a form button both "Add expense")', () => {
    const steps = [
      'Navigate to /new',
      'Click button "Add expense"',
      'Verify "Add expense" is not marked "current"',
      'Verify button "Add expense" is not visible',
      'Verify link "Add expense" is visible',
    ];
    const { after } = rewriteCase(steps, 2, {
      name: 'New entry',
      role: 'link',
      keepRegion: true,
      reveal: null,
      was: 'link',
    });
    // Where the old role is not known, the replacement's decides.
    const unknown = rewriteCase(steps, 2, {
      name: 'New entry',
      role: 'link',
      keepRegion: true,
      reveal: null,
    });
    expect(unknown.after).toEqual(after);
    expect(after).toEqual([
      'Navigate to /new',
      'Click button "Add expense"',
      'Verify link "New entry" is not marked "current"',
      'Verify button "Add expense" is not visible',
      'Verify link "New entry" is visible',
    ]);
  });

  it('inserts the revealing click before the step, and drops a region that is gone', () => {
    const steps = ['Navigate to /', 'Click "Active" in "Filters"', 'Verify exactly 1 listitem is visible'];
    const { after, repairedIndex } = rewriteCase(steps, 1, {
      name: 'Active',
      role: 'menuitem',
      keepRegion: false,
      reveal: 'Click button "Filter"',
    });
    expect(after).toEqual([
      'Navigate to /',
      'Click button "Filter"',
      'Click menuitem "Active"',
      'Verify exactly 1 listitem is visible',
    ]);
    expect(repairedIndex).toBe(2);
  });

  it("opens the form's next part again before each later use of the field that follows the same step", () => {
    const steps = [
      'Navigate to /',
      'Fill "What is it?" with "Rice"',
      'Fill "How many" with "2"',
      'Click button "Add to pantry"',
      'Fill "What is it?" with "Oats"',
      'Fill "How many" with "3"',
      'Click button "Add to pantry"',
      'Verify field "How many" has value "2"',
    ];
    const { after, repairedIndex, insertedBefore } = rewriteCase(steps, 2, {
      name: 'Count',
      role: null,
      keepRegion: true,
      reveal: 'Click button "Next"',
    });
    expect(after).toEqual([
      'Navigate to /',
      'Fill "What is it?" with "Rice"',
      'Click button "Next"',
      'Fill "Count" with "2"',
      'Click button "Add to pantry"',
      'Fill "What is it?" with "Oats"',
      'Click button "Next"',
      'Fill "Count" with "3"',
      'Click button "Add to pantry"',
      // Not after the same step: renamed, nothing clicked before it.
      'Verify field "Count" has value "2"',
    ]);
    expect(repairedIndex).toBe(3);
    expect(insertedBefore).toEqual([2, 5]);
  });

  it('keeps the value a field step types', () => {
    const { after } = rewriteCase(['Fill "Borrower" with "Borrower"'], 0, {
      name: 'Borrowed by',
      role: 'textbox',
      keepRegion: true,
      reveal: null,
    });
    expect(after).toEqual(['Fill "Borrowed by" with "Borrower"']);
  });
});

describe('rewriteCase of a rename inside a longer name', () => {
  it('names the new words in later steps naming the part that changed', () => {
    const steps = [
      'Navigate to /',
      'Verify title contains "Your cart – Acme"',
      'Verify heading "Your cart" is visible',
    ];
    const { after } = rewriteCase(steps, 1, {
      name: 'Shopping bag – Acme',
      role: null,
      keepRegion: true,
      reveal: null,
    });
    expect(after.slice(1)).toEqual([
      'Verify title contains "Shopping bag – Acme"',
      'Verify heading "Shopping bag" is visible',
    ]);
  });
});

describe('rewriteCase of a region that is gone', () => {
  it('looks in the new region from the failed step on, or anywhere when there is none', () => {
    const steps = [
      'Navigate to /',
      'Click "Edit" in "Groceries"',
      'Verify text "Milk" is visible in "Groceries"',
    ];
    const moved = rewriteCase(steps, 1, {
      name: 'Grocery list',
      role: null,
      keepRegion: true,
      reveal: null,
      part: 'region',
    });
    expect(moved.after).toEqual([
      'Navigate to /',
      'Click "Edit" in "Grocery list"',
      'Verify text "Milk" is visible in "Grocery list"',
    ]);
    const anywhere = rewriteCase(steps, 2, {
      name: '',
      role: null,
      keepRegion: true,
      reveal: null,
      part: 'region',
    });
    expect(anywhere.after[2]).toBe('Verify text "Milk" is visible');
  });
});

describe('nameSimilarity', () => {
  it('reads whole words and stems, and spelling give or take a few letters', () => {
    expect(nameSimilarity('Add', 'add')).toBe(1);
    expect(nameSimilarity('Tasks', 'Task list')).toBeGreaterThanOrEqual(0.5);
    expect(nameSimilarity('E-mail', 'Email')).toBeGreaterThan(0.7);
    expect(nameSimilarity('Add', 'Create task')).toBeLessThan(0.3);
    // Named after the same item, the rest is compared; long names by their words, not their letters.
    expect(nameSimilarity('Decrease quantity of Socks', 'Add another Socks', 'Socks')).toBe(0);
    expect(
      nameSimilarity('Decrease quantity of Trail Running Shoes', 'Add another Trail Running Shoes'),
    ).toBeLessThan(0.5);
  });
});
