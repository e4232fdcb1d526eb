import { describe, expect, it } from 'vitest';
import { TestCaseSchema, TestRunCreateSchema } from './automation';
import {
  HttpUrlOrEmptySchema,
  HttpUrlSchema,
  httpUrlProblem,
  MAX_URL_LENGTH,
  URL_NOT_ABSOLUTE,
  URL_SCHEME_REFUSED,
} from './common';
import { SessionCreateSchema, SessionSchema, SessionUpdateSchema } from './sessions';
import { ClientMessageSchema } from './ws';

const messageOf = (schema: typeof HttpUrlSchema, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues.map((issue) => issue.message);
};

describe('HttpUrlSchema', () => {
  it.each([
    'http://example.com',
    'https://example.com/path?q=1#top',
    'HTTPS://EXAMPLE.COM',
    'http://127.0.0.1:8080/',
    'https://user:pass@example.com/',
    'http://[::1]/',
  ])('accepts the absolute http(s) URL %s', (url) => {
    expect(HttpUrlSchema.parse(url)).toBe(url);
  });

  it('keeps the text as given, trimmed', () => {
    expect(HttpUrlSchema.parse('  https://example.com/a  ')).toBe('https://example.com/a');
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'java\tscript:alert(1)',
    ' javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'chrome://settings',
    'chrome-extension://abc/page.html',
    'about:blank',
    'ftp://example.com/',
    'ws://example.com/',
    'view-source:https://example.com',
    'blob:https://example.com/uuid',
    'mailto:a@example.com',
  ])('refuses %j with the target policy text', (url) => {
    expect(messageOf(HttpUrlSchema, url)).toEqual([URL_SCHEME_REFUSED]);
  });

  it.each(['', 'example.com', '/relative/path', 'http://', 'https:// spaces .com', 'not a url'])(
    'refuses %j, which is not an absolute URL',
    (url) => {
      expect(messageOf(HttpUrlSchema, url)).toEqual([URL_NOT_ABSOLUTE]);
    },
  );

  it(`allows ${MAX_URL_LENGTH} characters and no more`, () => {
    const base = 'https://example.com/';
    const longest = base + 'a'.repeat(MAX_URL_LENGTH - base.length);
    expect(HttpUrlSchema.safeParse(longest).success).toBe(true);
    expect(HttpUrlSchema.safeParse(`${longest}a`).success).toBe(false);
  });

  it('refuses what is not a string', () => {
    for (const value of [null, undefined, 42, {}, ['https://example.com']]) {
      expect(HttpUrlSchema.safeParse(value).success).toBe(false);
    }
  });
});

describe('HttpUrlOrEmptySchema', () => {
  it('allows an empty URL, where the spec lets it be left empty', () => {
    expect(HttpUrlOrEmptySchema.parse('')).toBe('');
    expect(HttpUrlOrEmptySchema.parse('   ')).toBe('');
  });
  it('otherwise holds the same rule', () => {
    expect(HttpUrlOrEmptySchema.parse('https://example.com')).toBe('https://example.com');
    expect(messageOf(HttpUrlOrEmptySchema, 'javascript:alert(1)')).toEqual([URL_SCHEME_REFUSED]);
    expect(messageOf(HttpUrlOrEmptySchema, 'example.com')).toEqual([URL_NOT_ABSOLUTE]);
  });
});

describe('httpUrlProblem', () => {
  it('names the problem, or null', () => {
    expect(httpUrlProblem('https://example.com')).toBeNull();
    expect(httpUrlProblem('file:///etc/passwd')).toBe(URL_SCHEME_REFUSED);
    expect(httpUrlProblem('example.com')).toBe(URL_NOT_ABSOLUTE);
  });
});

describe('every URL a client sends is checked', () => {
  const refused = (
    schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } },
    value: unknown,
  ) => {
    const result = schema.safeParse(value) as {
      success: boolean;
      error?: { issues: { message: string; path: PropertyKey[] }[] };
    };
    return result.success ? [] : (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  const bad = 'javascript:alert(1)';

  it('test cases, test runs and sessions', () => {
    expect(refused(TestCaseSchema, { test_name: 't', url: bad })).toEqual([`url: ${URL_SCHEME_REFUSED}`]);
    expect(TestCaseSchema.parse({ test_name: 't', url: '' }).url).toBe('');
    expect(refused(TestRunCreateSchema, { url: bad })).toEqual([`url: ${URL_SCHEME_REFUSED}`]);
    expect(refused(TestRunCreateSchema, { url: 'https://a.example', target_url: 'file:///x' })).toEqual([
      `target_url: ${URL_SCHEME_REFUSED}`,
    ]);
    expect(refused(TestRunCreateSchema, { url: '' })).toEqual([`url: ${URL_NOT_ABSOLUTE}`]);
    const session = { title: 's', session_type: 'automation' };
    expect(refused(SessionCreateSchema, { ...session, url: 'data:text/html,x' })).toEqual([
      `url: ${URL_SCHEME_REFUSED}`,
    ]);
    for (const url of [null, '', 'https://example.com', undefined]) {
      expect(SessionCreateSchema.safeParse({ ...session, url }).success).toBe(true);
    }
    expect(refused(SessionUpdateSchema, { url: 'chrome://settings' })).toEqual([
      `url: ${URL_SCHEME_REFUSED}`,
    ]);
  });

  it('socket messages', () => {
    const message = (type: string, data: unknown) => refused(ClientMessageSchema, { type, data });
    expect(message('generate_test_cases', { url: bad })).toEqual([`data.url: ${URL_SCHEME_REFUSED}`]);
    expect(message('command_generate_test_cases', { url: bad, command: 'c' })).toEqual([
      `data.url: ${URL_SCHEME_REFUSED}`,
    ]);
    expect(message('run_all_tests', { url: bad, test_cases: [] })).toEqual([
      `data.url: ${URL_SCHEME_REFUSED}`,
    ]);
    expect(
      message('run_all_tests', { url: 'https://a.example', test_cases: [{ test_name: 't', url: bad }] }),
    ).toEqual([`data.test_cases.0.url: ${URL_SCHEME_REFUSED}`]);
    expect(message('run_single_test', { url: 'file:///etc/passwd', test_case: { test_name: 't' } })).toEqual([
      `data.url: ${URL_SCHEME_REFUSED}`,
    ]);
    expect(message('start_conversation', { session_id: 's', url: bad })).toEqual([
      `data.url: ${URL_SCHEME_REFUSED}`,
    ]);
    expect(message('start_conversation', { session_id: 's', url: '' })).toEqual([]);
    expect(message('conversation_message', { session_id: 's', message: 'hi', current_url: bad })).toEqual([
      `data.current_url: ${URL_SCHEME_REFUSED}`,
    ]);
    expect(
      message('figma_website_comparison', {
        comparison_type: 'figma',
        figma_url: bad,
        website_url: 'https://a.example',
      }),
    ).toEqual([`data.figma_url: ${URL_SCHEME_REFUSED}`]);
    expect(
      message('upload_and_compare_image', { image_data: 'data:image/png;base64,', website_url: bad }),
    ).toEqual([`data.website_url: ${URL_SCHEME_REFUSED}`]);
    expect(message('get_figma_help', { figma_url: bad })).toEqual([`data.figma_url: ${URL_SCHEME_REFUSED}`]);
  });

  it('but answers are not: an older record with an odd URL still reads', () => {
    const row = { id: 'r', user_id: 'u', session_type: 'automation', title: 't', url: 'example.com' };
    expect(
      SessionSchema.safeParse({
        ...row,
        status: 'ACTIVE',
        description: null,
        settings: {},
        created_at: '',
        updated_at: '',
      }).success,
    ).toBe(true);
  });
});
