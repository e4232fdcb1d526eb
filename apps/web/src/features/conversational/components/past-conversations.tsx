import { ArrowLeft, MessageSquare } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PastListPanel } from '../../../components/past-list-panel';
import { SmallButton } from '../../../components/small-button';
import { Spinner } from '../../../components/spinner';
import { useConversation } from '../api/get-conversation';
import { useConversations } from '../api/list-conversations';
import { messagesFromRecords } from '../model/conversation-state';
import { ChatBubble } from './chat-messages';

function when(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}

function Transcript({ id, onBack }: { id: string; onBack: () => void }) {
  const conversation = useConversation(id);
  const messages = useMemo(() => messagesFromRecords(conversation.data?.messages ?? []), [conversation.data]);
  return (
    <div data-testid="past-conversation">
      <SmallButton variant="ghost" icon={ArrowLeft} onClick={onBack}>
        All conversations
      </SmallButton>
      {conversation.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label="Loading conversation" />
        </div>
      ) : conversation.isError ? (
        <p className="mt-3 text-sm text-red-700" role="alert">
          {conversation.error.message}
        </p>
      ) : (
        <>
          <h3 className="mt-3 text-sm font-semibold text-slate-900">{conversation.data.title}</h3>
          {conversation.data.url && (
            <p className="truncate text-xs text-slate-500">{conversation.data.url}</p>
          )}
          {messages.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">No messages in this conversation.</p>
          ) : (
            <ul className="mt-3 max-h-80 space-y-3 overflow-y-auto pr-1" aria-label="Conversation messages">
              {messages.map((message) => (
                <ChatBubble key={message.id} message={message} />
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

/** Beyond the spec: the user's past conversations, each readable again. */
export function PastConversations({ enabled }: { enabled: boolean }) {
  const list = useConversations(enabled);
  // ?conversation=<id> opens that conversation's transcript: Test History links here (docs/HISTORY.md).
  const [search] = useSearchParams();
  const [open, setOpen] = useState<string | null>(() => search.get('conversation'));
  return (
    <PastListPanel
      title="Past conversations"
      testId="past-conversations"
      loadingLabel="Loading conversations"
      list={list}
      empty={{
        icon: MessageSquare,
        title: 'No conversations yet',
        hint: 'Each video session you start is kept here.',
      }}
      listHeightClassName="max-h-72"
      itemKey={(conversation) => conversation.id}
      renderItem={(conversation) => (
        <button
          type="button"
          onClick={() => setOpen(conversation.id)}
          className="flex w-full flex-col items-start gap-0.5 rounded-lg px-2 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          data-testid="past-conversation-item"
        >
          <span className="w-full truncate text-sm font-medium text-slate-800">{conversation.title}</span>
          <span className="w-full truncate text-xs text-slate-500">
            {when(conversation.updated_at)}
            {conversation.url ? ` · ${conversation.url}` : ''}
          </span>
        </button>
      )}
      replacement={open ? <Transcript id={open} onBack={() => setOpen(null)} /> : undefined}
    />
  );
}
