import { createSocket } from 'node:dgram';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jpeg from 'jpeg-js';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuxManager, EventAuxData } from '@bathylog/shared';
import { freePort, Peer, testPatternEncoder, waitUntil } from './aux-live.js';
import { CachedDataServer } from './openrvdas-data-server.js';
import { peer } from './peers.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/**
 * The live sources through a built-in aux-data manager (docs/aux-live-sources.md): for each kind, a
 * manager made over the API with Sealog lookup rules, its real peer started here, an event logged now
 * gets exactly the record the fixture and the rules make (values, units, rounding, `modify`), an
 * event from an hour ago gets none (a live source is never current for it), and the manager's
 * counters move.
 */
const gpsfake = peer('gpsfake');
const mosquitto = peer('mosquitto');
const ffmpeg = peer('ffmpeg');
const fixturePath = fileURLToPath(new URL('fixtures/aux-live/fkt230303-s0492.nmea', import.meta.url));
const fixture = readFileSync(fixturePath, 'latin1').split('\r\n').filter(Boolean);
/** The fixture's 07:15:09 fix alone: replayed in a loop, every reading is the same. */
const oneFix = fixture.filter((line) => line.includes('071509.00') || line.startsWith('$HEHDT,10.59'));

describe.each(engines)('live sources through aux-data managers on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  const peers: Peer[] = [];
  const udp = createSocket('udp4');
  let camera: Server;
  let publisher: MqttClient | undefined;

  const iso = (ms: number) => new Date(ms).toISOString();
  const logEvent = async (ts: number, value = 'FISH') => {
    const res = await t.api('POST', '/events', {
      token: admin,
      body: { event_value: value, ts: iso(ts), publish: true },
    });
    expect(res.statusCode).toBe(201);
    return (res.json() as { insertedId: string }).insertedId;
  };
  const aux = async (eventId: string, source: string) => {
    const res = await t.api('GET', `/event_aux_data?eventID=${eventId}&datasource=${source}`, { token: admin });
    return res.statusCode === 404 ? [] : (res.json() as EventAuxData[]);
  };
  const manager = async (id: string) =>
    (await t.api('GET', `/aux_managers/${id}`, { token: admin })).json() as AuxManager;
  const createManager = async (name: string, kind: string, yaml: string, extra: object = {}) => {
    const res = await t.api('POST', '/aux_managers', {
      token: admin,
      body: { name, kind, max_age_seconds: 20, timeout_seconds: 5, config_yaml: yaml, ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    const m = res.json() as AuxManager;
    await waitUntil(`${name} running`, async () => (await manager(m.id)).health.updated);
    return m;
  };

  /**
   * Logs an event an hour old, then one now; answers the record of the current one once written,
   * having checked the old one got none (the manager takes events in order) and the counter moved.
   */
  async function stamp(m: AuxManager, dataSource: string, ready: () => Promise<unknown>) {
    await waitUntil(`${m.name} hears its peer`, ready, 30_000);
    const before = (await manager(m.id)).health.counters.written;
    const old = await logEvent(Date.now() - 3_600_000);
    const id = await logEvent(Date.now());
    const [record] = await waitUntil(`${m.name}'s record`, async () => {
      const got = await aux(id, dataSource);
      return got.length ? got : null;
    });
    expect(await aux(old, dataSource)).toEqual([]);
    await waitUntil(`${m.name}'s written counter`, async () => (await manager(m.id)).health.counters.written > before);
    // Provenance: this manager and kind, read live (or from the buffer when newer readings came first);
    // the other managers of this suite stamp the event too.
    const prov = (
      (await t.api('GET', `/aux_managers/provenance?event_id=${id}`, { token: admin })).json() as Array<{
        manager: string;
        source_kind: string;
        provenance: string;
      }>
    ).filter((p) => p.manager === m.name);
    expect(prov).toEqual([expect.objectContaining({ manager: m.name, source_kind: m.kind })]);
    expect(['realtime', 'buffered']).toContain(prov[0]!.provenance);
    return record!;
  }

  beforeAll(async () => {
    t = await createTestApp(engine, { auxManagers: { probeSeconds: 0.5, errorAfterSeconds: 2, concurrency: 4 } });
    admin = await t.login('admin', 'demo');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await publisher?.endAsync(true);
    for (const p of peers) await p.stop();
    udp.close();
    camera?.closeAllConnections();
    camera?.close();
  });

  it.skipIf(!gpsfake)('gpsd: the fix gpsfake replays, rounded and converted by the rules', async () => {
    const port = await freePort();
    const file = path.join(t.dataDir, 'one-fix.nmea');
    writeFileSync(file, `${oneFix.join('\r\n')}\r\n`);
    peers.push(new Peer(gpsfake!, ['-q', '-n', '-P', String(port), '-c', '0.05', file]));
    const m = await createManager(
      'gpsd-nav',
      'gpsd',
      `
data_source: vesselRealtimeNavData
aux_record_lookup:
  TPV.lat: { name: latitude, uom: ddeg, round: 4, interpolate: true }
  TPV.lon: { name: longitude, uom: ddeg, round: 4, interpolate: true }
  TPV.speed: { name: speed, uom: kts, round: 2, modify: [{ operation: [{ multiply: 1.943844 }] }] }
  TPV.mode: { no_output: true }
source: { host: 127.0.0.1, port: ${port}, reconnect_seconds: 0.2 }
`,
    );
    const record = await stamp(m, 'vesselRealtimeNavData', async () => (await manager(m.id)).health.state === 'ok');
    expect(record.data_array).toEqual([
      { data_name: 'latitude', data_value: '23.5226', data_uom: 'ddeg' },
      { data_name: 'longitude', data_value: '-45.0123', data_uom: 'ddeg' },
      { data_name: 'speed', data_value: '0.3', data_uom: 'kts' }, // 0.154 m/s
    ]);

    // gpsd goes away: the manager turns stale, then error, saying why; ok again when it returns.
    const fake = peers.pop()!;
    await fake.stop();
    const stale = await waitUntil('stale', async () => {
      const got = await manager(m.id);
      return got.health.state === 'stale' && got;
    });
    expect(stale.health.last_error).toMatch(/^gpsd 127\.0\.0\.1:\d+/);
    await waitUntil('error', async () => (await manager(m.id)).health.state === 'error', 20_000);
    peers.push(new Peer(gpsfake!, ['-q', '-n', '-P', String(port), '-c', '0.05', file]));
    await waitUntil('ok again', async () => (await manager(m.id)).health.state === 'ok', 30_000);
  });

  it('nmea: the sentences a UDP talker sends, with a modify rule', async () => {
    const port = await freePort();
    const m = await createManager(
      'nmea-gyro',
      'nmea',
      `
data_source: vesselNMEA
aux_record_lookup:
  GGA.latitude: { name: latitude, uom: ddeg, round: 5 }
  GGA.longitude: { name: longitude, uom: ddeg, round: 5 }
  HDT.heading: { name: heading, uom: deg, round: 1, modify: [{ test: [{ field: HDT.heading, gt: 5 }], operation: [{ add: 0.5 }] }] }
  VTG.speedKmph: { name: speed, uom: km/h }
source: { transport: udp, host: 127.0.0.1, port: ${port} }
`,
      { max_age_seconds: 1 },
    );
    const feed = setInterval(() => udp.send(fixture.slice(-5).join('\r\n'), port, '127.0.0.1'), 200);
    try {
      const record = await stamp(m, 'vesselNMEA', async () => (await manager(m.id)).health.state === 'ok');
      expect(record.data_array).toEqual([
        { data_name: 'latitude', data_value: '23.52253', data_uom: 'ddeg' },
        { data_name: 'longitude', data_value: '-45.01095', data_uom: 'ddeg' },
        { data_name: 'heading', data_value: '11.3', data_uom: 'deg' }, // 10.77 + 0.5
        { data_name: 'speed', data_value: '0.6', data_uom: 'km/h' },
      ]);
    } finally {
      clearInterval(feed);
    }
    // The talker is silent now: an event beyond the maximum age (1 s) is skipped as stale.
    await new Promise((r) => setTimeout(r, 1500));
    const before = (await manager(m.id)).health.counters.skipped_stale;
    const late = await logEvent(Date.now());
    await waitUntil('the stale counter', async () => (await manager(m.id)).health.counters.skipped_stale > before);
    expect(await aux(late, 'vesselNMEA')).toEqual([]);
  });

  it('openrvdas: records from a UDP sender keyed by data_id', async () => {
    const port = await freePort();
    const m = await createManager(
      'rvdas-gyro',
      'openrvdas',
      `
data_source: vesselGyro
aux_record_lookup:
  gyr1.Gyr1HeadingTrue: { name: heading, uom: deg, round: 1 }
  seap.SeapDepth: { name: depth, uom: m, round: 0, modify: [{ operation: [{ multiply: -1 }] }] }
source: { host: 127.0.0.1, port: ${port}, data_ids: [gyr1, seap] }
`,
    );
    const send = () =>
      udp.send(
        JSON.stringify([
          { data_id: 'gyr1', timestamp: Date.now() / 1000, fields: { Gyr1HeadingTrue: 10.59 } },
          { data_id: 'seap', timestamp: Date.now() / 1000, fields: { SeapDepth: -12.6 } },
        ]),
        port,
        '127.0.0.1',
      );
    const feed = setInterval(send, 200);
    try {
      const record = await stamp(m, 'vesselGyro', async () => (await manager(m.id)).health.state === 'ok');
      expect(record.data_array).toEqual([
        { data_name: 'heading', data_value: '10.6', data_uom: 'deg' },
        { data_name: 'depth', data_value: '13', data_uom: 'm' },
      ]);
    } finally {
      clearInterval(feed);
    }
  });

  it("openrvdas_ws: a cached data server's updates, each event the values of its own time", async () => {
    const server = await CachedDataServer.start();
    try {
      const m = await createManager(
        'rvdas-cds',
        'openrvdas_ws',
        `
data_source: vesselCachedNav
aux_record_lookup:
  S330HeadingTrue: { name: heading, uom: deg, round: 1 }
  S330Depth: { name: depth, uom: m, round: 0, modify: [{ operation: [{ multiply: -1 }] }] }
source: { url: 'ws://127.0.0.1:${server.port}', fields: [S330HeadingTrue, S330Depth], interval_seconds: 0.1 }
`,
      );
      const feed = setInterval(
        () => server.publish(Date.now() / 1000, { S330HeadingTrue: 10.59, S330Depth: -12.6 }),
        200,
      );
      try {
        const record = await stamp(m, 'vesselCachedNav', async () => (await manager(m.id)).health.state === 'ok');
        expect(record.data_array).toEqual([
          { data_name: 'heading', data_value: '10.6', data_uom: 'deg' },
          { data_name: 'depth', data_value: '13', data_uom: 'm' },
        ]);
        expect(server.requests[0]).toMatchObject({ type: 'subscribe', fields: { S330HeadingTrue: { seconds: 0 } } });
      } finally {
        clearInterval(feed);
      }
      // The time of the last value fed; then a newer value arrives and stamps an event logged now.
      const earlier = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      server.publish(Date.now() / 1000, { S330HeadingTrue: 200.04, S330Depth: -14 });
      // The source answers each update with a ready: two more mean the new value was received.
      const asked = server.requests.length;
      await waitUntil('the update received', async () => server.requests.length >= asked + 2);
      const heading = async (id: string) =>
        waitUntil('the record', async () => {
          const [got] = await aux(id, 'vesselCachedNav');
          return got?.data_array.find((d) => d.data_name === 'heading')?.data_value ?? null;
        });
      expect(await heading(await logEvent(Date.now()))).toBe('200');
      // An event of that earlier time, reaching the manager late, gets the value of its own time.
      const late = await logEvent(earlier, 'LATE');
      expect(await heading(late)).toBe('10.6');
      const prov = (await t.api('GET', `/aux_managers/provenance?event_id=${late}`, { token: admin })).json() as Array<{
        manager: string;
        provenance: string;
      }>;
      expect(prov.find((p) => p.manager === 'rvdas-cds')?.provenance).toBe('buffered');
    } finally {
      await server.close();
    }
  });

  it.skipIf(!mosquitto)('mqtt: JSON messages on a topic of a mosquitto started here', async () => {
    const port = await freePort();
    peers.push(new Peer(mosquitto!, ['-p', String(port)]));
    publisher = await waitUntil('mosquitto up', () =>
      connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 200 }),
    );
    const m = await createManager(
      'mqtt-ctd',
      'mqtt',
      `
data_source: vehicleCTD
aux_record_lookup:
  rov/ctd.temp: { name: temperature, uom: degC, round: 2 }
  rov/ctd.sal: { name: salinity, uom: PSU, round: 3 }
source: { url: 'mqtt://127.0.0.1:${port}', topics: [rov/ctd] }
`,
    );
    const feed = setInterval(
      () => void publisher!.publishAsync('rov/ctd', JSON.stringify({ temp: 4.56789, sal: 34.98765 })),
      200,
    );
    try {
      const record = await stamp(m, 'vehicleCTD', async () => (await manager(m.id)).health.state === 'ok');
      expect(record.data_array).toEqual([
        { data_name: 'temperature', data_value: '4.57', data_uom: 'degC' },
        { data_name: 'salinity', data_value: '34.988', data_uom: 'PSU' },
      ]);
    } finally {
      clearInterval(feed);
    }
  });

  it('http_snapshot: a frame grab of a local HTTP camera, served like every frame grab', async () => {
    const frame = jpeg.encode({ width: 16, height: 8, data: Buffer.alloc(16 * 8 * 4, 200) }, 80).data;
    camera = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(frame);
    });
    await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(camera.address() as AddressInfo).port}/snapshot.jpg`;
    const m = await createManager(
      'framegrabs',
      'http_snapshot',
      `
data_source: framegrabber
aux_record_lookup:
  Main Camera.camera_name: { name: camera_name }
  Main Camera.filename: { name: filename }
source: { camera: Main Camera, url: '${url}', timeout_seconds: 2 }
`,
    );
    const record = await stamp(m, 'framegrabber', async () => (await manager(m.id)).health.state === 'ok');
    expect(record.data_array).toEqual([
      { data_name: 'camera_name', data_value: 'Main Camera', data_uom: '' },
      {
        data_name: 'filename',
        data_value: expect.stringMatching(/^\/images\/Main_Camera_\d{8}_\d{9}\.jpg$/),
        data_uom: '',
      },
    ]);
    const served = await t.app.inject({
      method: 'GET',
      url: `/sealog-server/files${record.data_array[1]!.data_value}`,
    });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(Buffer.from(frame));
  });

  it.skipIf(!ffmpeg)('ffmpeg_still: a still of a testsrc stream', async () => {
    const port = await freePort();
    peers.push(testPatternEncoder(ffmpeg!, port));
    const m = await createManager(
      'down-camera',
      'ffmpeg_still',
      `
data_source: framegrabberDown
aux_record_lookup:
  Down Camera.camera_name: { name: camera_name }
  Down Camera.filename: { name: filename }
source: { camera: Down Camera, url: 'udp://127.0.0.1:${port}', ffmpeg: ${ffmpeg}, timeout_seconds: 10 }
`,
      { timeout_seconds: 15 },
    );
    const record = await stamp(m, 'framegrabberDown', async () => (await manager(m.id)).health.state === 'ok');
    expect(record.data_array[0]).toEqual({ data_name: 'camera_name', data_value: 'Down Camera', data_uom: '' });
    const file = String(record.data_array[1]!.data_value);
    expect(file).toMatch(/^\/images\/Down_Camera_\d{8}_\d{9}\.jpg$/);
    const still = jpeg.decode(readFileSync(path.join(t.ctx.paths.images, path.basename(file))));
    expect([still.width, still.height]).toEqual([320, 240]);
  });
});
