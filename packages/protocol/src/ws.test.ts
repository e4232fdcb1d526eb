import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS, ErrorCodeSchema } from './errors';
import {
  CLIENT_MESSAGE_TYPES,
  CleanupBeaconSchema,
  ClientMessageSchema,
  parseClientMessage,
  parseServerMessage,
  SERVER_MESSAGE_TYPES,
  ServerMessageSchema,
} from './ws';

describe('realtime protocol', () => {
  it('declares every client message type of spec §7, plus auth and get_automation_status', () => {
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
        'figma_website_comparison',
        'upload_and_compare_image',
        'stop_comparison',
        'get_figma_help',
      ].sort(),
    );
  });

  it('declares every server message type of spec §7', () => {
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

  it('caps a chat message at 1000 characters and refuses blank ones (spec §5)', () => {
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

  it('validates a step_update with every field of spec §3', () => {
    const step = ServerMessageSchema.parse({
      type: 'step_update',
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
      ServerMessageSchema.safeParse({ type: 'error', data: { message: 'x', code } }).success;
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
