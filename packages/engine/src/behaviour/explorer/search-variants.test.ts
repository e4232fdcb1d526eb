import { describe, expect, it } from 'vitest';
import type { CandidateAction } from '../candidates';
import { searchedText, searchVariants } from './search-variants';

const search: CandidateAction = {
  kind: 'add',
  description: 'type into "Search the pantry" and press Enter',
  steps: [
    { verb: 'fill', field: 'Search the pantry', value: 'milk' },
    { verb: 'press', key: 'Enter', field: 'Search the pantry' },
  ],
  control: { role: 'textbox', name: 'Search the pantry', item: null, type: 'search' },
  value: 'milk',
  scope: 'page',
  signature: 'add|Search the pantry',
};

describe('the variants of a search', () => {
  it('types the text in other letters’ case and as part of its longest word', () => {
    const variants = searchVariants(search, 'milk');
    expect(variants.map((v) => v.steps[0])).toEqual([
      { verb: 'fill', field: 'Search the pantry', value: 'MILK' },
      { verb: 'fill', field: 'Search the pantry', value: 'mil' },
    ]);
    expect(searchVariants(search, 'Dog')).toHaveLength(1);
  });

  it('finds the text a search typed, and never varies a variant again', () => {
    expect(searchedText(search)).toBe('milk');
    expect(searchedText(searchVariants(search, 'milk')[0])).toBeNull();
    const adding = { ...search, control: { ...search.control, name: 'New todo', type: 'text' } };
    adding.steps = [{ verb: 'fill', field: 'New todo', value: 'Buy milk' }];
    expect(searchedText(adding)).toBeNull();
  });
});
