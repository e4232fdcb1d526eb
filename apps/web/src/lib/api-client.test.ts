import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, authHeaders, buildUrl, setUnauthorizedHandler } from './api-client';
import { TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from './auth-storage';
import { MemoryStorage } from './memory-storage';
import { onOrganizationLost, organizationStorageKey } from './organization/current-organization';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('apiRequest', () => {
  let storage: MemoryStorage;
  let fetchMock: ReturnType<typeof vi.fn>;
  let onUnauthorized: ReturnType<typeof vi.fn<() => void>>;
  let restoreHandler: () => void;

  beforeEach(() => {
    storage = new MemoryStorage();
    vi.stubGlobal('localStorage', storage);
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    onUnauthorized = vi.fn<() => void>();
    restoreHandler = setUnauthorizedHandler(onUnauthorized);
  });

  afterEach(() => {
    restoreHandler();
    vi.unstubAllGlobals();
  });

  it('sends the saved bearer token and a JSON body to the same origin', async () => {
    storage.setItem(TOKEN_STORAGE_KEY, 'tok-1');
    fetchMock.mockResolvedValue(jsonResponse(201, { ok: true }));
    const answer = await apiRequest('/api/sessions/', { method: 'POST', body: { title: 'A' } });
    expect(answer).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/sessions/');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"title":"A"}');
    expect(init.headers).toMatchObject({
      Authorization: 'Bearer tok-1',
      'Content-Type': 'application/json',
    });
  });

  it('sends a form-encoded body without a token when auth is off (login)', async () => {
    storage.setItem(TOKEN_STORAGE_KEY, 'stale');
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await apiRequest('/api/auth/login', {
      method: 'POST',
      form: { username: 'a b', password: 'p&q' },
      auth: false,
    });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.body).toBe('username=a+b&password=p%26q');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(init.headers).not.toHaveProperty('Authorization');
  });

  it('sends a multipart body as it is, with the token and no content type of its own (uploads)', async () => {
    storage.setItem(TOKEN_STORAGE_KEY, 'tok-2');
    fetchMock.mockResolvedValue(jsonResponse(201, {}));
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png');
    await apiRequest('/api/uploads', { method: 'POST', multipart: form });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.body).toBe(form);
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok-2' });
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it('sends no content type without a body (an empty JSON DELETE is refused by the server)', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await apiRequest('/api/sessions/x', { method: 'DELETE' });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it('on a 401 removes the token and sends the user to /login', async () => {
    storage.setItem(TOKEN_STORAGE_KEY, 'tok');
    storage.setItem(USER_STORAGE_KEY, '{}');
    fetchMock.mockResolvedValue(jsonResponse(401, { detail: 'Could not validate credentials' }));
    const error = await apiRequest('/api/sessions/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Authentication failed');
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('leaves a 401 of the current-user check to the caller', async () => {
    storage.setItem(TOKEN_STORAGE_KEY, 'tok');
    fetchMock.mockResolvedValue(jsonResponse(401, { detail: 'Could not validate credentials' }));
    await expect(apiRequest('/api/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe('tok');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('leaves a 401 of a call without auth (wrong credentials) to the screen', async () => {
    fetchMock.mockResolvedValue(jsonResponse(401, { detail: 'Incorrect username or password' }));
    await expect(
      apiRequest('/api/auth/login', { method: 'POST', form: { username: 'a', password: 'b' }, auth: false }),
    ).rejects.toMatchObject({ status: 401, detail: 'Incorrect username or password' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('maps a failed fetch to a status-0 ApiError', async () => {
    fetchMock.mockRejectedValue(new TypeError('fetch failed'));
    await expect(apiRequest('/api/health')).rejects.toMatchObject({ status: 0, isTransient: true });
  });

  it('validates the answer with the given schema', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { a: 1 }));
    const schema = {
      parse: (data: unknown) => {
        if (typeof (data as { b?: unknown }).b !== 'string') throw new Error('bad');
        return data as { b: string };
      },
    };
    await expect(apiRequest('/api/x', {}, schema)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('apiRequest in the current organization', () => {
  const user = {
    id: 'user-1',
    username: 'ann',
    email: 'ann@example.com',
    full_name: null,
    is_active: true,
    created_at: '2026-01-01T00:00:00Z',
  };
  let storage: MemoryStorage;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    storage = new MemoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, 'tok');
    storage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
    vi.stubGlobal('localStorage', storage);
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => vi.unstubAllGlobals());

  const sentHeaders = (call = 0) => (fetchMock.mock.calls[call] as [string, RequestInit])[1].headers;

  it('sends X-Argus-Organization with the organization chosen by this user', async () => {
    storage.setItem(organizationStorageKey('user-1'), 'org-team');
    fetchMock.mockResolvedValue(jsonResponse(200, []));
    await apiRequest('/api/projects');
    expect(sentHeaders()).toMatchObject({ Authorization: 'Bearer tok', 'X-Argus-Organization': 'org-team' });
    expect(authHeaders()).toEqual({ Authorization: 'Bearer tok', 'X-Argus-Organization': 'org-team' });
  });

  it('sends no organization header in the personal organization, nor another user’s choice', async () => {
    storage.setItem(organizationStorageKey('someone-else'), 'org-theirs');
    fetchMock.mockImplementation(async () => jsonResponse(200, []));
    await apiRequest('/api/projects');
    expect(sentHeaders()).not.toHaveProperty('X-Argus-Organization');
    storage.setItem(organizationStorageKey('user-1'), 'user-1');
    await apiRequest('/api/projects');
    expect(sentHeaders(1)).not.toHaveProperty('X-Argus-Organization');
  });

  it('sends no organization header on a call without auth (sign-in)', async () => {
    storage.setItem(organizationStorageKey('user-1'), 'org-team');
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await apiRequest('/api/auth/login', {
      method: 'POST',
      form: { username: 'a', password: 'b' },
      auth: false,
    });
    expect(sentHeaders()).not.toHaveProperty('X-Argus-Organization');
  });

  it('on ORGANIZATION_NOT_FOUND falls back to the personal organization and says so once', async () => {
    storage.setItem(organizationStorageKey('user-1'), 'org-gone');
    const lost = vi.fn();
    const stop = onOrganizationLost(lost);
    fetchMock.mockImplementation(async () =>
      jsonResponse(404, { detail: 'Organization not found', code: 'ORGANIZATION_NOT_FOUND' }),
    );
    const answers = await Promise.allSettled([apiRequest('/api/projects'), apiRequest('/api/history')]);
    stop();
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    expect((answers[0] as PromiseRejectedResult).reason).toMatchObject({
      status: 404,
      code: 'ORGANIZATION_NOT_FOUND',
    });
    expect(lost).toHaveBeenCalledTimes(1);
    expect(lost).toHaveBeenCalledWith('org-gone');
    expect(storage.getItem(organizationStorageKey('user-1'))).toBeNull();
    fetchMock.mockResolvedValue(jsonResponse(200, []));
    await apiRequest('/api/projects');
    expect(sentHeaders(2)).not.toHaveProperty('X-Argus-Organization');
  });

  it('keeps the choice on any other 404 (a missing project)', async () => {
    storage.setItem(organizationStorageKey('user-1'), 'org-team');
    const lost = vi.fn();
    const stop = onOrganizationLost(lost);
    fetchMock.mockResolvedValue(
      jsonResponse(404, { detail: 'Project not found', code: 'PROJECT_NOT_FOUND' }),
    );
    await expect(apiRequest('/api/projects/x')).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    stop();
    expect(lost).not.toHaveBeenCalled();
    expect(storage.getItem(organizationStorageKey('user-1'))).toBe('org-team');
  });
});

describe('buildUrl', () => {
  it('adds defined query values only', () => {
    expect(buildUrl('/api/sessions/', { session_type: 'automation', status: undefined, limit: 5 })).toBe(
      '/api/sessions/?session_type=automation&limit=5',
    );
    expect(buildUrl('/api/sessions/')).toBe('/api/sessions/');
  });
});
