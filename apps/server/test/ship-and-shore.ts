import type { ConfigInput } from '../src/config.js';
import { createTestApp, type TestApp } from './test-app.js';
import { TcpProxy, type ProxyOptions } from './tcp-proxy.js';

export interface ShipAndShore {
  ship: TestApp;
  shore: TestApp;
  /** Between the two: the shore reaches the ship at `proxy.url`. */
  proxy: TcpProxy;
  shipAdmin: string;
  shoreAdmin: string;
  /** A device key the ship's admin made for the shore (`full_follower`: it copies everything). */
  key: string;
  keyId: string;
  close(): Promise<void>;
}

/**
 * A shore's configuration for tests: its ships listen on 127.0.0.1, which a shore refuses by
 * default (docs/security.md#a-followed-ship).
 */
export function shoreConfig(config: ConfigInput = {}): ConfigInput {
  return { ...config, sync: { allowPrivateHosts: true, ...config.sync } };
}

/**
 * A ship listening behind a TCP proxy (which can cut the link, slow it and count its bytes) and a
 * shore that may follow it (docs/ship-to-shore.md), with an admin session on each and a device key
 * for the shore.
 */
export async function startShipAndShore(
  opts: {
    shore?: { engine?: 'sqlite' | 'postgres'; config?: ConfigInput };
    ship?: ConfigInput;
    proxy?: ProxyOptions;
  } = {},
): Promise<ShipAndShore> {
  const ship = await createTestApp('sqlite', opts.ship ?? {});
  await ship.app.listen({ port: 0, host: '127.0.0.1' });
  const proxy = new TcpProxy((ship.app.server.address() as { port: number }).port, opts.proxy ?? {});
  await proxy.listen();
  const shore = await createTestApp(opts.shore?.engine ?? 'sqlite', shoreConfig(opts.shore?.config));
  const shipAdmin = await ship.login('admin', 'demo');
  const shoreAdmin = await shore.login('admin', 'demo');
  const made = await ship.api('POST', '/device_keys', {
    token: shipAdmin,
    body: { name: 'shore', roles: ['full_follower'] },
  });
  const { key, id: keyId } = made.json() as { key: string; id: string };
  return {
    ship,
    shore,
    proxy,
    shipAdmin,
    shoreAdmin,
    key,
    keyId,
    async close() {
      await shore.close();
      await proxy.close();
      await ship.close();
    },
  };
}

/** Polls `fn` every 50 ms until it gives a truthy value, or fails naming what it waited for (and the last error). */
export async function waitUntil<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
