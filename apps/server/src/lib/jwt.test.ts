import { afterEach, describe, expect, it, vi } from 'vitest';
import { signToken, verifyToken } from './jwt.js';

const claims = { id: '5981f167212b348aed7fa9f5', scope: ['admin'], roles: ['admin'] };

function decode(token: string) {
  return token
    .split('.')
    .slice(0, 2)
    .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>);
}

describe('jwt (jose)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('signs HS256 tokens with the claims Sealog scripts read, and no expiry', async () => {
    const token = await signToken({ ...claims, iat: 1795344366 }, 'secret');
    const [header, payload] = decode(token);
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ ...claims, iat: 1795344366 });
    expect(await verifyToken(token, 'secret')).toEqual({ ok: true, claims: { ...claims, iat: 1795344366 } });
  });

  it('sets iat to now in seconds', async () => {
    const before = Math.floor(Date.now() / 1000);
    const result = await verifyToken(await signToken(claims, 's'), 's');
    expect(result.ok && result.claims.iat).toBeGreaterThanOrEqual(before);
  });

  it('a session token carries exp and is refused as expired once the clock passes it', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T00:00:00Z'), toFake: ['Date'] });
    const iat = Math.floor(Date.now() / 1000);
    const token = await signToken({ ...claims, iat, exp: iat + 60 }, 'secret');
    expect(decode(token)[1]).toEqual({ ...claims, iat, exp: iat + 60 });
    expect(await verifyToken(token, 'secret')).toEqual({ ok: true, claims: { ...claims, iat, exp: iat + 60 } });
    vi.setSystemTime(new Date('2026-03-01T00:00:59Z'));
    expect((await verifyToken(token, 'secret')).ok).toBe(true);
    vi.setSystemTime(new Date('2026-03-01T00:01:00Z'));
    expect(await verifyToken(token, 'secret')).toEqual({ ok: false, reason: 'expired' });
  });

  it('tells missing, malformed and badly signed tokens apart', async () => {
    const token = await signToken(claims, 'secret');
    expect(await verifyToken(undefined, 'secret')).toEqual({ ok: false, reason: 'missing' });
    expect(await verifyToken('', 'secret')).toEqual({ ok: false, reason: 'missing' });
    expect(await verifyToken('abc.def', 'secret')).toEqual({ ok: false, reason: 'missing' });
    expect(await verifyToken('a.b.c', 'secret')).toEqual({ ok: false, reason: 'format' });
    expect(await verifyToken(token, 'other')).toEqual({ ok: false, reason: 'signature' });
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, id: '5981f167212b348aed7fb9f5' })).toString('base64url');
    expect(await verifyToken(`${h}.${forged}.${s}`, 'secret')).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses other algorithms, including none', async () => {
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    expect((await verifyToken(`${none}.${body}.`, 'secret')).ok).toBe(false);
  });
});
