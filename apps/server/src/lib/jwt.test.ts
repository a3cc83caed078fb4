import { describe, expect, it } from 'vitest';
import { signToken, verifyToken } from './jwt.js';

const claims = { id: '5981f167212b348aed7fa9f5', scope: ['admin'], roles: ['admin'] };

describe('jwt', () => {
  it('signs HS256 tokens with the claims Sealog scripts read, and no expiry', () => {
    const token = signToken({ ...claims, iat: 1795344366 }, 'secret');
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ ...claims, iat: 1795344366 });
    expect(verifyToken(token, 'secret')).toEqual({ ok: true, claims: { ...claims, iat: 1795344366 } });
  });

  it('sets iat to now in seconds', () => {
    const before = Math.floor(Date.now() / 1000);
    const result = verifyToken(signToken(claims, 's'), 's');
    expect(result.ok && result.claims.iat).toBeGreaterThanOrEqual(before);
  });

  it('tells missing, malformed and badly signed tokens apart', () => {
    const token = signToken(claims, 'secret');
    expect(verifyToken(undefined, 'secret')).toEqual({ ok: false, reason: 'missing' });
    expect(verifyToken('', 'secret')).toEqual({ ok: false, reason: 'missing' });
    expect(verifyToken('abc.def', 'secret')).toEqual({ ok: false, reason: 'missing' });
    expect(verifyToken('a.b.c', 'secret')).toEqual({ ok: false, reason: 'format' });
    expect(verifyToken(token, 'other')).toEqual({ ok: false, reason: 'signature' });
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, id: '5981f167212b348aed7fb9f5' })).toString('base64url');
    expect(verifyToken(`${h}.${forged}.${s}`, 'secret')).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses other algorithms, including none', () => {
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    expect(verifyToken(`${none}.${body}.`, 'secret').ok).toBe(false);
  });
});
