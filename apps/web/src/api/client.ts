import { emptyListHeader, isErrorBody, messages, sessionEndHeader } from '@bathylog/shared';
import { currentToken, replaceToken, reportSessionEnded } from '../lib/session';
import { apiRoot, serverRoot, takeEarlyGet } from './early-gets';

/** Header of a renewed session token: sessions expire, and are renewed while used. */
export const renewedTokenHeader = 'x-bathylog-token';
const sessionEndMessages: readonly string[] = [messages.sessionExpired, messages.tokenRevoked];

/** Where the server lives: same origin as the page (the server also serves the client). */
export { apiRoot, serverRoot };

export const networkErrorMessage = 'Unable to connect to server';

/**
 * The one error type of the client: every non-2xx answer and every network failure.
 * `statusCode` is 0 for a network failure. Screens show `message` (docs/screens.md#alerts).
 */
export class ApiError extends Error {
  readonly statusCode: number;
  /** The answer's Retry-After in seconds (429, 503), when it gave one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(statusCode: number, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get isNetworkError(): boolean {
    return this.statusCode === 0;
  }
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.statusCode === status);
}

/** The message to show for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export type QueryValue = string | number | boolean | null | undefined | Array<string | number | boolean>;
export type Query = Record<string, QueryValue>;

/**
 * Sealog's query conventions, which its scripts also rely on: null/undefined keys are dropped, arrays
 * become repeated keys, string elements are trimmed and blanks dropped.
 */
export function toQueryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      const s = String(v).trim();
      if (Array.isArray(value) && s === '') continue;
      params.append(key, s);
    }
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** Public auth calls send no bearer token. Default true. */
  auth?: boolean;
  signal?: AbortSignal;
  /** Base other than the API root (e.g. serverRoot for client_settings). */
  base?: string;
  /** How to read a 2xx body. Default: JSON when there is one, else undefined. */
  responseType?: 'json' | 'text' | 'blob';
}

/** A non-2xx answer as the ApiError it carries (its `message` when the body is a Sealog error). */
export async function readError(res: Response): Promise<ApiError> {
  let message = res.statusText || `Request failed with status ${res.status}`;
  try {
    const text = await res.text();
    if (text) {
      const body: unknown = JSON.parse(text);
      if (isErrorBody(body)) message = body.message;
    }
  } catch {
    // Not JSON (a proxy's error page): keep the status text.
  }
  const retryAfter = Number(res.headers.get('retry-after') ?? NaN);
  return new ApiError(res.status, message, Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined);
}

/** fetch + bearer token + JSON; throws ApiError. */
export async function request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // An empty list is `200 []` for us, not Sealog's 404 (docs/wire.md#empty-lists).
  if ((opts.method ?? 'GET') === 'GET') headers[emptyListHeader] = '200';
  if (opts.auth !== false) {
    const token = currentToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const url = `${opts.base ?? apiRoot}/${path.replace(/^\//, '')}${toQueryString(opts.query)}`;
  // A GET index.html already sent for the first screen (early-gets.ts) is answered from there.
  const early = (opts.method ?? 'GET') === 'GET' && opts.auth !== false ? takeEarlyGet(url) : undefined;
  let res: Response;
  try {
    res =
      (await early) ??
      (await fetch(url, {
        method: opts.method ?? 'GET',
        headers,
        body,
        signal: opts.signal,
        credentials: 'same-origin',
      }));
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, networkErrorMessage);
  }
  if (opts.auth !== false) {
    const renewed = res.headers.get(renewedTokenHeader);
    if (renewed) replaceToken(renewed);
  }
  if (!res.ok) {
    const error = await readError(res);
    if (opts.auth !== false && error.statusCode === 401) {
      if (res.headers.get(sessionEndHeader) === 'roles-changed') reportSessionEnded(messages.rolesChanged);
      else if (sessionEndMessages.includes(error.message)) reportSessionEnded(error.message);
    }
    throw error;
  }
  if (opts.responseType === 'blob') return (await res.blob()) as T;
  const text = await res.text();
  if (opts.responseType === 'text') return text as T;
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(res.status, 'Invalid response from server');
  }
}

export const api = {
  get: <T>(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'GET' }),
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'POST', body }),
  patch: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'PATCH', body }),
  put: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'PUT', body }),
  delete: <T>(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'DELETE' }),
};

/**
 * List reads: Sealog answers an empty list with 404 `No records found` (docs/screens.md#failed-reads),
 * so a 404 is an empty list, silently.
 */
export async function getList<T>(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T[]> {
  try {
    const data = await api.get<T[]>(path, opts);
    return Array.isArray(data) ? data : [];
  } catch (err) {
    if (isApiError(err, 404)) return [];
    throw err;
  }
}
