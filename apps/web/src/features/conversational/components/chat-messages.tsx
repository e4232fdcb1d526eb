import { AlertTriangle, ArrowDown, Bot, Info, MousePointerClick } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import type { ChatMessage } from '../model/conversation-state';
import { CONVERSATIONAL_TEXTS } from '../model/texts';

function time(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export function ChatBubble({ message }: { message: ChatMessage }) {
  if (message.role === 'system') {
    const error = message.metadata?.type === 'error';
    return (
      <li
        className={cn(
          'mx-auto flex max-w-[95%] items-start gap-2 rounded-lg px-3 py-2 text-xs',
          error ? 'bg-red-50 text-red-800 ring-1 ring-red-200' : 'bg-slate-100 text-slate-700',
        )}
        data-testid="chat-message"
        data-role="system"
      >
        {error ? (
          <AlertTriangle className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        ) : (
          <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        )}
        <span className="min-w-0 break-words">{message.content}</span>
      </li>
    );
  }
  if (message.type === 'action') {
    return (
      <li
        className="flex max-w-[90%] items-start gap-2 text-xs text-slate-600"
        data-testid="chat-message"
        data-role="action"
      >
        <span className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
          <MousePointerClick className="size-3" aria-hidden />
        </span>
        <span className="min-w-0">
          <span className="block break-words font-medium text-slate-700">{message.content}</span>
          {message.url && <span className="block truncate text-slate-500">{message.url}</span>}
        </span>
      </li>
    );
  }
  const mine = message.role === 'user';
  return (
    <li
      className={cn('flex flex-col', mine ? 'items-end' : 'items-start')}
      data-testid="chat-message"
      data-role={message.role}
    >
      <div
        className={cn(
          'max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-sm',
          mine ? 'rounded-br-md bg-indigo-600 text-white' : 'rounded-bl-md bg-slate-100 text-slate-800',
        )}
      >
        <span className="sr-only">{mine ? 'You: ' : 'Assistant: '}</span>
        {message.content}
      </div>
      <span className="mt-1 text-[11px] text-slate-500">
        {time(message.timestamp)}
        {message.status === 'pending' && ' · not sent'}
      </span>
    </li>
  );
}

/** docs/PRODUCT.md#chat: the message list, the typing indicator and a scroll-to-bottom button. */
export function ChatMessages({
  messages,
  typing,
  empty,
}: {
  messages: readonly ChatMessage[];
  typing: boolean;
  empty: string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);
  const atBottomRef = useRef(true);

  const scrollToBottom = useCallback((smooth: boolean) => {
    const list = listRef.current;
    if (!list) return;
    list.scrollTo({ top: list.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
  }, []);

  // Follow new messages while the reader is at the bottom.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when messages or typing change
  useLayoutEffect(() => {
    if (atBottomRef.current) scrollToBottom(false);
  }, [messages, typing, scrollToBottom]);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const onScroll = () => {
      const bottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
      atBottomRef.current = bottom;
      setAtBottom(bottom);
    };
    list.addEventListener('scroll', onScroll, { passive: true });
    return () => list.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={listRef}
        className="h-full overflow-y-auto px-4 py-4"
        role="log"
        aria-label="Chat messages"
        aria-live="polite"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        data-testid="chat-messages"
      >
        {messages.length === 0 && !typing ? (
          <p className="mx-auto mt-8 max-w-xs text-center text-sm text-slate-500">{empty}</p>
        ) : (
          <ul className="space-y-3">
            {messages.map((message) => (
              <ChatBubble key={message.id} message={message} />
            ))}
          </ul>
        )}
        {typing && (
          <p className="mt-3 flex items-center gap-2 text-sm text-slate-600" data-testid="typing-indicator">
            <Bot className="size-4 text-indigo-600" aria-hidden />
            <span className="flex gap-1" aria-hidden>
              <span className="size-1.5 animate-bounce rounded-full bg-indigo-400" />
              <span className="size-1.5 animate-bounce rounded-full bg-indigo-400 [animation-delay:150ms]" />
              <span className="size-1.5 animate-bounce rounded-full bg-indigo-400 [animation-delay:300ms]" />
            </span>
            {CONVERSATIONAL_TEXTS.thinking}
          </p>
        )}
      </div>
      {!atBottom && (
        <button
          type="button"
          onClick={() => scrollToBottom(true)}
          aria-label="Scroll to bottom"
          title="Scroll to bottom"
          data-testid="scroll-to-bottom"
          className="absolute right-4 bottom-3 inline-flex size-8 items-center justify-center rounded-full bg-white text-slate-700 shadow-md ring-1 ring-slate-200 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <ArrowDown className="size-4" aria-hidden />
        </button>
      )}
    </div>
  );
}
