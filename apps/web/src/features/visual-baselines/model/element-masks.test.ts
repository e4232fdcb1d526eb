import { describe, expect, it } from 'vitest';
import {
  addElementMask,
  canAddElementMask,
  ELEMENT_ROLES,
  elementMaskText,
  MAX_ELEMENT_MASKS,
  parseElementMask,
  ROLE_OPTIONS,
  removeElementMask,
  sameElementMask,
  sameElementMasks,
} from './element-masks';

describe('elementMaskText', () => {
  it('says a text, a role, or both', () => {
    expect(elementMaskText({ text: "Today's offer" })).toBe("text “Today's offer”");
    expect(elementMaskText({ role: 'img' })).toBe('role img');
    expect(elementMaskText({ role: 'button', text: 'Buy' })).toBe('role button with text “Buy”');
  });
});

describe('the role select', () => {
  it('offers no role first, then the common roles', () => {
    expect(ROLE_OPTIONS[0]).toEqual({ value: '', label: 'Any role (by text only)' });
    expect(ROLE_OPTIONS.slice(1).map((o) => o.value)).toEqual([...ELEMENT_ROLES]);
    expect(ELEMENT_ROLES).toContain('img');
    expect(ELEMENT_ROLES).toContain('banner');
  });
});

describe('canAddElementMask', () => {
  it('is false until a text or a role is set', () => {
    expect(canAddElementMask({ text: '', role: '' })).toBe(false);
    expect(canAddElementMask({ text: '   ', role: '' })).toBe(false);
    expect(canAddElementMask({ text: 'Buy', role: '' })).toBe(true);
    expect(canAddElementMask({ text: '', role: 'img' })).toBe(true);
  });
});

describe('parseElementMask', () => {
  it('makes a mask of a text (trimmed), a role, or both', () => {
    expect(parseElementMask({ text: "  Today's offer ", role: '' })).toEqual({
      mask: { text: "Today's offer" },
    });
    expect(parseElementMask({ text: '', role: 'img' })).toEqual({ mask: { role: 'img' } });
    expect(parseElementMask({ text: 'Buy', role: 'button' })).toEqual({
      mask: { text: 'Buy', role: 'button' },
    });
  });

  it('says the schema’s message when it is not a mask', () => {
    expect(parseElementMask({ text: '', role: '' })).toEqual({ error: 'Name a text, a role, or both' });
    expect(parseElementMask({ text: '  ', role: '' })).toEqual({ error: 'Name a text, a role, or both' });
    expect(parseElementMask({ text: '', role: 'Img' })).toEqual({
      error: 'An ARIA role: lower-case letters',
    });
    expect(parseElementMask({ text: 'x'.repeat(201), role: '' })).toEqual({
      error: 'A text of at most 200 characters',
    });
    expect(parseElementMask({ text: 'x'.repeat(200), role: '' }).mask).toEqual({ text: 'x'.repeat(200) });
  });

  it('refuses a mask the list has (case and spacing aside) and one past the most', () => {
    const list = [{ text: 'Buy now', role: 'button' }, { role: 'img' }];
    expect(parseElementMask({ text: 'buy   NOW', role: 'button' }, list)).toEqual({
      error: 'Already masked: role button with text “buy   NOW”',
    });
    expect(parseElementMask({ text: '', role: 'img' }, list).error).toBe('Already masked: role img');
    expect(parseElementMask({ text: 'Buy now', role: '' }, list)).toEqual({ mask: { text: 'Buy now' } });
    const full = Array.from({ length: MAX_ELEMENT_MASKS }, (_, i) => ({ text: `t${i}` }));
    expect(parseElementMask({ text: 'more', role: '' }, full)).toEqual({ error: 'At most 20 element masks' });
  });
});

describe('adding and removing', () => {
  it('adds at the end, not a mask it has, not past the most', () => {
    expect(addElementMask([{ role: 'img' }], { text: 'Buy' })).toEqual([{ role: 'img' }, { text: 'Buy' }]);
    expect(addElementMask([{ role: 'img' }], { role: 'img' })).toEqual([{ role: 'img' }]);
    const full = Array.from({ length: MAX_ELEMENT_MASKS }, (_, i) => ({ text: `t${i}` }));
    expect(addElementMask(full, { role: 'img' })).toHaveLength(MAX_ELEMENT_MASKS);
  });

  it('removes by index, leaving the list it was given', () => {
    const list = [{ role: 'img' }, { text: 'Buy' }, { role: 'banner' }];
    expect(removeElementMask(list, 1)).toEqual([{ role: 'img' }, { role: 'banner' }]);
    expect(removeElementMask(list, 5)).toEqual(list);
    expect(list).toHaveLength(3);
  });

  it('compares masks and lists', () => {
    expect(sameElementMask({ text: 'A  b' }, { text: 'a b' })).toBe(true);
    expect(sameElementMask({ text: 'Buy' }, { text: 'Buy', role: 'button' })).toBe(false);
    expect(sameElementMasks([{ role: 'img' }], [{ role: 'img' }])).toBe(true);
    expect(sameElementMasks([{ role: 'img' }], [{ role: 'img' }, { text: 'x' }])).toBe(false);
    expect(sameElementMasks([{ text: 'A' }], [{ text: 'a' }])).toBe(false);
  });
});
