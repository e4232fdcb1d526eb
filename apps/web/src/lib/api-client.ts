import toast from 'react-hot-toast';
import { ApiError, describeHttpError, networkError } from './api-error';
import { clearAuth, getToken } from './auth-storage';
import {
  getCurrentOrganizationId,
  ORGANIZATION_HEADER,
  reportOrganizationLost,
} from './organization/current-organization';

export { ApiError } from './api-error';

/** Same origin: the server serves this app, and `vite dev` proxies /api to it. */
export const API_BASE = '';

/** The current-user check: a 401 there is handled by the auth provider, not by a redirect here. */
export const CURRENT_USER_PATH = '/api/auth/me';

type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded instead of JSON (the login call). */
  form?: Record<string, string>;
  /** Sent as multipart/form-data (a file upload); the browser sets the type with its boundary. */
  multipart?: FormData;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /**
   * Send the bearer token and treat a 401 as a lost session (default true). Sign-in and registration
   * turn it off: their 401 means wrong credentials, which the screen explains itself.
   */
  auth?: boolean;
}

/** Anything with zod's `parse`: answers are validated against the protocol's schemas. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

type UnauthorizedHandler = () => void;

let unauthorizedHandler: UnauthorizedHandler = () => {
  if (typeof window !== 'undefined' && window.location.pathname !== '/login') {
    window.location.assign('/login');
  }
};

/**
 * Who reacts when a call answers 401 (docs/PRODUCT.md#sign-in: the token is removed and the user goes to /login).
 * The auth provider registers itself so the move happens inside the router, without a page reload.
 * Returns a function restoring the previous handler.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  const previous = unauthorizedHandler;
  unauthorizedHandler = handler;
  return () => {
    unauthorizedHandler = previous;
  };
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const qs = search.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The headers of a signed-in call that builds its own fetch (a file download): the bearer token and
 * the current organization, as apiRequest sends them.
 */
export function authHeaders(): Record<string, string> {
  const token = getToken();
  if (!token) return {};
  const orgId = getCurrentOrganizationId();
  return { Authorization: `Bearer ${token}`, ...(orgId ? { [ORGANIZATION_HEADER]: orgId } : {}) };
}

/**
 * One HTTP call to the Argus server. Sends the bearer token and JSON, a form or a multipart body (docs/PRODUCT.md#http-api), maps failures to
 * ApiError (docs/PRODUCT.md#api-errors) and, on a 401 outside the current-user check, signs the user out.
 */
export async function apiRequest<T = unknown>(
  path: string,
  options: ApiRequestOptions = {},
  schema?: ResponseSchema<T>,
): Promise<T> {
  const { method = 'GET', body, form, multipart, query, signal, auth = true } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (multipart) {
    // No Content-Type: the browser writes multipart/form-data with its boundary.
    payload = multipart;
  } else if (form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    // Only with a body: a JSON content type on an empty DELETE is a 400 on the server.
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const token = auth ? getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  // The organization chosen in the sidebar (docs/ORGANIZATIONS.md); none: the personal one.
  const orgId = token ? getCurrentOrganizationId() : null;
  if (orgId) headers[ORGANIZATION_HEADER] = orgId;

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), { method, headers, body: payload, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw networkError(error);
  }

  const data = await readBody(response);
  if (!response.ok) {
    const error = describeHttpError(response.status, data);
    if (response.status === 401 && auth && path !== CURRENT_USER_PATH) {
      clearAuth();
      toast.error(error.message, { id: 'authentication-failed' });
      unauthorizedHandler();
    }
    // Removed from the chosen organization: back to the personal one (the listeners say so once).
    if (orgId && error.code === 'ORGANIZATION_NOT_FOUND') reportOrganizationLost(orgId);
    throw error;
  }
  if (!schema) return data as T;
  try {
    return schema.parse(data);
  } catch (cause) {
    const error = new ApiError(response.status, 'The server sent an answer this app does not understand');
    (error as { cause?: unknown }).cause = cause;
    throw error;
  }
}
