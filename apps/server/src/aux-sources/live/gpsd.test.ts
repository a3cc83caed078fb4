import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, Peer, recordingDeps, requestAt, waitUntil } from '../../../test/aux-live.js';
import { peer } from '../../../test/peers.js';
import type { AuxSource, ReadingResult } from '../source.js';
import { liveSources } from './index.js';

const gpsfake = peer('gpsfake');
/** Dive S0492's ship positions (cruise FKt230303) as NMEA, one fix a second (docs/aux-live-sources.md#test-fixtures). */
const fixture = fileURLToPath(new URL('../../../test/fixtures/aux-live/fkt230303-s0492.nmea', import.meta.url));
const keys = ['TPV.lat', 'TPV.lon', 'TPV.track', 'TPV.speed', 'TPV.altMSL', 'TPV.time', 'TPV.mode'];

/** gpsfake replays the fixture in a loop into a gpsd of its own on `port`, 50 ms between sentences. */
const startGpsfake = (port: number) => new Peer(gpsfake!, ['-q', '-n', '-P', String(port), '-c', '0.05', fixture]);

describe.skipIf(!gpsfake)('gpsd source (gpsfake replaying FKt230303 navigation)', () => {
  let port: number;
  let fake: Peer;
  const { deps, lines } = recordingDeps();
  let source: AuxSource;
  let started = 0;

  beforeAll(async () => {
    port = await freePort();
    fake = startGpsfake(port);
    const config = { host: '127.0.0.1', port, reconnect_seconds: 0.2, silence_seconds: 3, buffer_seconds: 30 };
    source = liveSources.gpsd!.create(config, deps);
    started = Date.now();
    await source.start();
  });
  afterAll(async () => {
    await source?.stop();
    await fake.stop();
  });

  it('gives an event the fix the fixture holds at its time (TPV from ?WATCH JSON)', async () => {
    const fix = await waitUntil(
      'the 07:15:09 fix from gpsd',
      async () => {
        const r = await source.readingAt(requestAt(Date.now(), keys));
        return r.kind === 'reading' && r.reading.values['TPV.lat'] === 23.522636 ? r : null;
      },
      30_000,
    );
    expect(fix.reading.values).toEqual({
      'TPV.lat': 23.522636,
      'TPV.lon': -45.012302,
      'TPV.track': 10.59,
      'TPV.speed': 0.154, // 0.3 kn in m/s, as gpsd reports it
      'TPV.altMSL': -1.2,
      'TPV.time': '2023-03-14T07:15:09.000Z',
      'TPV.mode': 3,
    });
    expect(source.health()).toMatchObject({ connected: true });
    // Seconds later, with newer fixes in the buffer, the same event time still gets its own fix.
    await waitUntil('newer fixes', async () => (source.health().lastReadingTs ?? 0) > fix.reading.ts + 500);
    const late = await source.readingAt(requestAt(fix.reading.ts, ['TPV.lat', 'TPV.lon']));
    expect(late).toEqual({
      kind: 'reading',
      reading: { ts: fix.reading.ts, values: { 'TPV.lat': 23.522636, 'TPV.lon': -45.012302 } },
      provenance: 'buffered',
    });
  });

  it('answers nothing for an event outside its window', async () => {
    expect(await source.readingAt(requestAt(started - 5_000, keys))).toEqual({ kind: 'not_backfillable' });
    expect(await source.readingAt(requestAt(Date.now() - 31_000, keys))).toEqual({ kind: 'not_backfillable' });
    expect(await source.readingAt(requestAt(Date.now(), ['ATT.pitch']))).toEqual({ kind: 'no_data' });
  });

  it('turns stale and disconnected when gpsd goes away, and reconnects by itself when it returns', async () => {
    await fake.stop();
    await waitUntil('health to say not connected', async () => !source.health().connected);
    expect(source.health().lastError).toMatch(/gpsd 127\.0\.0\.1:\d+/);
    await new Promise((r) => setTimeout(r, 1200));
    const stale: ReadingResult = await source.readingAt(requestAt(Date.now(), keys, { maxAgeMs: 1000 }));
    expect(stale.kind).toBe('stale');
    // A manager's health probe (no event) fails with the reason while gpsd is away.
    await expect(source.readingAt(requestAt(Date.now(), keys, { eventId: '' }))).rejects.toThrow(
      /^gpsd 127\.0\.0\.1:\d+/,
    );

    fake = startGpsfake(port);
    const back = Date.now();
    await waitUntil(
      'fixes after gpsd returned',
      async () => source.health().connected && (source.health().lastReadingTs ?? 0) > back,
      30_000,
    );
    const fresh = await source.readingAt(requestAt(Date.now(), ['TPV.lat'], { maxAgeMs: 2000 }));
    expect(fresh.kind).toBe('reading');
    expect((await source.readingAt(requestAt(Date.now(), ['TPV.lat'], { eventId: '' }))).kind).toBe('reading');
    expect(lines.join('\n')).not.toMatch(/password/i);
  });
});
