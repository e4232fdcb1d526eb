import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS, ErrorCodeSchema } from './errors';
import {
  CLIENT_MESSAGE_FEATURE,
  CLIENT_MESSAGE_TYPES,
  CleanupBeaconSchema,
  ClientMessageSchema,
  describeClientFrame,
  FeatureSchema,
  featureOf,
  PROTOCOL_VERSION,
  parseClientMessage,
  parseServerMessage,
  readServerMessage,
  SERVER_MESSAGE_FEATURE,
  SERVER_MESSAGE_TYPES,
  ServerMessageSchema,
  sessionIdOf,
  WS_CLOSE,
  WS_CLOSE_REASONS,
} from './ws';

describe('realtime protocol', () => {
  it('declares every client message type of docs/PRODUCT.md#realtime-messages, plus auth, get_automation_status, browser_input and automation_video', () => {
    expect([...CLIENT_MESSAGE_TYPES].sort()).toEqual(
      [
        'auth',
        'generate_test_cases',
        'command_generate_test_cases',
        'run_all_tests',
        'run_single_test',
        'stop_execution',
        'cleanup_session',
        'get_automation_status',
        'start_conversation',
        'conversation_message',
        'stop_conversation',
        'cleanup_orphaned_sessions',
        'browser_input',
        'automation_video',
        'figma_website_comparison',
        'upload_and_compare_image',
        'stop_comparison',
        'get_figma_help',
      ].sort(),
    );
  });

  it('declares every server message type of docs/PRODUCT.md#realtime-messages', () => {
    for (const type of [
      'generation_started',
      'progress_update',
      'test_cases_generated',
      'execution_started',
      'execution_stopping',
      'test_progress',
      'step_update',
      'test_completed',
      'test_failed',
      'all_tests_completed',
      'execution_stopped',
      'error',
      'video_frame',
      'conversation_response',
      'browser_action',
      'browser_status',
      'conversation_stopped',
      'figma_permission_error',
      'vision_comparison_progress',
      'vision_comparison_completed',
      'vision_comparison_error',
      'upload_completed',
      'figma_sharing_instructions',
    ]) {
      expect(SERVER_MESSAGE_TYPES).toContain(type);
    }
  });

  it('parses a run_all_tests message, normalising its test cases', () => {
    const message = ClientMessageSchema.parse({
      type: 'run_all_tests',
      data: {
        url: 'https://example.com',
        test_cases: { testName: 'one' },
        session_id: 's',
        test_run_id: 'r',
      },
    });
    expect(message.type === 'run_all_tests' && message.data.test_cases[0].test_name).toBe('one');
    expect(message.type === 'run_all_tests' && message.data.test_mode).toBe('full');
  });

  it('refuses a relative or non-http URL where the spec wants an absolute one', () => {
    expect(
      parseClientMessage(JSON.stringify({ type: 'generate_test_cases', data: { url: 'example.com' } })),
    ).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Invalid message at data\.url/),
    });
    expect(
      parseClientMessage(
        JSON.stringify({ type: 'generate_test_cases', data: { url: 'javascript:alert(1)' } }),
      ).ok,
    ).toBe(false);
  });

  it('caps a chat message at 1000 characters and refuses blank ones (docs/PRODUCT.md#chat)', () => {
    const send = (message: string) =>
      parseClientMessage(JSON.stringify({ type: 'conversation_message', data: { message, session_id: 's' } }))
        .ok;
    expect(send('x'.repeat(1000))).toBe(true);
    expect(send('x'.repeat(1001))).toBe(false);
    expect(send('   ')).toBe(false);
  });

  it('accepts a figma comparison or an image comparison, by comparison_type', () => {
    const figma = ClientMessageSchema.safeParse({
      type: 'figma_website_comparison',
      data: {
        comparison_type: 'figma',
        figma_url: 'https://www.figma.com/file/abc',
        website_url: 'https://a.io',
      },
    });
    expect(figma.success).toBe(true);
    const image = ClientMessageSchema.safeParse({
      type: 'figma_website_comparison',
      data: { comparison_type: 'image', website_url: 'https://a.io' },
    });
    expect(image.success).toBe(false);
  });

  it('reports unparsable frames instead of throwing', () => {
    expect(parseClientMessage('{')).toEqual({ ok: false, reason: 'Message is not valid JSON' });
    expect(parseServerMessage('{')).toBeNull();
    expect(
      parseServerMessage(JSON.stringify({ type: 'execution_stopped', data: { execution_time: 'x' } })),
    ).toBeNull();
  });

  it('validates a step_update with every field of docs/PRODUCT.md#step-log', () => {
    const step = ServerMessageSchema.parse({
      type: 'step_update',
      session_id: 's1',
      data: {
        step_data: {
          step_number: 1,
          action: 'click',
          url: 'https://a.io',
          selector: 'button',
          value: null,
          error: null,
          status: 'success',
          timestamp: new Date().toISOString(),
          thoughts: { next_goal: 'submit' },
          description: 'Click "Sign in"',
          step_index: 0,
          screenshot: { base64_data: 'AAAA', width: 10, height: 10 },
        },
      },
    });
    expect(step.type).toBe('step_update');
  });
});

describe('errors and the cleanup beacon', () => {
  it('codes an error with a key of the catalogue, and nothing else', () => {
    for (const code of ERROR_CODES) expect(ErrorCodeSchema.parse(code)).toBe(code);
    expect(ERROR_CODES).toEqual(Object.keys(ERRORS));
    const error = (code: string) =>
      ServerMessageSchema.safeParse({
        type: 'error',
        session_id: null,
        data: { message: 'x', code, feature: 'automation' },
      }).success;
    expect(error('GENERATION_FAILED')).toBe(true);
    expect(error('FST_ERR_CTP_INVALID_MEDIA_TYPE')).toBe(false);
  });

  it('takes a beacon of stop_conversation or cleanup_session with its token beside it', () => {
    const data = { session_id: 's1', reason: 'page_unload', forced_cleanup: true };
    expect(CleanupBeaconSchema.parse({ token: 't', type: 'stop_conversation', data })).toMatchObject({
      token: 't',
      type: 'stop_conversation',
    });
    expect(CleanupBeaconSchema.safeParse({ type: 'stop_conversation', data }).success).toBe(false);
    expect(CleanupBeaconSchema.safeParse({ token: 't', type: 'run_all_tests', data }).success).toBe(false);
    expect(
      CleanupBeaconSchema.safeParse({ token: 't', type: 'cleanup_session', data: { session_id: 7 } }).success,
    ).toBe(false);
  });
});

describe('one socket for every screen: sessions, requests, features, version', () => {
  it('addresses every server message to a session (null for none), beside type and data', () => {
    const progress = { type: 'progress_update', data: { message: 'Crawling' } };
    expect(ServerMessageSchema.safeParse(progress).success).toBe(false);
    expect(ServerMessageSchema.parse({ ...progress, session_id: 's1', request_id: 'r1' })).toEqual({
      ...progress,
      session_id: 's1',
      request_id: 'r1',
    });
    expect(ServerMessageSchema.parse({ ...progress, session_id: null }).session_id).toBeNull();
  });

  it('gives a video frame its session, always', () => {
    const frame = { type: 'video_frame', data: { frame: 'data:image/jpeg;base64,AAAA', timestamp: 1 } };
    expect(ServerMessageSchema.parse({ ...frame, session_id: 'live-1' }).session_id).toBe('live-1');
    expect(ServerMessageSchema.safeParse({ ...frame, session_id: null }).success).toBe(false);
  });

  it('says which feature an error belongs to, and which feature every message is for', () => {
    const error = (feature: string) =>
      ServerMessageSchema.safeParse({ type: 'error', session_id: 's2', data: { message: 'x', feature } });
    expect(error('conversational').success).toBe(true);
    expect(error('billing').success).toBe(false);
    expect(
      ServerMessageSchema.safeParse({ type: 'error', session_id: null, data: { message: 'x' } }).success,
    ).toBe(false);
    const parsed = error('design');
    expect(parsed.success && featureOf(parsed.data)).toBe('design');
    expect(featureOf(ServerMessageSchema.parse({ type: 'execution_stopping', session_id: 's1' }))).toBe(
      'automation',
    );
    expect(Object.keys(SERVER_MESSAGE_FEATURE).sort()).toEqual(
      SERVER_MESSAGE_TYPES.filter((t) => t !== 'error').sort(),
    );
    expect(Object.keys(CLIENT_MESSAGE_FEATURE).sort()).toEqual([...CLIENT_MESSAGE_TYPES].sort());
    for (const feature of Object.values(CLIENT_MESSAGE_FEATURE)) FeatureSchema.parse(feature);
  });

  it('lets a client message carry a request_id, and names the session of any screen', () => {
    const generate = ClientMessageSchema.parse({
      type: 'generate_test_cases',
      request_id: 'req-1',
      data: { url: 'https://shop.example', session_id: 's1' },
    });
    expect(generate.request_id).toBe('req-1');
    expect(sessionIdOf(generate)).toBe('s1');
    const compare = ClientMessageSchema.parse({
      type: 'figma_website_comparison',
      data: { comparison_type: 'image', file_id: 'f1', website_url: 'https://a.io', session_id: 'd1' },
    });
    expect(sessionIdOf(compare)).toBe('d1');
    expect(sessionIdOf(ClientMessageSchema.parse({ type: 'stop_comparison', data: {} }))).toBeNull();
    expect(ClientMessageSchema.safeParse({ type: 'stop_comparison', request_id: '', data: {} }).success).toBe(
      false,
    );
  });

  it('tells what it can of a frame that did not parse, to address the error about it', () => {
    expect(
      describeClientFrame(
        JSON.stringify({
          type: 'run_all_tests',
          request_id: 'r9',
          data: { url: 'ftp://x', session_id: 's1' },
        }),
      ),
    ).toEqual({ type: 'run_all_tests', feature: 'automation', session_id: 's1', request_id: 'r9' });
    expect(
      describeClientFrame(JSON.stringify({ type: 'start_conversation', data: { session_id: 7 } })),
    ).toEqual({
      type: 'start_conversation',
      feature: 'conversational',
      session_id: null,
    });
    expect(describeClientFrame('{not json')).toEqual({ feature: 'connection', session_id: null });
    expect(describeClientFrame(JSON.stringify({ type: 'toString', data: null }))).toEqual({
      feature: 'connection',
      session_id: null,
    });
  });

  it('greets with the protocol version, and reads an older greeting as version 1', () => {
    const greeting = {
      type: 'connection_established',
      session_id: null,
      data: { user_id: 'u1', server_time: '2026-01-01T00:00:00Z', protocol_version: PROTOCOL_VERSION },
    };
    expect(readServerMessage(JSON.stringify(greeting))).toMatchObject({ ok: true });
    expect(
      readServerMessage(
        JSON.stringify({ type: 'connection_established', data: { user_id: 'u1', server_time: 'x' } }),
      ),
    ).toMatchObject({ ok: false, type: 'connection_established', protocolVersion: 1 });
    expect(readServerMessage(JSON.stringify({ type: 'progress_update', data: {} }))).toMatchObject({
      ok: false,
      type: 'progress_update',
      protocolVersion: null,
    });
    expect(readServerMessage('{')).toMatchObject({ ok: false, reason: 'Message is not valid JSON' });
  });

  // What each close code drives is tested where it happens: the server sends each reason on its
  // condition (ws/gateway.api.test.ts, ws/socket-limits.api.test.ts; 4401 and 1012 by number in
  // server.api.test.ts), and the web client reconnects or not by code (realtime-client.test.ts).
  it('closes only with the declared codes, each reason fitting a close frame', () => {
    const codes = new Set<number>(Object.values(WS_CLOSE));
    for (const { code, reason } of Object.values(WS_CLOSE_REASONS)) {
      expect(codes.has(code)).toBe(true);
      // A close reason must fit the 123 bytes a close frame allows.
      expect(new TextEncoder().encode(reason).length).toBeLessThanOrEqual(123);
    }
  });
});
