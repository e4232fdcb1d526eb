import { FlaskConical, KeyRound, MessageCircle, MonitorPlay, WifiOff } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Banner } from '../../components/banner';
import { EmptyState } from '../../components/empty-state';
import { SmallButton } from '../../components/small-button';
import { useCan } from '../../lib/organization';
import { BrowserFrame } from './components/browser-frame';
import { ChatInput } from './components/chat-input';
import { ChatMessages } from './components/chat-messages';
import { ConversationalHeader } from './components/conversational-header';
import { PastConversations } from './components/past-conversations';
import { SaveTestForm } from './components/save-test-form';
import { UrlBar } from './components/url-bar';
import { UseAsLoginDialog } from './components/use-as-login-dialog';
import { useConversational } from './hooks/use-conversational';
import { CONVERSATIONAL_TEXTS } from './model/texts';
import type { ConversationalScreenProps } from './types';

/**
 * The conversational screen (/conversational, docs/PRODUCT.md#conversational-mode): an optional URL bar, the live browser as
 * video in a browser-like frame, and the chat that drives it; beyond the spec, takeover on the video,
 * 'Save as test', 'Use as login' (with the app's projects) and past conversations.
 */
export function ConversationalScreen(props: ConversationalScreenProps) {
  const conv = useConversational(props);
  const { state } = conv;
  const [saving, setSaving] = useState(false);
  const [usingAsLogin, setUsingAsLogin] = useState(false);
  // A project's login is an editor's to change (the permission table).
  const mayEditLogin = useCan('PUT /api/projects/:id');
  const connection = props.realtime.status;
  // docs/PRODUCT.md#conversational-texts: once the reconnect attempts are spent, the page must be refreshed.
  const lost = connection === 'error';
  const showFrame = state.active || state.stopping;

  const automationSessions = useMemo(
    () =>
      props.sessions.sessions
        .filter((session) => session.type === 'automation' && session.status === 'active')
        .slice()
        .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt)),
    [props.sessions.sessions],
  );

  const canSave = conv.conversationId !== null && state.actionCount > 0;
  const chatDisabled = !conv.isConnected || state.typing || state.stopping || conv.starting;

  return (
    <div className="mx-auto max-w-[1600px] space-y-6" data-testid="conversational-screen">
      <ConversationalHeader connection={connection} status={state.browserStatus} />

      {lost && (
        <Banner tone="error" icon={WifiOff} testId="connection-lost-banner">
          {CONVERSATIONAL_TEXTS.connectionLost}
        </Banner>
      )}

      {!state.active && (
        <UrlBar
          url={conv.urlInput}
          onUrlChange={conv.setUrlInput}
          canStart={conv.isConnected}
          starting={conv.starting}
          onStart={() => void conv.start()}
        />
      )}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          {showFrame ? (
            <BrowserFrame
              url={state.currentUrl}
              status={state.browserStatus}
              notice={state.browserNotice}
              fps={conv.fps}
              streaming={conv.streaming}
              stopping={state.stopping}
              subscribeFrames={conv.subscribeFrames}
              onStop={conv.stop}
              onReload={conv.reload}
              onInput={conv.sendInput}
            />
          ) : (
            <section
              className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xs"
              aria-label="Live browser"
              data-testid="video-idle"
            >
              <EmptyState
                icon={MonitorPlay}
                title={state.browserStatus === 'stopped' ? 'The session has ended' : 'No live browser yet'}
                hint="Type a website URL above and press Start Video, or send a message to start on a search page."
              />
            </section>
          )}
        </div>

        <section
          className="flex h-[560px] min-w-0 flex-col rounded-2xl border border-slate-200 bg-white shadow-xs max-lg:h-[520px] lg:col-start-2 lg:row-span-2 lg:row-start-1"
          aria-label="Chat"
          data-testid="chat-panel"
        >
          <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-100 px-5 py-4">
            <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
              <MessageCircle className="size-4" aria-hidden />
            </span>
            <h2 className="min-w-0 flex-1 text-sm font-semibold text-slate-900">Chat</h2>
            <SmallButton
              icon={FlaskConical}
              onClick={() => setSaving((value) => !value)}
              disabled={!canSave}
              aria-expanded={saving}
              title={
                canSave
                  ? 'Turn the actions so far into a test case'
                  : 'Available once the browser has performed an action'
              }
              data-testid="save-as-test"
            >
              Save as test
            </SmallButton>
            {props.projects && mayEditLogin && (
              <SmallButton
                icon={KeyRound}
                onClick={() => setUsingAsLogin(true)}
                disabled={!canSave}
                aria-haspopup="dialog"
                title={
                  canSave
                    ? "Save what was done as a project's login"
                    : 'Available once the browser has performed an action'
                }
                data-testid="use-as-login"
              >
                Use as login
              </SmallButton>
            )}
          </header>
          <ChatMessages
            messages={state.messages}
            typing={state.typing}
            empty="Ask for something like “click Products” or “search for shoes”."
          />
          {saving && conv.conversationId && (
            <SaveTestForm
              conversationId={conv.conversationId}
              automationSessions={automationSessions}
              onSaved={() => void props.sessions.refresh().catch(() => {})}
              onCancel={() => setSaving(false)}
            />
          )}
          {props.projects && conv.conversationId && (
            <UseAsLoginDialog
              open={usingAsLogin}
              onClose={() => setUsingAsLogin(false)}
              conversationId={conv.conversationId}
              projects={props.projects}
            />
          )}
          <ChatInput sessionActive={state.active} disabled={chatDisabled} onSend={conv.sendMessage} />
        </section>

        <div className="min-w-0 lg:col-start-1">
          <PastConversations enabled={props.user !== null} />
        </div>
      </div>
    </div>
  );
}
