import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@bathylog/shared';
import { adoptSession, clearSession, currentToken, onSessionEnded, takeSessionEndMessage } from '../lib/session';
import { api, ApiError, errorMessage, isApiError, toQueryString } from './client';

describe('toQueryString (Sealog query conventions)', () => {
  it('drops null and undefined keys', () => {
    expect(toQueryString({ a: 'x', b: null, c: undefined })).toBe('?a=x');
    expect(toQueryString({})).toBe('');
  });
  it('repeats keys for arrays, trims elements and drops blanks', () => {
    expect(toQueryString({ value: [' !ASNAP ', '', 'CTD'], limit: 20 })).toBe('?value=%21ASNAP&value=CTD&limit=20');
  });
});

describe('ApiError', () => {
  it('carries the status and the message screens show', () => {
    const err = new ApiError(401, 'unknown user or bad password');
    expect(isApiError(err, 401)).toBe(true);
    expect(isApiError(err, 404)).toBe(false);
    expect(errorMessage(err)).toBe('unknown user or bad password');
    expect(new ApiError(0, 'Unable to connect to server').isNetworkError).toBe(true);
  });
});

describe('session renewal and end', () => {
  const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  it('a cookie session keeps no token in page script and sends none: the HttpOnly cookie goes along', async () => {
    // What the server's login answer leaves readable: the id cookie (the token cookie is HttpOnly).
    document.cookie = 'id=u1; path=/';
    expect(adoptSession({ token: 'session.token.value', id: 'u1' })).toEqual({ id: 'u1' });
    expect(currentToken()).toBeNull();
    const fetchMock = vi.fn(async () => jsonResponse(200, { status: 'valid' }));
    vi.stubGlobal('fetch', fetchMock);
    await api.get('auth/validate');
    const [, init] = (fetchMock.mock.calls as unknown as Array<[string, RequestInit]>)[0]!;
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(init.credentials).toBe('same-origin');
    expect(document.cookie).not.toContain('session.token.value');
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain('session.token.value');
  });

  it('where the browser refused the cookies, the session stays in memory and swaps in a renewed token', async () => {
    adoptSession({ token: 'old.token.value', id: 'u1' });
    const fetchMock = vi.fn(async () =>
      jsonResponse(200, { status: 'valid' }, { 'x-bathylog-token': 'new.token.value' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    expect(await api.get('auth/validate')).toEqual({ status: 'valid' });
    expect(currentToken()).toBe('new.token.value');
    await api.get('auth/validate');
    const calls = fetchMock.mock.calls as unknown as Array<[string, RequestInit]>;
    expect((calls[0]![1].headers as Record<string, string>).Authorization).toBe('Bearer old.token.value');
    expect((calls[1]![1].headers as Record<string, string>).Authorization).toBe('Bearer new.token.value');
  });

  it('an expired session reports its message once, for the login screen', async () => {
    document.cookie = 'id=u1; path=/';
    const ended: string[] = [];
    const off = onSessionEnded((m) => ended.push(m));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: messages.sessionExpired }),
      ),
    );
    await expect(api.get('events')).rejects.toMatchObject({ statusCode: 401, message: messages.sessionExpired });
    expect(ended).toEqual([messages.sessionExpired]);
    expect(takeSessionEndMessage()).toBe('Your session has expired, please log in again');
    expect(takeSessionEndMessage()).toBe('');
    off();
  });

  it('a wrong password (401 with another message) is not a session end', async () => {
    const ended: string[] = [];
    const off = onSessionEnded((m) => ended.push(m));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'unknown user or bad password' }),
      ),
    );
    await expect(api.post('auth/login', {}, { auth: false })).rejects.toMatchObject({ statusCode: 401 });
    expect(ended).toEqual([]);
    off();
  });
});
