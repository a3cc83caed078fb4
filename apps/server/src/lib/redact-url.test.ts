import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it('hides credential parameters and reset paths, and keeps the rest', () => {
    expect(redactUrl('/sealog-server/api/v1/events?token=abc.def.ghi&limit=5')).toBe(
      '/sealog-server/api/v1/events?token=[redacted]&limit=5',
    );
    expect(redactUrl('/x?loginToken=A1&resetToken=B2&password=p&api_key=k&key=k2&keywords=dive')).toBe(
      '/x?loginToken=[redacted]&resetToken=[redacted]&password=[redacted]&api_key=[redacted]&key=[redacted]&keywords=dive',
    );
    expect(redactUrl('/x?TOKEN=a&%74oken=b#frag')).toBe('/x?TOKEN=[redacted]&%74oken=[redacted]#frag');
    expect(redactUrl('/resetPassword/0123abcd?x=1')).toBe('/resetPassword/[redacted]?x=1');
    expect(redactUrl('/sealog-server/api/v1/cruises')).toBe('/sealog-server/api/v1/cruises');
  });

  it('hides bracketed and dotted credential names (array and object parameters)', () => {
    expect(redactUrl('/x?token[]=abc&token[0]=def&auth[token]=ghi&auth.password=p&%74oken%5B%5D=j&q[]=dive')).toBe(
      '/x?token[]=[redacted]&token[0]=[redacted]&auth[token]=[redacted]&auth.password=[redacted]&%74oken%5B%5D=[redacted]&q[]=dive',
    );
  });

  it('hides JWTs and device keys under any name and anywhere in the URL', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjEifQ.c2lnbmF0dXJlLWJ5dGVz';
    const key = `bk_${'A1b2_-'.repeat(7)}x`;
    expect(redactUrl(`/x?auth=${jwt}&k=${key}&limit=5`)).toBe('/x?auth=[redacted]&k=[redacted]&limit=5');
    expect(redactUrl(`/files/${jwt}/a.jpg?x=${key}#f`)).toBe('/files/[redacted]/a.jpg?x=[redacted]#f');
    // Ordinary values are kept: ids, file names, search words.
    expect(redactUrl('/events/5981f167212b348aed7fa9f5?value=bk_short&q=eyJ')).toBe(
      '/events/5981f167212b348aed7fa9f5?value=bk_short&q=eyJ',
    );
  });
});
