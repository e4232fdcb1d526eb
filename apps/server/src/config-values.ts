// The shapes of the settings' values (docs: the README's settings table): each parser names the
// variable in its error, so a mistake stops the server with a message saying which one and why.

export function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got '${value}'`);
  return n;
}

/** A whole number in [min, max] (the fallback when unset), or an error naming the setting. */
export function intBetween(
  value: string | undefined,
  name: string,
  { fallback, min, max }: { fallback: number; min: number; max: number },
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${value}'`);
  return n;
}

/** A non-negative amount of US dollars, e.g. '5' or '12.50'. */
export function usd(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`${name} must be a non-negative amount of US dollars, got '${value}'`);
  return n;
}

export function bool(value: string | undefined, name: string): boolean {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true' || text === '1') return true;
  throw new Error(`${name} must be 'true' or 'false', got '${value}'`);
}

/** AI_MODEL_PRICES: `{"model": {"input": 0.5, "output": 1.5}}`, US dollars per million tokens. */
export function parseModelPrices(
  value: string | undefined,
): Record<string, { input: number; output: number }> {
  if (!value?.trim()) return {};
  const problem = `AI_MODEL_PRICES must be JSON like {"my-model": {"input": 0.5, "output": 1.5}} (US dollars per million tokens)`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(`${problem}; it is not valid JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(problem);
  const prices: Record<string, { input: number; output: number }> = {};
  for (const [model, price] of Object.entries(parsed)) {
    const { input, output } = (price ?? {}) as { input?: unknown; output?: unknown };
    if (typeof input !== 'number' || typeof output !== 'number' || !(input >= 0) || !(output >= 0))
      throw new Error(`${problem}; '${model}' needs non-negative numbers "input" and "output"`);
    prices[model] = { input, output };
  }
  return prices;
}

/** Fastify's `trustProxy`: all, none, these addresses/CIDRs, or a rule by hop (for a hop count). */
export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/** TRUST_PROXY: unset/'false' → off, 'true' → any proxy, '2' → that many hops, else a comma list. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text.toLowerCase() === 'false') return false;
  if (text.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return (_address, hop) => hop < hops;
  }
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** REGISTRATION: unset/'open' → open, 'closed' → closed (any case); anything else is a mistake worth stopping for. */
export function parseRegistration(value: string | undefined): 'open' | 'closed' {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'open') return 'open';
  if (text === 'closed') return 'closed';
  throw new Error(`REGISTRATION must be 'open' or 'closed', got '${value}'`);
}

/** An http(s) URL from the environment, or undefined when unset; anything else stops the server. */
export function httpUrl(value: string | undefined, name: string): string | undefined {
  const text = (value ?? '').trim();
  if (text === '') return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} must be an http:// or https:// URL, got '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name} must be an http:// or https:// URL, got '${text}'`);
  return text.replace(/\/+$/, '');
}

/** AI_PROVIDER with AI_MODEL and AI_BASE_URL: a model provider needs a model, openai-compatible a base URL. */
export function checkServerModel(
  provider: string,
  model: string | undefined,
  baseUrl: string | undefined,
): void {
  if (provider === 'builtin') return;
  if (!model) throw new Error(`AI_MODEL must name a model when AI_PROVIDER is '${provider}'`);
  if (provider === 'openai-compatible' && !baseUrl)
    throw new Error("AI_BASE_URL must be set when AI_PROVIDER is 'openai-compatible'");
}

/** REDIS_URL: a redis:// or rediss:// URL, only beside a shared PostgreSQL (the embedded one is one process's). */
export function redisUrl(value: string | undefined, databaseUrl: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (!/^rediss?:\/\/[^\s]+$/.test(text)) throw new Error('REDIS_URL must be a redis:// or rediss:// URL');
  if (!databaseUrl?.trim()) {
    throw new Error('REDIS_URL needs DATABASE_URL: web processes and workers share one PostgreSQL database');
  }
  return text;
}

/** SMTP_URL: an smtp:// or smtps:// URL, or undefined; anything else stops the server saying why. */
export function smtpUrl(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error('SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol}//)`);
  }
  return value.trim();
}
