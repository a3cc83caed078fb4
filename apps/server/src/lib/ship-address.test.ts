import { describe, expect, it } from 'vitest';
import { isRefusedShipIp, isRefusedShipUrl, refusedShipAddressMessage, shipLookup } from './ship-address.js';

describe("a ship's address", () => {
  it('may not be loopback, link-local or unspecified, in any spelling', () => {
    for (const url of [
      'http://127.0.0.1:8000',
      'http://127.1.2.3',
      'http://localhost:8000',
      'http://api.localhost',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0',
      'http://[::1]:8000',
      'http://[::]',
      'http://[fe80::1]',
      'http://[::ffff:127.0.0.1]',
      'http://[::ffff:a9fe:a9fe]',
    ]) {
      expect(isRefusedShipUrl(url), url).toBe(true);
    }
  });

  it('may be on a private network or the internet', () => {
    for (const url of [
      'http://10.0.0.5:8000',
      'http://172.16.1.1',
      'http://192.168.1.20',
      'http://[fd00::5]',
      'https://ship.example.org',
      'http://[::ffff:10.0.0.5]',
    ]) {
      expect(isRefusedShipUrl(url), url).toBe(false);
    }
    expect(isRefusedShipIp('8.8.8.8')).toBe(false);
  });

  it('is checked again for what a name resolves to, when connecting', async () => {
    const err = await new Promise<Error | null>((resolve) => shipLookup('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toBe(refusedShipAddressMessage);
  });
});
