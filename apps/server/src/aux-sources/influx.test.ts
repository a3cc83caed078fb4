import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Influxd, freePort } from '../../test/influxd.js';
import { peer } from '../../test/peers.js';
import { InfluxSource } from './influx.js';

/**
 * The InfluxDB 1.x source against Debian's influxd: each field's last value at or before a time within the
 * window, stale and no data told apart, the batched read (backfill) answering exactly as the single one, a
 * silent server cut off by the signal, and no credential in any error.
 */
const influxBin = peer('influxd');
const T0 = Date.parse('2023-03-14T23:00:00.000Z');
const base = { maxAgeMs: 20_000, imagesDir: '', eventId: 'e' };

describe.skipIf(!influxBin)('InfluxDB source', () => {
  let influx: Influxd;
  let source: InfluxSource;

  beforeAll(async () => {
    influx = await Influxd.create(influxBin!);
    await influx.query('CREATE DATABASE ship');
    await influx.write('ship', [
      `nav lat=1,depth=100 ${T0}`,
      `nav lat=2 ${T0 + 5000}`,
      `nav lat=3,depth=300 ${T0 + 60_000}`,
      `gyro heading=90 ${T0 + 1000}`,
    ]);
    source = new InfluxSource({ url: influx.url, database: 'ship' }, { measurements: ['nav', 'gyro'] });
  }, 60_000);
  afterAll(() => influx?.close());

  const at = (ms: number, keys = ['lat', 'depth', 'gyro.heading']) =>
    source.readingAt({ ...base, at: ms, keys, signal: AbortSignal.timeout(5000) });

  it("reads each field's own last value in the window", async () => {
    expect(await at(T0 + 6000)).toEqual({
      kind: 'reading',
      provenance: 'realtime',
      reading: {
        ts: T0,
        values: { 'nav.lat': 2, lat: 2, 'nav.depth': 100, depth: 100, 'gyro.heading': 90, heading: 90 },
      },
    });
    expect(await at(T0 + 40_000)).toEqual({ kind: 'stale', newestTs: T0 + 5000 });
    expect(await at(T0 - 1000)).toEqual({ kind: 'no_data' });
  });

  it('answers a batch of times exactly as one by one', async () => {
    const times = [T0 + 6000, T0 - 1000, T0 + 40_000, T0 + 61_000, T0 + 5000, T0 + 3600_000];
    const keys = ['lat', 'depth', 'gyro.heading'];
    const batch = await source.readingsAt(times, { ...base, keys, signal: AbortSignal.timeout(5000) });
    const single = await Promise.all(times.map((t) => at(t, keys)));
    expect(batch).toEqual(single);
  });

  it('gives up on a silent server at the signal, and names no credential in its errors', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as net.AddressInfo).port;
    const hanging = new InfluxSource(
      { url: `http://u:hunter2-pw@127.0.0.1:${port}`, database: 'ship' },
      { measurements: ['nav'] },
    );
    await expect(
      hanging.readingAt({ ...base, at: T0, keys: ['lat'], signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow(`InfluxDB at http://127.0.0.1:${port} did not answer in time`);
    silent.close();
    const closed = new InfluxSource(
      { url: `http://u:hunter2-pw@127.0.0.1:${await freePort()}`, database: 'ship' },
      { measurements: ['nav'] },
    );
    const err = await closed
      .readingAt({ ...base, at: T0, keys: ['lat'], signal: AbortSignal.timeout(2000) })
      .catch((e: Error) => e);
    expect(String((err as Error).message)).toMatch(/unreachable \(ECONNREFUSED\)$/);
    expect(JSON.stringify([String(err), closed.health(), hanging.health()])).not.toContain('hunter2');
    // Wrong credentials on a server that checks them: refused, without echoing them.
    const secured = await Influxd.create(influxBin!, { auth: { user: 'admin', password: 'right-pw' } });
    try {
      const wrong = new InfluxSource(
        { url: secured.url, database: 'ship', username: 'admin', password: 'wrong-pw' },
        { measurements: ['nav'] },
      );
      const refused = await wrong
        .readingAt({ ...base, at: T0, keys: ['lat'], signal: AbortSignal.timeout(5000) })
        .catch((e: Error) => e);
      expect((refused as Error).message).toMatch(/refused the credentials/);
      expect((refused as Error).message).not.toContain('wrong-pw');
    } finally {
      await secured.close();
    }
  }, 60_000);
});
