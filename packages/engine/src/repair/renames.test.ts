import { describe, expect, it } from 'vitest';
import { renamedName, renamesOf } from './renames';

describe('renamesOf', () => {
  it('reads each renamed target off a proved repair, skipping the click it inserted to open a menu', () => {
    const before = ['Fill "New todo" with "Buy milk"', 'Press Enter in "New todo"', 'Click link "All"'];
    const after = [
      'Fill "Task description" with "Buy milk"',
      'Press Enter in "Task description"',
      'Click button "Which tasks"',
      'Click menuitem "Every task"',
    ];
    expect(renamesOf(before, after, 'The All link opens #/')).toEqual([
      { from: 'New todo', to: 'Task description', seenIn: 'The All link opens #/' },
      { from: 'All', to: 'Every task', seenIn: 'The All link opens #/' },
    ]);
  });

  it('finds no rename where the lines kept their names, or a step changed kind', () => {
    expect(
      renamesOf(
        ['Click "Save"', 'Verify text "Saved" is visible'],
        ['Click "Save"', 'Verify text "Saved" is visible'],
        'x',
      ),
    ).toEqual([]);
    expect(renamesOf(['Verify text "Saved" is visible'], ['Verify title contains "Saved!"'], 'x')).toEqual(
      [],
    );
  });
});

describe('renamedName', () => {
  const renames = [
    { from: 'Mark all as complete', to: 'Finish everything', seenIn: 'a' },
    { from: 'Decrease quantity of Merino Wool Socks', to: 'Fewer Merino Wool Socks', seenIn: 'b' },
    { from: 'Toggle Buy milk', to: 'Done: Buy milk', seenIn: 'c' },
    { from: 'Add', to: 'Create task', seenIn: 'd' },
  ];

  it('maps the same old name, letter case aside', () => {
    expect(renamedName('mark all as complete', renames)?.name).toBe('Finish everything');
  });

  it('maps another item’s control renamed by the same pattern', () => {
    expect(renamedName('Decrease quantity of Trail Running Shoes', renames)?.name).toBe(
      'Fewer Trail Running Shoes',
    );
    expect(renamedName('Toggle Walk the dog', renames)).toEqual({
      name: 'Done: Walk the dog',
      rename: renames[2],
    });
  });

  it('maps nothing else: a name that only shares a word, or a rename with no kept part', () => {
    expect(renamedName('Increase quantity of Trail Running Shoes', renames)).toBeNull();
    expect(renamedName('Add to cart', renames)).toBeNull();
    expect(renamedName('Toggle', renames)).toBeNull();
  });
});
