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
});
