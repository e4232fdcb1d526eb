import { SendHorizontal } from 'lucide-react';
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import {
  CHAT_MAX_LENGTH,
  chatKeyAction,
  inputHeight,
  placeholderFor,
  showCounter,
} from '../model/chat-input';

export interface ChatInputProps {
  sessionActive: boolean;
  disabled: boolean;
  /** Resolves true once the message left: the input is cleared. */
  onSend: (text: string) => Promise<boolean>;
}

/**
 * docs/PRODUCT.md#chat: Enter sends, Shift+Enter is a new line; at most 1000 characters, with a counter
 * from 80 %; grows up to 120 px; disabled unless connected and while the assistant types.
 */
export function ChatInput({ sessionActive, disabled, onSend }: ChatInputProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const counterId = `${id}-counter`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the text
  useLayoutEffect(() => {
    const area = ref.current;
    if (!area) return;
    area.style.height = 'auto';
    area.style.height = `${inputHeight(area.scrollHeight)}px`;
  }, [text]);

  const send = async () => {
    if (disabled || sending || !text.trim()) return;
    setSending(true);
    try {
      if (await onSend(text)) setText('');
    } finally {
      setSending(false);
      ref.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = chatKeyAction({
      key: event.key,
      shiftKey: event.shiftKey,
      isComposing: event.nativeEvent.isComposing,
    });
    if (action === 'send') {
      event.preventDefault();
      void send();
    }
  };

  const counter = showCounter(text.length);
  const blocked = disabled || sending;
  return (
    <form
      className="border-t border-slate-100 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <div className="flex items-end gap-2">
        <label htmlFor={id} className="sr-only">
          Message
        </label>
        <textarea
          ref={ref}
          id={id}
          rows={1}
          value={text}
          maxLength={CHAT_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={placeholderFor(sessionActive)}
          disabled={blocked}
          aria-describedby={counter ? counterId : undefined}
          data-testid="chat-input"
          className={cn(
            'block max-h-[200px] min-h-10 flex-1 resize-none rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs',
            'placeholder:text-slate-500 focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none',
            'disabled:cursor-not-allowed disabled:bg-slate-50',
          )}
        />
        <button
          type="submit"
          disabled={blocked || !text.trim()}
          aria-label="Send message"
          title="Send (Enter)"
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-indigo-600 text-white shadow-sm transition-colors hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:bg-indigo-300"
        >
          <SendHorizontal className="size-4" aria-hidden />
        </button>
      </div>
      <div className="mt-1.5 flex items-center justify-between gap-2 text-xs text-slate-500">
        <span>Enter to send, Shift+Enter for a new line</span>
        {counter && (
          <span
            id={counterId}
            data-testid="chat-counter"
            className={cn('tabular-nums', text.length >= CHAT_MAX_LENGTH ? 'font-semibold text-red-700' : '')}
          >
            {text.length}/{CHAT_MAX_LENGTH}
          </span>
        )}
      </div>
    </form>
  );
}
