import { describe, expect, it } from 'vitest';
import { resetLinkBase } from './reset-link.js';

describe('resetLinkBase', () => {
  const config = { publicUrl: null, allowedOrigins: ['https://client.example'] };

  it('keeps a resetURL on the own origin or a configured client origin', () => {
    expect(resetLinkBase(config, 'http://ship.local:8000/r/', 'http://ship.local:8000')).toBe(
      'http://ship.local:8000/r/',
    );
    expect(resetLinkBase(config, 'https://client.example/resetPassword/', 'http://ship.local')).toBe(
      'https://client.example/resetPassword/',
    );
  });

  it("points any other resetURL at the server's own client", () => {
    for (const foreign of ['http://evil.example/reset/', 'https://ship.local/r/', 'javascript:alert(1)//', 'nonsense'])
      expect(resetLinkBase(config, foreign, 'http://ship.local')).toBe('http://ship.local/resetPassword/');
    expect(resetLinkBase(config, 'http://evil.example/reset/', null)).toBeNull();
  });

  it('always uses the public URL when one is configured', () => {
    expect(
      resetLinkBase({ ...config, publicUrl: 'https://ship.example/app/' }, 'https://client.example/r/', 'http://x'),
    ).toBe('https://ship.example/app/resetPassword/');
  });
});
