import { type DemoRequest, type DemoRequestResponse, DemoRequestResponseSchema } from '@argus/protocol';

/** An error answer of `POST /api/demo-requests`, with the text to show and the HTTP status (0: no answer). */
export class DemoRequestError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'DemoRequestError';
    this.status = status;
  }
}

interface ValidationIssue {
  loc?: unknown[];
  msg?: string;
}

/** Turns `{detail: string}` or 422 `{detail: [{loc, msg, type}]}` into one readable sentence. */
function describeError(status: number, body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string' && detail) return detail;
  if (Array.isArray(detail)) {
    const parts = (detail as ValidationIssue[]).map((issue) => {
      const field = issue.loc?.filter((part) => part !== 'body').join('.');
      return field ? `${field}: ${issue.msg ?? 'invalid'}` : (issue.msg ?? 'invalid');
    });
    return `Validation Error: ${parts.join('; ')}`;
  }
  return `HTTP error! status: ${status}`;
}

/** `POST /api/demo-requests` (docs/PRODUCT.md#demo-request; docs/ARCHITECTURE.md#departures-from-the-spec-and-why): stores a demo request; answers 201 `{success, id, message}`. */
export async function submitDemoRequest(
  request: DemoRequest,
  signal?: AbortSignal,
): Promise<DemoRequestResponse> {
  let response: Response;
  try {
    response = await fetch('/api/demo-requests', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new DemoRequestError('Network error. Please check your connection.', 0);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new DemoRequestError(describeError(response.status, body), response.status);
  const parsed = DemoRequestResponseSchema.safeParse(body);
  if (!parsed.success) throw new DemoRequestError('Unexpected answer from the server', response.status);
  return parsed.data;
}
