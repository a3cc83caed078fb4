import { describe, expect, it } from 'vitest';
import { resetLinkBase, resetLinkText } from './reset-link.js';

describe('resetLinkBase', () => {
  const config = { publicUrl: null, allowedOrigins: ['https://client.example'] };

  it('keeps a resetURL on a configured client origin', () => {
    expect(resetLinkBase(config, 'https://client.example/resetPassword/')).toBe(
      'https://client.example/resetPassword/',
    );
  });

  it('gives no link for any other resetURL: the origin a request claims (its Host) proves nothing', () => {
    for (const foreign of [
      'http://evil.example/reset/',
      'https://ship.local/r/',
      'http://localhost/resetPassword/',
      'javascript:alert(1)//',
      'nonsense',
    ])
      expect(resetLinkBase(config, foreign)).toBeNull();
    expect(resetLinkBase({ publicUrl: null, allowedOrigins: [] }, 'http://ship.local/resetPassword/')).toBeNull();
    expect(resetLinkBase(config, undefined)).toBeNull();
  });

  it('always uses the public URL when one is configured', () => {
    expect(resetLinkBase({ ...config, publicUrl: 'https://ship.example/app/' }, 'https://client.example/r/')).toBe(
      'https://ship.example/app/resetPassword/',
    );
  });

  it('writes the bare path, pointing at no host, when there is no link', () => {
    expect(resetLinkText(null, 'abc')).toBe('/resetPassword/abc (open it on your Bathylog server)');
    expect(resetLinkText('https://ship.example/resetPassword/', 'abc')).toBe('https://ship.example/resetPassword/abc');
  });
});
