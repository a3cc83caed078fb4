import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingDeps, requestAt, waitUntil } from '../../../test/aux-live.js';
import { CachedDataServer } from '../../../test/openrvdas-data-server.js';
import { ConfigProblem, parseManagerConfig } from '../../modules/aux-managers/aux-config.js';
import type { AuxSource } from '../source.js';
import { liveSources } from './index.js';

const lat = 'S330Latitude';
const hdg = 'S330HeadingTrue';

describe('OpenRVDAS cached data server source (websocket)', () => {
  let server: CachedDataServer;
  let source: AuxSource;
  let started = 0;

  beforeAll(async () => {
    server = await CachedDataServer.start();
    // A value the server held long before the source started.
    server.publish(Date.now() / 1000 - 60, { [lat]: 23.5, [hdg]: 10 });
    started = Date.now();
    source = liveSources.openrvdas_ws!.create(
      {
        url: `ws://127.0.0.1:${server.port}`,
        fields: [lat, hdg],
        interval_seconds: 0.1,
        timestamps: 'source',
        silence_seconds: 2,
        reconnect_seconds: 0.1,
      },
      recordingDeps().deps,
    );
    await source.start();
    await waitUntil('subscribed', async () => source.health().connected);
  });
  afterAll(async () => {
    await source.stop();
    await server.close();
  });

  it('subscribes to the configured fields as OpenRVDAS documents it, then asks for each update', async () => {
    await waitUntil('a ready after the subscription', async () => server.requests.length >= 2);
    expect(server.requests[0]).toEqual({
      type: 'subscribe',
      fields: { [lat]: { seconds: -1 }, [hdg]: { seconds: -1 } },
      interval: 0.1,
    });
    expect(server.requests[1]).toEqual({ type: 'ready' });
  });

  it('fills its buffer from the updates: an event gets the values of its own time', async () => {
    // The buffer answers from the source's start on: the values below land well after it.
    await new Promise((r) => setTimeout(r, 700));
    const base = Date.now();
    server.publish((base - 300) / 1000, { [lat]: 23.51, [hdg]: 11 });
    server.publish((base - 200) / 1000, { [lat]: 23.52, [hdg]: 12 });
    server.publish(base / 1000, { [lat]: 23.54, [hdg]: 14 });
    await waitUntil('the newest update', async () => source.health().lastReadingTs === base);
    expect(await source.readingAt(requestAt(base, [lat, hdg]))).toEqual({
      kind: 'reading',
      reading: { ts: base, values: { [lat]: 23.54, [hdg]: 14 } },
      provenance: 'realtime',
    });
    // An event that reached its manager late gets the value of its own time, not the newest.
    expect(await source.readingAt(requestAt(base - 250, [lat, hdg]))).toEqual({
      kind: 'reading',
      reading: { ts: base - 300, values: { [lat]: 23.51, [hdg]: 11 } },
      provenance: 'buffered',
    });
    const mid = await source.readingAt(requestAt(base - 100, [lat], { interpolate: [lat] }));
    expect(mid).toMatchObject({ kind: 'reading', reading: { ts: base - 100 } });
    expect(mid.kind === 'reading' && (mid.reading.values[lat] as number)).toBeCloseTo(23.53, 6);
  });

  it('answers stale past the maximum age, and never for a time before it started', async () => {
    await new Promise((r) => setTimeout(r, 400));
    expect(await source.readingAt(requestAt(Date.now(), [lat], { maxAgeMs: 300 }))).toMatchObject({ kind: 'stale' });
    expect(await source.readingAt(requestAt(started - 1000, [lat]))).toEqual({ kind: 'not_backfillable' });
  });

  it('reports a silent server, and a lost one, with the reason; and reconnects and subscribes again', async () => {
    await waitUntil('silence noticed', async () => !source.health().connected, 5000);
    expect(source.health().lastError).toMatch(/^connected, but no readings for \d+ s$/);
    await expect(source.readingAt(requestAt(Date.now(), [lat], { eventId: '' }))).rejects.toThrow(/no readings/);
    const port = server.port;
    await server.close();
    await waitUntil('the loss noticed', async () =>
      /closed the connection|ECONNREFUSED/.test(source.health().lastError ?? ''),
    );
    expect(source.health().lastError).toMatch(new RegExp(`^OpenRVDAS data server ws://127\\.0\\.0\\.1:${port}/`));
    server = await CachedDataServer.start(port);
    const now = Date.now();
    server.publish(now / 1000, { [hdg]: 15 });
    await waitUntil('values again', async () => source.health().connected && source.health().lastReadingTs === now);
    expect(server.requests[0]).toMatchObject({ type: 'subscribe' });
    expect(await source.readingAt(requestAt(now, [hdg], { eventId: '' }))).toMatchObject({
      reading: { values: { [hdg]: 15 } },
    });
  });
});

describe('OpenRVDAS cached data server source stamping values when they arrive (timestamps: received)', () => {
  it('keeps the spacing of the values of one update, the newest at its arrival', async () => {
    const server = await CachedDataServer.start(0, 50);
    const source = liveSources.openrvdas_ws!.create(
      { url: `ws://127.0.0.1:${server.port}`, fields: [hdg] },
      recordingDeps().deps,
    );
    await source.start();
    try {
      await waitUntil('subscribed', async () => source.health().connected);
      expect(server.requests[0]).toEqual({ type: 'subscribe', fields: { [hdg]: { seconds: 0 } } });
      // The buffer answers from the source's start on: the values below land well after it.
      await new Promise((r) => setTimeout(r, 700));
      // Two values of a logger clock 1 h behind, in one update.
      const logger = Date.now() / 1000 - 3600;
      server.cache.set(hdg, [
        [logger + 3601, 20],
        [logger + 3601.5, 21],
      ]);
      await waitUntil('the update', async () => source.health().lastReadingTs !== undefined);
      const arrived = source.health().lastReadingTs!;
      expect(await source.readingAt(requestAt(arrived, [hdg]))).toMatchObject({ reading: { ts: arrived } });
      expect(await source.readingAt(requestAt(arrived - 100, [hdg]))).toEqual({
        kind: 'reading',
        reading: { ts: arrived - 500, values: { [hdg]: 20 } },
        provenance: 'buffered',
      });
    } finally {
      await source.stop();
      await server.close();
    }
  });

  it('says why while nothing listens at the URL', async () => {
    const server = await CachedDataServer.start();
    const port = server.port;
    await server.close();
    const source = liveSources.openrvdas_ws!.create(
      { url: `ws://reader:pw-secret-1@127.0.0.1:${port}`, fields: [hdg] },
      recordingDeps().deps,
    );
    await source.start();
    try {
      await waitUntil('the failure', async () => source.health().lastError !== undefined);
      expect(source.health()).toMatchObject({ connected: false });
      expect(source.health().lastError).toMatch(/^OpenRVDAS data server ws:\/\/127\.0\.0\.1:\d+\/: .*ECONNREFUSED/);
      expect(source.health().lastError).not.toContain('pw-secret-1');
    } finally {
      await source.stop();
    }
  });
});

describe('OpenRVDAS cached data server configuration', () => {
  const yaml = (source: string) =>
    `data_source: vesselRealtimeNavData\naux_record_lookup:\n  ${lat}: {name: latitude, uom: ddeg}\nsource: ${source}\n`;
  const problem = (source: string) => {
    try {
      parseManagerConfig('openrvdas_ws', yaml(source));
    } catch (err) {
      return err instanceof ConfigProblem ? err.message : String(err);
    }
    return null;
  };

  it('is read by the same rules as the other kinds, and a bad one is named by its key', () => {
    expect(problem(`{url: 'ws://10.0.0.5:8766', fields: [${lat}]}`)).toBeNull();
    expect(problem(`{url: 'http://10.0.0.5:8766', fields: [${lat}]}`)).toBe(
      'source.url: url must be a ws:// or wss:// URL',
    );
    expect(problem(`{url: 'ws://10.0.0.5:8766', fields: []}`)).toBe(
      'source.fields: fields must name at least one field',
    );
    expect(problem(`{url: 'ws://10.0.0.5:8766'}`)).toMatch(/^source\.fields: /);
    expect(problem(`{url: 'ws://10.0.0.5:8766', fields: [${lat}], interval_seconds: 0}`)).toBe(
      'source.interval_seconds: interval_seconds must be more than 0',
    );
    expect(problem(`{url: 'ws://10.0.0.5:8766', fields: [${lat}], port: 8766}`)).toMatch(/^source: /);
  });
});
