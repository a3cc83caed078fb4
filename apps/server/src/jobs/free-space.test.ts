import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freeSpaceLevel, wsPath } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { listenInRange, RawClient, scriptHello } from '../realtime/testing/ws-test-client.js';
import { systemIds } from '../seed/system.js';
import { FreeSpaceMonitor, measureDisk } from './free-space.js';

const path = wsPath('updateCustomVars');

describe('disk measurement', () => {
  it('reports free bytes and the used percentage as df does', async () => {
    const usage = await measureDisk('/tmp');
    // df -P: 1024-byte blocks; columns: filesystem, blocks, used, available, capacity, mount.
    const line = execFileSync('df', ['-P', '/tmp'], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
    const [, , , available, capacity] = line.split(/\s+/);
    const dfFree = Number(available) * 1024;
    // The disk may change a little between the two readings.
    expect(Math.abs(usage.freeBytes - dfFree)).toBeLessThan(64 * 1024 * 1024);
    expect(Math.abs(usage.usedPercentage - Number.parseInt(capacity!, 10))).toBeLessThanOrEqual(1);
  });

  it('maps the used percentage to the footer colours (green < 75, amber < 90, red otherwise)', () => {
    expect(freeSpaceLevel('0')).toBe('success');
    expect(freeSpaceLevel('74')).toBe('success');
    expect(freeSpaceLevel('75')).toBe('warning');
    expect(freeSpaceLevel('89')).toBe('warning');
    expect(freeSpaceLevel('90')).toBe('danger');
    expect(freeSpaceLevel(undefined)).toBe('danger');
  });
});

describe.each(engines)('free-space monitor on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let admin: string;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    // The default 60 s period: the first reading happens at start, the next one not during the test.
    t = await createTestApp(engine, { freeSpaceIntervalSeconds: 60 });
    port = await listenInRange(t.app);
    admin = await t.login('admin', 'demo');
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(() => t?.close());

  it('stores a first reading of the data folder at start', async () => {
    const res = await t.api('GET', '/custom_vars?name=freeSpaceInBytes&name=freeSpacePercentage', { token: admin });
    const [bytes, percentage] = res.json() as Array<{ custom_var_value: string }>;
    const usage = await measureDisk(t.ctx.paths.data);
    expect(bytes!.custom_var_value).toMatch(/^\d+$/);
    expect(Number(bytes!.custom_var_value)).toBeGreaterThan(0);
    expect(Math.abs(Number(bytes!.custom_var_value) - usage.freeBytes)).toBeLessThan(64 * 1024 * 1024);
    expect(Number(percentage!.custom_var_value)).toBe(usage.usedPercentage);
  });

  it('publishes the NEW values on updateCustomVars after each reading', async () => {
    const c = await RawClient.open(port);
    clients.push(c);
    expect((await c.call(scriptHello(admin, [path]))).type).toBe('hello');
    const readings = [
      { freeBytes: 41_200_000_000, usedPercentage: 80 },
      { freeBytes: 1_000_000, usedPercentage: 99 },
    ];
    for (const reading of readings) {
      const monitor = new FreeSpaceMonitor(t.ctx, async () => reading);
      const seen = c.frames.length;
      await monitor.runOnce();
      await c.next(
        (f) => f.type === 'pub' && (f.message as { custom_var_name: string }).custom_var_name === 'freeSpacePercentage',
        5000,
        seen,
      );
      const pubs = c.frames
        .slice(seen)
        .filter((f) => f.type === 'pub')
        .map((f) => f.message);
      expect(pubs).toEqual([
        {
          id: systemIds.freeSpaceInBytes,
          custom_var_name: 'freeSpaceInBytes',
          custom_var_value: String(reading.freeBytes),
        },
        {
          id: systemIds.freeSpacePercentage,
          custom_var_name: 'freeSpacePercentage',
          custom_var_value: String(reading.usedPercentage),
        },
      ]);
      const stored = await t.api('GET', '/custom_vars?name=freeSpaceInBytes', { token: admin });
      expect((stored.json() as Array<{ custom_var_value: string }>)[0]!.custom_var_value).toBe(
        String(reading.freeBytes),
      );
    }
  });

  it('survives a failing measurement without publishing', async () => {
    const monitor = new FreeSpaceMonitor(t.ctx, async () => {
      throw new Error('disk gone');
    });
    const seen: unknown[] = [];
    const off = t.ctx.bus.subscribe('updateCustomVars', (p) => seen.push(p));
    await monitor.runOnce();
    off();
    expect(seen).toEqual([]);
  });
});
