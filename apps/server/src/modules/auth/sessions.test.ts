import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages, wsPath } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { listenInRange, RawClient, scriptHello } from '../../realtime/testing/ws-test-client.js';

const day = 24 * 60 * 60 * 1000;
const hour = 60 * 60 * 1000;

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

const unauthorized = (message: string) => ({
  statusCode: 401,
  error: 'Unauthorized',
  message,
  attributes: { error: message },
});

/**
 * Sessions (docs/security.md#browser-session): browser tokens expire (default 7 days) and are renewed while used; the
 * Sealog API token stays long-lived; sign out everywhere and password changes revoke tokens,
 * on the next request and on open websockets. The clock is faked (Date only).
 */
describe.each(engines)('sessions and token revocation on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let counter = 0;
  const sockets: RawClient[] = [];

  const createUser = async () => {
    counter++;
    const username = `sess${counter}`;
    const password = `pw-sess-${counter}`;
    const res = await t.api('POST', '/users', {
      token: admin,
      body: { username, fullname: username, email: `${username}@example.org`, password, roles: ['event_logger'] },
    });
    expect(res.statusCode).toBe(201);
    return { id: (res.json() as { insertedId: string }).insertedId, username, password };
  };
  const validate = (token: string) => t.api('GET', '/auth/validate', { token });

  beforeAll(async () => {
    t = await createTestApp(engine, { realtime: { authRecheckMs: 60_000 } });
    admin = await t.login('admin', 'demo');
  });
  afterEach(() => {
    vi.useRealTimers();
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(() => t?.close());

  it('a browser session expires after 7 days with a message for the login screen', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const user = await createUser();
    const token = await t.login(user.username, user.password);
    const claims = claimsOf(token);
    expect(claims.exp).toBe((claims.iat as number) + 7 * 24 * 60 * 60);
    vi.setSystemTime(Date.now() + 7 * day - 2000);
    // Renewal is due, but the request itself is still answered with the old token.
    expect((await validate(token)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 3000);
    const expired = await validate(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(unauthorized(messages.sessionExpired));
    expect(messages.sessionExpired).toBe('Your session has expired, please log in again');
  });

  it('is renewed while used: after an hour a request brings a fresh token that outlives the old one', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const user = await createUser();
    const token = await t.login(user.username, user.password);
    const early = await validate(token);
    expect(early.headers['x-bathylog-token']).toBeUndefined();
    vi.setSystemTime(Date.now() + hour + 1000);
    const later = await t.api('GET', '/auth/profile', { token });
    expect(later.statusCode).toBe(200);
    const fresh = later.headers['x-bathylog-token'] as string;
    expect(fresh).toBeTruthy();
    expect(claimsOf(fresh)).toMatchObject({ id: user.id, scope: claimsOf(token).scope, roles: ['event_logger'] });
    expect(claimsOf(fresh).exp).toBe((claimsOf(token).exp as number) + 3601);
    // Past the first token's expiry: the old one is refused, the renewed one works.
    vi.setSystemTime(Date.now() + 7 * day - 30_000);
    expect((await validate(token)).json()).toEqual(unauthorized(messages.sessionExpired));
    expect((await validate(fresh)).statusCode).toBe(200);
  });

  it('is renewed once: later requests still carrying the old token are handed the same new one, still checked', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const user = await createUser();
    const token = await t.login(user.username, user.password);
    vi.setSystemTime(Date.now() + hour + 1000);
    const first = (await t.api('GET', '/auth/profile', { token })).headers['x-bathylog-token'] as string;
    expect(first).toBeTruthy();
    // Seconds later (a new token signed now would carry a later iat): the same renewal, every time.
    vi.setSystemTime(Date.now() + 3000);
    for (let i = 0; i < 3; i++) {
      const again = await t.api('GET', '/auth/profile', { token });
      expect(again.statusCode).toBe(200);
      expect(again.headers['x-bathylog-token']).toBe(first);
    }
    // Minutes later a client still on the old token gets a newer renewal.
    vi.setSystemTime(Date.now() + 10 * 60_000);
    const later = (await t.api('GET', '/auth/profile', { token })).headers['x-bathylog-token'] as string;
    expect(later).toBeTruthy();
    expect(claimsOf(later).iat as number).toBeGreaterThan(claimsOf(first).iat as number);
    // The old token is still checked on each request: revoked, it is refused and renews nothing.
    expect((await t.api('POST', '/auth/signOutEverywhere', { token: first })).statusCode).toBe(204);
    const refused = await t.api('GET', '/auth/profile', { token });
    expect(refused.json()).toEqual(unauthorized(messages.tokenRevoked));
    expect(refused.headers['x-bathylog-token']).toBeUndefined();
  });

  it('the API token of GET users/{id}/token and Show API Token keeps the Sealog claims and does not expire', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const user = await createUser();
    const session = await t.login(user.username, user.password);
    const byId = ((await t.api('GET', `/users/${user.id}/token`, { token: session })).json() as { token: string })
      .token;
    const profile = ((await t.api('GET', '/auth/profile/token', { token: session })).json() as { token: string }).token;
    for (const token of [byId, profile]) {
      expect(Object.keys(claimsOf(token)).sort()).toEqual(['iat', 'id', 'roles', 'scope']);
      expect(claimsOf(token)).toMatchObject({ id: user.id, roles: ['event_logger'] });
    }
    vi.setSystemTime(Date.now() + 400 * day);
    expect((await validate(byId)).statusCode).toBe(200);
    expect((await validate(profile)).headers['x-bathylog-token']).toBeUndefined();
  });

  it('sign out everywhere ends every session and API token of the user at the next request', async () => {
    const user = await createUser();
    const a = await t.login(user.username, user.password);
    const b = await t.login(user.username, user.password);
    const apiToken = ((await t.api('GET', `/users/${user.id}/token`, { token: a })).json() as { token: string }).token;
    const res = await t.api('POST', '/auth/signOutEverywhere', { token: a });
    expect(res.statusCode).toBe(204);
    for (const token of [a, b, apiToken])
      expect((await validate(token)).json()).toEqual(unauthorized(messages.tokenRevoked));
    // Logging in again works at once, and so does a new API token.
    const again = await t.login(user.username, user.password);
    expect((await validate(again)).statusCode).toBe(200);
    const newApi = ((await t.api('GET', `/users/${user.id}/token`, { token: again })).json() as { token: string })
      .token;
    expect((await validate(newApi)).statusCode).toBe(200);
  });

  it('an admin signs out any user; other users only themselves', async () => {
    const user = await createUser();
    const other = await createUser();
    const token = await t.login(user.username, user.password);
    const otherToken = await t.login(other.username, other.password);
    expect((await t.api('POST', `/users/${other.id}/signOutEverywhere`, { token })).json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'Only admins and the owner can sign a user out everywhere',
    });
    expect((await validate(otherToken)).statusCode).toBe(200);
    expect((await t.api('POST', `/users/${other.id}/signOutEverywhere`, { token: admin })).statusCode).toBe(204);
    expect((await validate(otherToken)).json()).toEqual(unauthorized(messages.tokenRevoked));
    expect((await validate(token)).statusCode).toBe(200);
    expect((await t.api('POST', `/users/${'f'.repeat(24)}/signOutEverywhere`, { token: admin })).statusCode).toBe(404);
    expect((await t.api('POST', `/users/${user.id}/signOutEverywhere`)).statusCode).toBe(401);
  });

  it('a password change ends the other sessions and the API tokens, and keeps the session it came from', async () => {
    const user = await createUser();
    const here = await t.login(user.username, user.password);
    const elsewhere = await t.login(user.username, user.password);
    const apiToken = ((await t.api('GET', `/users/${user.id}/token`, { token: here })).json() as { token: string })
      .token;
    const res = await t.api('PATCH', '/auth/profile', { token: here, body: { password: 'brand-new-pw' } });
    expect(res.statusCode).toBe(204);
    const renewed = res.headers['x-bathylog-token'] as string;
    expect((await validate(renewed)).statusCode).toBe(200);
    expect((await validate(elsewhere)).json()).toEqual(unauthorized(messages.tokenRevoked));
    expect((await validate(here)).json()).toEqual(unauthorized(messages.tokenRevoked));
    // An API token minted before the change may be in the hands of whoever knew the old password.
    expect((await validate(apiToken)).json()).toEqual(unauthorized(messages.tokenRevoked));
    // An admin setting the password (PATCH users/{id}) ends the user's sessions too.
    expect(
      (await t.api('PATCH', `/users/${user.id}`, { token: admin, body: { password: 'admin-set-pw' } })).statusCode,
    ).toBe(204);
    expect((await validate(renewed)).json()).toEqual(unauthorized(messages.tokenRevoked));
    expect((await validate(admin)).statusCode).toBe(200);
  });

  it('a password reset ends the sessions', async () => {
    const user = await createUser();
    const token = await t.login(user.username, user.password);
    const resetToken = 'a'.repeat(40);
    await t.ctx.database.db
      .updateTable('users')
      .set({ reset_password_token: resetToken, reset_password_expires: Date.now() + 60_000 })
      .where('id', '=', user.id)
      .execute();
    const res = await t.api('PATCH', '/auth/resetPassword', { body: { token: resetToken, password: 'after-reset' } });
    expect(res.statusCode).toBe(204);
    expect((await validate(token)).json()).toEqual(unauthorized(messages.tokenRevoked));
    expect((await validate(await t.login(user.username, 'after-reset'))).statusCode).toBe(200);
  });

  it('revocation closes an open websocket of that user at once, and not the sockets of others', async () => {
    const port = await listenInRange(t.app);
    const user = await createUser();
    const token = await t.login(user.username, user.password);
    const mine = await RawClient.open(port);
    const theirs = await RawClient.open(port);
    sockets.push(mine, theirs);
    expect((await mine.call(scriptHello(token, [wsPath('newEvents')]))).type).toBe('hello');
    expect((await theirs.call(scriptHello(admin, [wsPath('newEvents')]))).type).toBe('hello');
    expect((await t.api('POST', `/users/${user.id}/signOutEverywhere`, { token: admin })).statusCode).toBe(204);
    const closed = await mine.closed;
    expect(closed).toEqual({ code: 1008, reason: messages.tokenRevoked });
    expect(theirs.isOpen).toBe(true);
  });
});
