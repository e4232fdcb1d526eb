import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from '../../../lib/api-client';
import { TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from '../../../lib/auth-storage';
import { MemoryStorage } from '../../../lib/memory-storage';
import { uploadDesign } from './upload-design';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('uploadDesign', () => {
  let storage: MemoryStorage;
  let fetchMock: ReturnType<typeof vi.fn>;
  let onUnauthorized: ReturnType<typeof vi.fn<() => void>>;
  let restoreHandler: () => void;
  const file = new File([new Uint8Array([0x89, 0x50])], 'landing.png', { type: 'image/png' });

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

  it('posts the file as multipart field `file` with the token, and reads the answer', async () => {
    storage.setItem(TOKEN_STORAGE_KEY, 'tok');
    fetchMock.mockResolvedValue(
      jsonResponse(201, { file_id: 'f1', filename: 'landing.png', url: '/u', size: 2 }),
    );
    await expect(uploadDesign(file)).resolves.toMatchObject({ file_id: 'f1', filename: 'landing.png' });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/uploads');
    expect(init.method).toBe('POST');
    expect((init.body as FormData).get('file')).toBeInstanceOf(File);
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok' });
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it('on a 401 signs the user out like every other call', async () => {
    storage.setItem(TOKEN_STORAGE_KEY, 'expired');
    storage.setItem(USER_STORAGE_KEY, '{}');
    fetchMock.mockResolvedValue(jsonResponse(401, { detail: 'Could not validate credentials' }));
    await expect(uploadDesign(file)).rejects.toMatchObject({ status: 401 });
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('reads a refusal from its {detail}', async () => {
    fetchMock.mockResolvedValue(jsonResponse(413, { detail: 'File size must be less than 10MB' }));
    await expect(uploadDesign(file)).rejects.toMatchObject({
      status: 413,
      detail: 'File size must be less than 10MB',
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
