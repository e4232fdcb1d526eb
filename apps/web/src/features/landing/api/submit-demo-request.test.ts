import { afterEach, describe, expect, it, vi } from 'vitest';
import { DemoRequestError, submitDemoRequest } from './submit-demo-request';

const request = { name: 'Dana', email: 'dana@example.com', company: 'Acme', message: '' };

function answer(status: number, body: unknown) {
  return vi
    .fn()
    .mockResolvedValue(
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('submitDemoRequest (POST /api/demo-requests)', () => {
  it('posts the request as JSON and returns the 201 answer', async () => {
    const fetchMock = answer(201, { success: true, id: 'd1', message: 'Demo request received' });
    vi.stubGlobal('fetch', fetchMock);
    await expect(submitDemoRequest(request)).resolves.toEqual({
      success: true,
      id: 'd1',
      message: 'Demo request received',
    });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/demo-requests');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual(request);
  });

  it('throws the server detail of an error answer', async () => {
    vi.stubGlobal('fetch', answer(429, { detail: 'Too many attempts. Please try again later.' }));
    await expect(submitDemoRequest(request)).rejects.toMatchObject({
      name: 'DemoRequestError',
      status: 429,
      message: 'Too many attempts. Please try again later.',
    });
  });

  it("turns a 422's list of issues into one 'Validation Error: ' sentence", async () => {
    const detail = [{ loc: ['body', 'email'], msg: 'Enter a valid email address', type: 'invalid_format' }];
    vi.stubGlobal('fetch', answer(422, { detail }));
    await expect(submitDemoRequest(request)).rejects.toThrow(
      'Validation Error: email: Enter a valid email address',
    );
  });

  it('falls back to the status when the error answer has no detail', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('oops', { status: 502 })));
    await expect(submitDemoRequest(request)).rejects.toThrow('HTTP error! status: 502');
  });

  it('reports a network failure as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('fetch failed')));
    const error = await submitDemoRequest(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DemoRequestError);
    expect((error as DemoRequestError).status).toBe(0);
  });
});
