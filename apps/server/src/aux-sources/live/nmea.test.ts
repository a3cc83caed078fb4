import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, Peer, recordingDeps, requestAt, waitUntil } from '../../../test/aux-live.js';
import { peer } from '../../../test/peers.js';
import type { AuxSource } from '../source.js';
import { liveSources } from './index.js';
import { nmeaConfigSchema } from './nmea.js';

const gpsfake = peer('gpsfake');
/** Dive S0492's ship positions (cruise FKt230303) as NMEA, one fix a second (docs/aux-live-sources.md#test-fixtures). */
const fixturePath = fileURLToPath(new URL('../../../test/fixtures/aux-live/fkt230303-s0492.nmea', import.meta.url));
const fixture = readFileSync(fixturePath, 'latin1').split('\r\n').filter(Boolean);

describe('NMEA 0183 source over UDP (a talker sending the fixture)', () => {
  let port: number;
  let source: AuxSource & { rejected?: number };
  const sender = createSocket('udp4');
  const send = (lines: string[]) =>
    new Promise<void>((resolve, reject) =>
      sender.send(`${lines.join('\r\n')}\r\n`, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())),
    );
  let started = 0;

  beforeAll(async () => {
    port = await freePort();
    started = Date.now();
    source = liveSources.nmea!.create(
      { transport: 'udp', host: '127.0.0.1', port, silence_seconds: 2 },
      recordingDeps().deps,
    );
    await source.start();
    await waitUntil('the UDP port bound', async () => source.health().connected);
  });
  afterAll(async () => {
    sender.close();
    await source.stop();
  });

  it('reads GGA, RMC, VTG, HDT and ZDA into the values the fixture holds', async () => {
    // The last fix of the fixture (07:15:10), one datagram a sentence as a talker sends them.
    for (const line of fixture.slice(-5)) await send([line]);
    const keys = [
      'GGA.latitude',
      'GGA.longitude',
      'GGA.altitudeMeters',
      'GGA.satellitesInView',
      'GGA.fixType',
      'RMC.speedKnots',
      'RMC.trackTrue',
      'RMC.datetime',
      'VTG.speedKmph',
      'HDT.heading',
      'ZDA.datetime',
    ];
    const r = await waitUntil('all five sentences', async () => {
      const got = await source.readingAt(requestAt(Date.now(), keys));
      return got.kind === 'reading' && Object.keys(got.reading.values).length === keys.length ? got : null;
    });
    expect(r.reading.values).toEqual({
      'GGA.latitude': 23.522532,
      'GGA.longitude': -45.010954,
      'GGA.altitudeMeters': -1.2,
      'GGA.satellitesInView': 9,
      'GGA.fixType': 'fix',
      'RMC.speedKnots': 0.3,
      'RMC.trackTrue': 10.77,
      'RMC.datetime': '2023-03-14T07:15:10.000Z',
      'VTG.speedKmph': 0.6,
      'HDT.heading': 10.77,
      'ZDA.datetime': '2023-03-14T07:15:10.000Z',
    });
    expect(r.provenance).toBe('realtime');
  });

  it('drops a sentence whose checksum is wrong or missing, and says so in health', async () => {
    const before = source.rejected ?? 0;
    await send(['$HEHDT,99.99,T*2B', '$HEHDT,98.00,T']);
    await waitUntil('both rejected', async () => (source.rejected ?? 0) >= before + 2);
    const r = await source.readingAt(requestAt(Date.now(), ['HDT.heading']));
    expect(r).toMatchObject({ kind: 'reading', reading: { values: { 'HDT.heading': 10.77 } } });
    expect(source.health().lastError).toMatch(/HDT sentence without a checksum/);
  });

  it('gives an event outside the window no value: before the source ran, or newest fix too old', async () => {
    expect(await source.readingAt(requestAt(started - 1000, ['GGA.latitude']))).toEqual({ kind: 'not_backfillable' });
    await new Promise((r) => setTimeout(r, 600));
    expect(await source.readingAt(requestAt(Date.now(), ['GGA.latitude'], { maxAgeMs: 500 }))).toMatchObject({
      kind: 'stale',
    });
  });

  it('reads only the sentences configured', async () => {
    const ggaPort = await freePort();
    const gga = liveSources.nmea!.create(
      { transport: 'udp', host: '127.0.0.1', port: ggaPort, sentences: ['GGA'] },
      recordingDeps().deps,
    );
    await gga.start();
    try {
      await waitUntil('bound', async () => gga.health().connected);
      const keys = ['GGA.latitude', 'HDT.heading'];
      const r = await waitUntil('the GGA', async () => {
        sender.send(`${fixture.slice(-5).join('\r\n')}\r\n`, ggaPort, '127.0.0.1');
        const got = await gga.readingAt(requestAt(Date.now(), keys));
        return got.kind === 'reading' ? got : null;
      });
      expect(r.reading.values).toEqual({ 'GGA.latitude': 23.522532 });
    } finally {
      await gga.stop();
    }
  });

  it('refuses a configuration with a message naming the key', () => {
    const r = nmeaConfigSchema.safeParse({ transport: 'serial', port: 70000 });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining(["transport: transport must be 'udp' or 'tcp'", 'port: port must be between 1 and 65535']),
    );
  });
});

// gpsd relays the receiver's own sentences (GGA, RMC, VTG, ZDA), not the gyro's HDT.
describe.skipIf(!gpsfake)('NMEA 0183 source over TCP (gpsd relaying raw NMEA from gpsfake)', () => {
  let port: number;
  let fake: Peer;
  let source: AuxSource;
  const start = () => new Peer(gpsfake!, ['-q', '-n', '-P', String(port), '-c', '0.05', fixturePath]);

  beforeAll(async () => {
    port = await freePort();
    fake = start();
    source = liveSources.nmea!.create(
      {
        transport: 'tcp',
        host: '127.0.0.1',
        port,
        hello: '?WATCH={"enable":true,"nmea":true}',
        reconnect_seconds: 0.2,
      },
      recordingDeps().deps,
    );
    await source.start();
  });
  afterAll(async () => {
    await source?.stop();
    await fake.stop();
  });

  it('reads the fix and course the fixture holds', async () => {
    const r = await waitUntil(
      'the 07:15:09 fix and its course',
      async () => {
        const got = await source.readingAt(requestAt(Date.now(), ['GGA.latitude', 'GGA.longitude', 'RMC.trackTrue']));
        return got.kind === 'reading' &&
          got.reading.values['GGA.latitude'] === 23.522636 &&
          got.reading.values['RMC.trackTrue'] === 10.59
          ? got
          : null;
      },
      30_000,
    );
    expect(r.reading.values).toEqual({
      'GGA.latitude': 23.522636,
      'GGA.longitude': -45.012302,
      'RMC.trackTrue': 10.59,
    });
  });

  it('reconnects by itself when the talker returns', async () => {
    await fake.stop();
    await waitUntil('health to say not connected', async () => !source.health().connected);
    expect(source.health().lastError).toMatch(/NMEA talker 127\.0\.0\.1:\d+/);
    fake = start();
    const back = Date.now();
    await waitUntil(
      'sentences after the talker returned',
      async () => source.health().connected && (source.health().lastReadingTs ?? 0) > back,
      30_000,
    );
  });
});
