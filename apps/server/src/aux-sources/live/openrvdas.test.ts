import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, recordingDeps, requestAt, waitUntil } from '../../../test/aux-live.js';
import type { AuxSource } from '../source.js';
import { liveSources } from './index.js';

/**
 * OpenRVDAS's UDPWriter sends each DASRecord as one JSON datagram; this sender does the same with
 * records shaped as its loggers write them (the ship's gyro and GNSS of dive S0492).
 */
describe('OpenRVDAS source (records over UDP)', () => {
  let port: number;
  let source: AuxSource & { rejected?: number };
  const sender = createSocket('udp4');
  const send = (payload: unknown) =>
    new Promise<void>((resolve, reject) =>
      sender.send(typeof payload === 'string' ? payload : JSON.stringify(payload), port, '127.0.0.1', (e) =>
        e ? reject(e) : resolve(),
      ),
    );
  let started = 0;

  beforeAll(async () => {
    port = await freePort();
    started = Date.now();
    source = liveSources.openrvdas!.create(
      { host: '127.0.0.1', port, data_ids: ['gyr1', 'seap'], silence_seconds: 2 },
      recordingDeps().deps,
    );
    await source.start();
    await waitUntil('the UDP port bound', async () => source.health().connected);
  });
  afterAll(async () => {
    sender.close();
    await source.stop();
  });

  it('keys each record’s fields by data_id, one record or a list of them per datagram', async () => {
    await send({
      data_id: 'gyr1',
      message_type: '',
      timestamp: Date.now() / 1000,
      fields: { Gyr1HeadingTrue: 10.59 },
      metadata: {},
    });
    await send([
      {
        data_id: 'seap',
        timestamp: Date.now() / 1000,
        fields: {
          SeapLatitude: 23.522636,
          SeapLongitude: -45.012302,
          SeapGPSTime: '071509.00',
          SeapHeave: { m: 0.12 },
        },
      },
      { data_id: 'knud', timestamp: Date.now() / 1000, fields: { KnudDepth: 5123.4 } }, // not configured
    ]);
    const keys = [
      'gyr1.Gyr1HeadingTrue',
      'seap.SeapLatitude',
      'seap.SeapLongitude',
      'seap.SeapGPSTime',
      'seap.SeapHeave.m',
      'knud.KnudDepth',
    ];
    const r = await waitUntil('both records', async () => {
      const got = await source.readingAt(requestAt(Date.now(), keys));
      return got.kind === 'reading' && Object.keys(got.reading.values).length >= 5 ? got : null;
    });
    expect(r.reading.values).toEqual({
      'gyr1.Gyr1HeadingTrue': 10.59,
      'seap.SeapLatitude': 23.522636,
      'seap.SeapLongitude': -45.012302,
      'seap.SeapGPSTime': '071509.00',
      'seap.SeapHeave.m': 0.12,
    });
  });

  it('drops what is not a record and says so', async () => {
    const before = source.rejected ?? 0;
    await send('not json');
    await send({ timestamp: 1, fields: { x: 1 } });
    await waitUntil('both rejected', async () => (source.rejected ?? 0) >= before + 2);
    expect(source.health().lastError).toBe('OpenRVDAS record without data_id or fields dropped');
  });

  it('gives an event outside the window no value', async () => {
    expect(await source.readingAt(requestAt(started - 1, ['gyr1.Gyr1HeadingTrue']))).toEqual({
      kind: 'not_backfillable',
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(await source.readingAt(requestAt(Date.now(), ['gyr1.Gyr1HeadingTrue'], { maxAgeMs: 300 }))).toMatchObject({
      kind: 'stale',
    });
  });

  it('reports a silent sender as not connected, and connected again when records resume', async () => {
    await waitUntil('silence noticed', async () => !source.health().connected, 5000);
    expect(source.health().lastError).toMatch(/no readings for \d+ s/);
    await send({ data_id: 'gyr1', timestamp: Date.now() / 1000, fields: { Gyr1HeadingTrue: 10.77 } });
    await waitUntil('records again', async () => source.health().connected);
    expect(await source.readingAt(requestAt(Date.now(), ['gyr1.Gyr1HeadingTrue']))).toMatchObject({
      reading: { values: { 'gyr1.Gyr1HeadingTrue': 10.77 } },
    });
  });
});

describe('OpenRVDAS source stamping readings with the record’s own time (timestamps: source)', () => {
  it('files a record at its timestamp, and never answers for a time before the source ran', async () => {
    const port = await freePort();
    const source = liveSources.openrvdas!.create(
      { host: '127.0.0.1', port, timestamps: 'source' },
      recordingDeps().deps,
    );
    const sender = createSocket('udp4');
    await source.start();
    try {
      await waitUntil('the UDP port bound', async () => source.health().connected);
      const ts = Date.now() + 3000; // a logger clock a little ahead: filed at its own time
      const send = (record: object) =>
        new Promise<void>((resolve) => sender.send(JSON.stringify(record), port, '127.0.0.1', () => resolve()));
      await send({ data_id: 'gyr1', timestamp: ts / 1000, fields: { Gyr1HeadingTrue: 10.28 } });
      await send({
        data_id: 'gyr1',
        timestamp: Date.parse('2023-03-14T07:15:06Z') / 1000,
        fields: { Gyr1HeadingTrue: 1 },
      });
      await waitUntil('the record', async () => source.health().lastReadingTs !== undefined);
      await new Promise((r) => setTimeout(r, 100));
      // Before it, the newest value is the 2023 record's: far too old.
      expect(await source.readingAt(requestAt(ts - 1, ['gyr1.Gyr1HeadingTrue']))).toMatchObject({ kind: 'stale' });
      expect(await source.readingAt(requestAt(ts, ['gyr1.Gyr1HeadingTrue']))).toEqual({
        kind: 'reading',
        reading: { ts, values: { 'gyr1.Gyr1HeadingTrue': 10.28 } },
        provenance: 'realtime',
      });
      expect(await source.readingAt(requestAt(Date.parse('2023-03-14T07:15:06Z'), ['gyr1.Gyr1HeadingTrue']))).toEqual({
        kind: 'not_backfillable',
      });
    } finally {
      sender.close();
      await source.stop();
    }
  });
});

describe('OpenRVDAS source on a multicast group, and on a port another program holds', () => {
  it('joins the configured multicast group and reads what is sent to it', async () => {
    const port = await freePort();
    const source = liveSources.openrvdas!.create(
      { port, multicast_group: '239.192.0.7', multicast_interface: '127.0.0.1' },
      recordingDeps().deps,
    );
    const sender = createSocket('udp4');
    await source.start();
    try {
      await waitUntil('the group joined', async () => source.health().connected);
      await new Promise<void>((resolve) => sender.bind(0, '127.0.0.1', () => resolve()));
      sender.setMulticastInterface('127.0.0.1');
      const record = JSON.stringify({
        data_id: 'gyr1',
        timestamp: Date.now() / 1000,
        fields: { Gyr1HeadingTrue: 11.11 },
      });
      const got = await waitUntil('the multicast record', async () => {
        sender.send(record, port, '239.192.0.7');
        const r = await source.readingAt(requestAt(Date.now(), ['gyr1.Gyr1HeadingTrue']));
        return r.kind === 'reading' ? r : null;
      });
      expect(got.reading.values).toEqual({ 'gyr1.Gyr1HeadingTrue': 11.11 });
    } finally {
      sender.close();
      await source.stop();
    }
  });

  it('says why it cannot listen while the port is taken, and listens once it is free', async () => {
    const holder = createSocket('udp4'); // no reuseAddr: the port is this program's alone
    await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', () => resolve()));
    const port = holder.address().port;
    const source = liveSources.openrvdas!.create(
      { host: '127.0.0.1', port, reconnect_seconds: 0.1 },
      recordingDeps().deps,
    );
    await source.start();
    try {
      await waitUntil('the bind error', async () => /EADDRINUSE/.test(source.health().lastError ?? ''));
      expect(source.health().connected).toBe(false);
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      await waitUntil('listening after the port came free', async () => source.health().connected, 10_000);
    } finally {
      await source.stop();
    }
  });
});
