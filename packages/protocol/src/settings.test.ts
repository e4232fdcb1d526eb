import { describe, expect, it } from 'vitest';
import {
  maskSecret,
  SettingsResponseSchema,
  SettingsUpdateSchema,
  TestConnectionRequestSchema,
} from './index';

describe('maskSecret', () => {
  it('shows a public prefix and the last four characters, never more', () => {
    expect(maskSecret('sk-test-abcd1234')).toBe('sk-…1234');
    expect(maskSecret('sk-ant-api03-0123456789abcdefWXYZ')).toBe('sk-…WXYZ');
    expect(maskSecret('figd_0123456789abcdef')).toBe('…cdef');
    expect(maskSecret('  sk-proj-0123456789  ')).toBe('sk-…6789');
  });
  it('hides more of short keys, and all of very short ones', () => {
    // 'sk-' plus 'abcd' would leave only 5 of 12 characters hidden: no prefix.
    expect(maskSecret('sk-xyzabcd12')).toBe('…cd12');
    expect(maskSecret('abcdefghij')).toBe('…ij');
    expect(maskSecret('abc1234')).toBe('…');
    expect(maskSecret('')).toBe('…');
  });
  it('never reveals more than four characters of the secret, and hides most of it', () => {
    for (let n = 0; n < 40; n++) {
      const key = `sk-${'abcdefghijklmnopqrstuvwxyz0123456789ABCD'.slice(0, n)}`;
      const [prefix, shown] = maskSecret(key).split('…');
      expect(['', 'sk-']).toContain(prefix);
      expect(shown.length).toBeLessThanOrEqual(4);
      expect(key.endsWith(shown)).toBe(true);
      expect(key.length - prefix.length - shown.length).toBeGreaterThanOrEqual(Math.min(key.length, 6));
    }
  });
});

describe('settings bodies', () => {
  it('accepts a partial change: set, clear (null) and keep (absent)', () => {
    expect(
      SettingsUpdateSchema.parse({
        ai_provider: 'openai-compatible',
        ai_base_url: ' http://127.0.0.1:11434/v1 ',
        ai_api_key: null,
        monthly_budget_usd: 0,
      }),
    ).toEqual({
      ai_provider: 'openai-compatible',
      ai_base_url: 'http://127.0.0.1:11434/v1',
      ai_api_key: null,
      monthly_budget_usd: 0,
    });
    expect(SettingsUpdateSchema.parse({})).toEqual({});
    expect(SettingsUpdateSchema.parse({ ai_provider: null }).ai_provider).toBeNull();
  });

  it('refuses other schemes, credentials in the URL, unknown providers, negative budgets', () => {
    const problems = (body: unknown) =>
      SettingsUpdateSchema.safeParse(body).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(problems({ ai_base_url: 'file:///etc/passwd' })).toEqual([
      'ai_base_url: The base URL must be an http:// or https:// address',
    ]);
    expect(problems({ ai_base_url: 'not a url' })).toHaveLength(1);
    expect(problems({ ai_base_url: 'http://user:pw@example.com/v1' })).toEqual([
      'ai_base_url: Put credentials in the API key field, not in the base URL',
    ]);
    expect(problems({ ai_provider: 'gemini' })).toHaveLength(1);
    expect(problems({ monthly_budget_usd: -1 })).toEqual([
      'monthly_budget_usd: The budget cannot be negative',
    ]);
    expect(problems({ ai_api_key: '' })).toHaveLength(1);
    expect(problems({ ai_api_key: 'sk-with space' })).toEqual([
      'ai_api_key: The API key may not contain spaces',
    ]);
    expect(TestConnectionRequestSchema.safeParse({ ai_provider: 'builtin', ai_model: '' }).success).toBe(
      false,
    );
  });

  it('describes a masked answer', () => {
    const answer = {
      ai_provider: 'openai',
      ai_model: 'gpt-4o-mini',
      ai_base_url: null,
      ai_api_key: 'sk-…1234',
      figma_token: null,
      monthly_budget_usd: 10,
      server_default: { provider: 'builtin', model: null, figma_token_set: false },
      effective: {
        provider: 'openai',
        model: 'gpt-4o-mini',
        source: 'user',
        name: 'LLM (openai · gpt-4o-mini)',
      },
      usage: { model_calls: 1, input_tokens: 2, output_tokens: 3, cost_usd: 0.01 },
      usage_since: '2025-01-01T00:00:00.000Z',
      budget_reached: false,
      updated_at: null,
    };
    expect(SettingsResponseSchema.parse(answer)).toEqual(answer);
  });
});
