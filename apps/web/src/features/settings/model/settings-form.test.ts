import type { SettingsResponse } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  aiFormFrom,
  aiFormProblems,
  aiUpdateBody,
  connectionTestBody,
  formatMonthStart,
  formatUsd,
  parseBudget,
} from './settings-form';

const settings: SettingsResponse = {
  ai_provider: 'openai-compatible',
  ai_model: 'llama3.1',
  ai_base_url: 'http://127.0.0.1:11434/v1',
  ai_api_key: 'sk-…1234',
  figma_token: null,
  monthly_budget_usd: null,
  server_default: { provider: 'builtin', model: null, figma_token_set: false },
  effective: {
    provider: 'openai-compatible',
    model: 'llama3.1',
    source: 'user',
    name: 'LLM (openai-compatible · llama3.1)',
  },
  usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
  usage_since: '2025-03-01T00:00:00.000Z',
  budget_reached: false,
  updated_at: null,
};

describe('the AI engine form', () => {
  it('starts from what is stored, with the key field empty (empty keeps the stored key)', () => {
    const values = aiFormFrom(settings);
    expect(values).toEqual({
      provider: 'openai-compatible',
      model: 'llama3.1',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: '',
    });
    expect(aiUpdateBody(values)).toEqual({
      ai_provider: 'openai-compatible',
      ai_model: 'llama3.1',
      ai_base_url: 'http://127.0.0.1:11434/v1',
    });
    expect(aiFormFrom({ ...settings, ai_provider: null }).provider).toBe('');
  });

  it('sends a typed key, and null for the server default', () => {
    expect(aiUpdateBody({ provider: '', model: ' ', baseUrl: '', apiKey: ' sk-new-0000 ' })).toEqual({
      ai_provider: null,
      ai_model: null,
      ai_base_url: null,
      ai_api_key: 'sk-new-0000',
    });
  });

  it('tests what the form holds', () => {
    expect(connectionTestBody({ provider: '', model: 'x', baseUrl: '', apiKey: '' })).toEqual({});
    expect(connectionTestBody({ provider: 'builtin', model: 'x', baseUrl: '', apiKey: 'k' })).toEqual({
      ai_provider: 'builtin',
    });
    expect(connectionTestBody({ provider: 'openai', model: 'gpt-4o', baseUrl: '', apiKey: '' })).toEqual({
      ai_provider: 'openai',
      ai_model: 'gpt-4o',
      ai_base_url: null,
    });
  });

  it('names what a provider still needs', () => {
    expect(aiFormProblems({ provider: 'openai-compatible', model: '', baseUrl: '', apiKey: '' })).toEqual({
      model: 'Enter a model name',
      baseUrl: 'An OpenAI-compatible provider needs a base URL',
    });
    expect(aiFormProblems({ provider: 'openai', model: 'm', baseUrl: 'ftp://x', apiKey: 'a b' })).toEqual({
      baseUrl: 'The base URL must be an http:// or https:// address',
      apiKey: 'The API key may not contain spaces',
    });
    expect(aiFormProblems({ provider: 'builtin', model: '', baseUrl: '', apiKey: '' })).toEqual({});
  });
});

describe('budget and usage', () => {
  it('reads a budget in dollars; empty is no limit', () => {
    expect(parseBudget('')).toEqual({ value: null });
    expect(parseBudget('$12.5')).toEqual({ value: 12.5 });
    expect(parseBudget('0')).toEqual({ value: 0 });
    expect(parseBudget('-1')).toHaveProperty('error');
    expect(parseBudget('ten')).toHaveProperty('error');
  });
  it('formats money and the month', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.0031)).toBe('$0.0031');
    expect(formatUsd(3.456)).toBe('$3.46');
    expect(formatUsd(0.0000156)).toBe('< $0.0001');
    expect(formatMonthStart('2025-03-01T00:00:00.000Z')).toBe('1 March');
  });
});
