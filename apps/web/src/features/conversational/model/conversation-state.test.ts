import type { ServerMessage, ServerMessageInput } from '@argus/protocol';
import { ServerMessageSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  type ConversationalState,
  concernsConversation,
  conversationalReducer,
  createConversationalStore,
  initialConversationalState,
  messagesFromRecords,
} from './conversation-state';

const msg = (input: ServerMessageInput): ServerMessage => ServerMessageSchema.parse(input);
const AT = '2026-11-23T10:00:00.000Z';

function started(): ConversationalState {
  return conversationalReducer(initialConversationalState, {
    type: 'start_requested',
    sessionId: 's1',
    url: 'http://127.0.0.1/',
    at: AT,
  });
}

const server = (state: ConversationalState, input: ServerMessageInput, id = 'm') =>
  conversationalReducer(state, { type: 'server', message: msg(input), id });

describe('conversational state (docs/PRODUCT.md#conversational-mode)', () => {
  it('inactive → active and loading on start; a frame sets ready', () => {
    const state = started();
    expect(state).toMatchObject({ active: true, browserStatus: 'loading', sessionId: 's1' });
    const ready = server(state, {
      type: 'video_frame',
      session_id: 's1',
      data: { frame: 'data:image/jpeg;base64,AA', timestamp: 1 },
    });
    expect(ready.browserStatus).toBe('ready');
    // Further frames change nothing (no redraw per frame).
    expect(
      server(ready, {
        type: 'video_frame',
        session_id: 's1',
        data: { frame: 'data:image/jpeg;base64,AA', timestamp: 2 },
      }),
    ).toBe(ready);
  });

  it('a user message shows at once and waits for the assistant', () => {
    const state = conversationalReducer(started(), {
      type: 'user_message',
      id: 'u1',
      content: 'click Products',
      at: AT,
    });
    expect(state.typing).toBe(true);
    expect(state.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'click Products',
      status: 'delivered',
    });
    const failed = conversationalReducer(state, { type: 'send_failed', id: 'u1' });
    expect(failed.typing).toBe(false);
    expect(failed.messages.at(-1)?.status).toBe('pending');
  });

  it('browser actions become action messages and move the shown URL; a response ends the typing', () => {
    let state = conversationalReducer(started(), { type: 'user_message', id: 'u1', content: 'x', at: AT });
    state = server(state, {
      type: 'browser_action',
      session_id: 's1',
      data: {
        action: 'Click link "Products"',
        message: 'Clicked the "Products" link',
        url: 'http://127.0.0.1/products.html',
      },
    });
    expect(state.currentUrl).toBe('http://127.0.0.1/products.html');
    expect(state.actionCount).toBe(1);
    expect(state.messages.at(-1)).toMatchObject({ type: 'action', content: 'Clicked the "Products" link' });
    expect(state.typing).toBe(true);
    state = server(state, {
      type: 'conversation_response',
      session_id: 's1',
      data: { message: 'Done: the Products page is open.', timestamp: AT },
    });
    expect(state.typing).toBe(false);
    expect(state.messages.at(-1)).toMatchObject({ role: 'assistant', type: 'text' });
  });

  it('a stop clears the URL, sets stopping and awaits the confirmation', () => {
    let state = conversationalReducer(started(), { type: 'stop_requested' });
    expect(state).toMatchObject({ stopping: true, browserStatus: 'stopping', currentUrl: '', active: true });
    state = server(state, {
      type: 'conversation_stopped',
      session_id: 's1',
      data: { message: 'Session stopped', timestamp: AT },
    });
    expect(state).toMatchObject({ stopping: false, browserStatus: 'stopped', active: false });
    expect(state.messages.at(-1)).toMatchObject({ role: 'system', content: 'Session stopped' });
  });

  it("browser_status 'stopped' also ends the session", () => {
    const state = server(started(), {
      type: 'browser_status',
      session_id: 's1',
      data: { status: 'stopped' },
    });
    expect(state).toMatchObject({ active: false, browserStatus: 'stopped' });
  });

  it('keeps what the server says of a browser still loading (its place in line) until it is ready', () => {
    const queued = server(started(), {
      type: 'browser_status',
      session_id: 's1',
      data: { status: 'loading', message: 'Waiting for a free browser: 2 ahead' },
    });
    expect(queued).toMatchObject({
      browserStatus: 'loading',
      browserNotice: 'Waiting for a free browser: 2 ahead',
    });
    const ready = server(queued, { type: 'browser_status', session_id: 's1', data: { status: 'ready' } });
    expect(ready).toMatchObject({ browserStatus: 'ready', browserNotice: null });
  });

  it('a stop that gets no confirmation is taken as done; a failed one resumes', () => {
    const stopping = conversationalReducer(started(), { type: 'stop_requested' });
    expect(conversationalReducer(stopping, { type: 'stop_timeout' })).toMatchObject({ active: false });
    expect(conversationalReducer(stopping, { type: 'stop_failed' })).toMatchObject({ stopping: false });
  });

  it('an error refusing the start ends the session', () => {
    const state = server(started(), {
      type: 'error',
      session_id: 's1',
      data: { message: 'Session not found', code: 'SESSION_NOT_FOUND', feature: 'conversational' },
    });
    expect(state).toMatchObject({ active: false, browserStatus: 'error' });
  });

  it('server errors become system messages; one about stopping ends the session with status error', () => {
    let state = server(started(), { type: 'browser_status', session_id: 's1', data: { status: 'ready' } });
    state = conversationalReducer(state, { type: 'user_message', id: 'u', content: 'x', at: AT });
    state = server(state, {
      type: 'error',
      session_id: 's1',
      data: { message: 'The page did not answer', code: 'INTERNAL', feature: 'conversational' },
    });
    expect(state).toMatchObject({ typing: false, active: true });
    expect(state.messages.at(-1)).toMatchObject({ role: 'system', metadata: { type: 'error' } });
    state = server(state, {
      type: 'error',
      session_id: 's1',
      data: { message: 'The browser stopped unexpectedly', code: 'INTERNAL', feature: 'conversational' },
    });
    expect(state).toMatchObject({ active: false, browserStatus: 'error' });
    expect(state.messages).toHaveLength(3);
  });

  it('an error without text says the spec default', () => {
    const state = server(started(), {
      type: 'error',
      session_id: 's1',
      data: { message: '', feature: 'conversational' },
    });
    expect(state.messages.at(-1)?.content).toBe('Unknown error occurred');
  });

  it("keeps only its feature's messages about its session", () => {
    const state = started();
    const of = (input: ServerMessageInput) => concernsConversation(state, msg(input));
    expect(of({ type: 'browser_status', session_id: 's1', data: { status: 'ready' } })).toBe(true);
    expect(of({ type: 'browser_status', session_id: 's2', data: { status: 'ready' } })).toBe(false);
    expect(of({ type: 'progress_update', session_id: 's1', data: { message: 'x' } })).toBe(false);
    expect(of({ type: 'error', session_id: null, data: { message: 'x', feature: 'conversational' } })).toBe(
      true,
    );
    expect(of({ type: 'error', session_id: null, data: { message: 'x', feature: 'automation' } })).toBe(
      false,
    );
    expect(
      concernsConversation(
        initialConversationalState,
        msg({ type: 'error', session_id: null, data: { message: 'x', feature: 'conversational' } }),
      ),
    ).toBe(false);
  });

  it('the store notifies only on change', () => {
    const store = createConversationalStore();
    let calls = 0;
    store.subscribe(() => {
      calls += 1;
    });
    store.dispatch({ type: 'socket_closed' });
    expect(calls).toBe(0);
    store.dispatch({ type: 'start_requested', sessionId: 's', url: 'http://a/', at: AT });
    expect(calls).toBe(1);
  });

  it('reads stored messages back', () => {
    const messages = messagesFromRecords([
      { id: '1', role: 'user', content: 'click Products', actions: [], created_at: AT },
      {
        id: '2',
        role: 'assistant',
        content: 'Done',
        actions: [{ action: 'Click link "Products"' }],
        created_at: AT,
      },
    ]);
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'click Products'],
      ['assistant', 'Done'],
    ]);
  });
});
