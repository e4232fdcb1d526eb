import { describe, expect, it } from 'vitest';
import {
  CHAT_MAX_LENGTH,
  chatKeyAction,
  inputHeight,
  placeholderFor,
  prepareMessage,
  showCounter,
} from './chat-input';

describe('chat input (docs/PRODUCT.md#chat)', () => {
  it('trims, ignores empty text and keeps at most 1000 characters', () => {
    expect(prepareMessage('  click Products \n')).toBe('click Products');
    expect(prepareMessage('   \n\t')).toBeNull();
    expect(prepareMessage('x'.repeat(1200))).toHaveLength(CHAT_MAX_LENGTH);
  });

  it('shows the counter once over 80 % of the limit', () => {
    expect(showCounter(800)).toBe(false);
    expect(showCounter(801)).toBe(true);
    expect(showCounter(1000)).toBe(true);
  });

  it('has the two placeholders', () => {
    expect(placeholderFor(true)).toBe('Tell me what to do on the website...');
    expect(placeholderFor(false)).toBe('Type a message to start video browsing...');
  });

  it('grows up to 120 px', () => {
    expect(inputHeight(44)).toBe(44);
    expect(inputHeight(120)).toBe(120);
    expect(inputHeight(121)).toBe(120);
    expect(inputHeight(400)).toBe(120);
  });

  it('sends on Enter, new line on Shift+Enter, nothing while composing', () => {
    expect(chatKeyAction({ key: 'Enter', shiftKey: false })).toBe('send');
    expect(chatKeyAction({ key: 'Enter', shiftKey: true })).toBe('newline');
    expect(chatKeyAction({ key: 'Enter', shiftKey: false, isComposing: true })).toBeNull();
    expect(chatKeyAction({ key: 'a', shiftKey: false })).toBeNull();
  });
});
