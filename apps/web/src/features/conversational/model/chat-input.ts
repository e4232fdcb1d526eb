import { CONVERSATIONAL_TEXTS } from './texts';

/** docs/PRODUCT.md#chat: a chat message is at most 1000 characters; the counter shows once past 80 % of it. */
export const CHAT_MAX_LENGTH = 1000;
export const CHAT_COUNTER_FROM = 0.8;
/** docs/PRODUCT.md#chat: the input grows with its text up to 120 px (script); CSS caps it at 200 px. */
export const CHAT_INPUT_MAX_HEIGHT = 120;

/** The message to send: trimmed, null when empty (docs/PRODUCT.md#chat: an empty message is ignored). */
export function prepareMessage(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  return trimmed.slice(0, CHAT_MAX_LENGTH);
}

/** Whether the character counter shows: once the text is over 80 % of the limit. */
export function showCounter(length: number): boolean {
  return length > CHAT_MAX_LENGTH * CHAT_COUNTER_FROM;
}

/** docs/PRODUCT.md#chat: the input's placeholder. */
export function placeholderFor(sessionActive: boolean): string {
  return sessionActive ? CONVERSATIONAL_TEXTS.placeholderActive : CONVERSATIONAL_TEXTS.placeholderInactive;
}

/** The height the input grows to for its content. */
export function inputHeight(scrollHeight: number): number {
  return Math.min(Math.max(scrollHeight, 0), CHAT_INPUT_MAX_HEIGHT);
}

/** What a key press in the chat input does (docs/PRODUCT.md#chat: Enter sends, Shift+Enter is a new line). */
export function chatKeyAction(event: {
  key: string;
  shiftKey: boolean;
  isComposing?: boolean;
}): 'send' | 'newline' | null {
  if (event.key !== 'Enter' || event.isComposing) return null;
  return event.shiftKey ? 'newline' : 'send';
}
