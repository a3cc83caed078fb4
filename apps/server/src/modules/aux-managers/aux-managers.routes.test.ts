import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuxBackfillResult, AuxManager, EventAuxData } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createUser } from '../../../test/api-fixtures.js';
import { insertEvents, insertLowering } from '../../../test/table-fixtures.js';
import { peer } from '../../../test/peers.js';
import { Influxd } from '../../../test/influxd.js';
import { waitUntil } from '../../../test/ship-and-shore.js';

/**
 * Built-in aux-data managers against a real InfluxDB 1.6 (Debian's influxd, started here in a temporary
 * folder): an event gets exactly the record the fixture says (values, units, rounding, modify rules); events
 * outside the window get none and the counters say why; an edited event time is rebuilt; a lowering logged
 * while the managers were off is backfilled (dry run, run, run again: no change); a vessel's own script keeps
 * its record; health goes stale then error when influxd stops and ok when it returns, with no password in it;
 * a burst with a hanging source still stamps every event from the healthy managers.
 */
const influxBin = peer('influxd');
const creds = { user: 'bathylog', password: 'sup3r-s3cret-pw' };
const T0 = Date.parse('2023-03-14T23:00:00.000Z');
const T1 = T0 + 100_000;
const iso = (ms: number) => new Date(ms).toISOString();

function navYaml(url: string, dataSource = 'vehicleRealtimeNavData', measurement = 'seapath1'): string {
  return `
data_source: ${dataSource}
query_measurements:
  - ${measurement}
aux_record_lookup:
  S1HeadingTrue:
    name: heading
    uom: deg
    round: 2
  S1Latitude:
    name: latitude
    uom: ddeg
    round: 6
    modify:
      - test:
          - field: S1NorS
            eq: S
        operation:
          - multiply: -1
  S1Longitude:
    name: longitude
    uom: ddeg
    round: 6
    modify:
      - test:
          - field: S1EorW
            eq: W
        operation:
          - multiply: -1
  S1Depth:
    name: depth
    uom: m
    modify:
      - operation:
          - add: 0.5
          - multiply: 2
  S1NorS:
    no_output: true
  S1EorW:
    no_output: true
source:
  url: ${url.replace('http://', `http://${creds.user}:${creds.password}@`)}
  database: openrvdas
`;
}

describe.skipIf(!influxBin).each(engines)('aux-data managers with InfluxDB on %s', (engine) => {
  let influx: Influxd;
  let t: TestApp;
  let admin: string;
  let watcher: { id: string; token: string };
  let nav: AuxManager;
  const silent: net.Server[] = [];

  const aux = async (eventId: string, source = 'vehicleRealtimeNavData') => {
    const res = await t.api('GET', `/event_aux_data?eventID=${eventId}&datasource=${source}`, { token: admin });
    // Sealog answers 404 for an empty list.
    return res.statusCode === 404 ? [] : (res.json() as EventAuxData[]);
  };
  const manager = async (id: string) =>
    (await t.api('GET', `/aux_managers/${id}`, { token: admin })).json() as AuxManager;
  const logEvent = async (ts: number, value = 'FISH') => {
    const res = await t.api('POST', '/events', {
      token: admin,
      body: { event_value: value, ts: iso(ts), publish: true },
    });
    expect(res.statusCode).toBe(201);
    return (res.json() as { insertedId: string }).insertedId;
  };

  beforeAll(async () => {
    influx = await Influxd.create(influxBin!, { auth: creds });
    await influx.query('CREATE DATABASE openrvdas', creds);
    await influx.write(
      'openrvdas',
      [
        `seapath1 S1Latitude=12.3456789,S1NorS="S",S1Longitude=45.1234567,S1EorW="W",S1HeadingTrue=181.23456,S1Depth=10 ${T0}`,
        `seapath1 S1Latitude=13.5,S1NorS="N",S1Longitude=46,S1EorW="E",S1HeadingTrue=90,S1Depth=20 ${T1}`,
        `ctd temp=4.56789,cond=3.3 ${T0 - 5000}`,
        `gyro heading=12.3456 ${T0 - 1000}`,
        `paro depth=1234.56 ${T0 - 2000}`,
      ],
      creds,
    );
    t = await createTestApp(engine, { auxManagers: { probeSeconds: 0.2, errorAfterSeconds: 2, concurrency: 4 } });
    admin = await t.login('admin', 'demo');
    watcher = await createUser(t, admin, 'auxwatcher', ['event_watcher']);
    const res = await t.api('POST', '/aux_managers', {
      token: admin,
      body: {
        name: 'vessel-nav',
        kind: 'influx',
        required: true,
        max_age_seconds: 20,
        config_yaml: navYaml(influx.url),
      },
    });
    expect(res.statusCode).toBe(201);
    nav = res.json() as AuxManager;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await influx?.close();
    for (const s of silent) s.close();
  });

  it('stamps a new event with exactly what the lookup rules make of the reading', async () => {
    const id = await logEvent(T0 + 2000);
    const [record] = await waitUntil('the nav record', async () => ((await aux(id)).length ? aux(id) : undefined));
    expect(record!.data_source).toBe('vehicleRealtimeNavData');
    expect(record!.data_array).toEqual([
      { data_name: 'heading', data_value: '181.23', data_uom: 'deg' },
      { data_name: 'latitude', data_value: '-12.345679', data_uom: 'ddeg' },
      { data_name: 'longitude', data_value: '-45.123457', data_uom: 'ddeg' },
      { data_name: 'depth', data_value: '21', data_uom: 'm' },
    ]);
    const prov = (await t.api('GET', `/aux_managers/provenance?event_id=${id}`, { token: watcher.token })).json();
    expect(prov).toEqual([
      expect.objectContaining({ manager: 'vessel-nav', source_kind: 'influx', provenance: 'realtime', current: true }),
    ]);
    const m = await waitUntil('the written counter', async () => {
      const got = await manager(nav.id);
      return got.health.counters.written >= 1 && got;
    });
    expect(m.health.last_value_ts).not.toBeNull();
  });

  it('gives an event outside the window nothing, and counts why', async () => {
    const before = (await manager(nav.id)).health.counters;
    const stale = await logEvent(T1 + 60_000); // newest point 60 s before: older than max age
    const none = await logEvent(T0 - 3600_000); // nothing at all before it
    const after = await waitUntil('the counters', async () => {
      const c = (await manager(nav.id)).health.counters;
      return c.skipped_stale > before.skipped_stale && c.no_data > before.no_data && c;
    });
    expect(after.skipped_stale).toBe(before.skipped_stale + 1);
    expect(after.no_data).toBe(before.no_data + 1);
    expect(await aux(stale)).toEqual([]);
    expect(await aux(none)).toEqual([]);
  });

  it("rebuilds an event's record for its new time, and removes it when the new time has no data", async () => {
    const id = await logEvent(T0 + 1000);
    await waitUntil('the first record', async () => (await aux(id)).length === 1);
    expect((await t.api('PATCH', `/events/${id}`, { token: admin, body: { ts: iso(T1 + 1000) } })).statusCode).toBe(
      204,
    );
    const rebuilt = await waitUntil('the rebuilt record', async () => {
      const [r] = await aux(id);
      return r?.data_array.find((d) => d.data_name === 'latitude')?.data_value === '13.5' && r;
    });
    expect(rebuilt.data_array.map((d) => d.data_value)).toEqual(['90', '13.5', '46', '41']);
    expect((await t.api('PATCH', `/events/${id}`, { token: admin, body: { ts: iso(T0 - 7200_000) } })).statusCode).toBe(
      204,
    );
    await waitUntil('the record to go', async () => (await aux(id)).length === 0);
  });

  it("leaves a vessel script's record alone: one record per event and source", async () => {
    const events = await insertEvents(t.ctx.database.db, [{ ts: iso(T0 + 3000), event_value: 'BOT' }]);
    const id = events[0]!;
    const botData = [{ data_name: 'latitude', data_value: '1.0', data_uom: 'ddeg' }];
    const posted = await t.api('POST', '/event_aux_data', {
      token: admin,
      body: { event_id: id, data_source: 'vehicleRealtimeNavData', data_array: botData },
    });
    expect(posted.statusCode).toBe(201);
    const res = await t.api('POST', '/aux_managers/backfill', {
      token: admin,
      body: { event_ids: [id], dry_run: false },
    });
    expect((res.json() as AuxBackfillResult).rows[0]!.outcome).toBe('external');
    const records = await aux(id);
    expect(records).toHaveLength(1);
    expect(records[0]!.data_array).toEqual(botData);
  });

  it('backfills a lowering logged while the managers were off: dry run, run, run again', async () => {
    const lowering = await insertLowering(t.ctx.database.db, {
      lowering_id: 'S0492',
      start_ts: iso(T0 - 60_000),
      stop_ts: iso(T0 + 30_000),
    });
    const ids = await insertEvents(t.ctx.database.db, [
      { ts: iso(T0 + 4000), event_value: 'ASNAP' },
      { ts: iso(T0 + 5000), event_value: 'CORAL' },
      { ts: iso(T0 - 50_000), event_value: 'EARLY' },
    ]);
    const run = async (dry: boolean) => {
      const res = await t.api('POST', '/aux_managers/backfill', {
        token: admin,
        body: { lowering_id: lowering, manager_ids: [nav.id], dry_run: dry },
      });
      expect(res.statusCode).toBe(200);
      return res.json() as AuxBackfillResult;
    };
    const outcomeOf = (r: AuxBackfillResult, id: string) => r.rows.find((row) => row.event_id === id)?.outcome;

    const dry = await run(true);
    expect(dry.dry_run).toBe(true);
    expect(outcomeOf(dry, ids[0]!)).toBe('written');
    expect(outcomeOf(dry, ids[1]!)).toBe('written');
    expect(outcomeOf(dry, ids[2]!)).toBe('no_data');
    expect(await aux(ids[0]!)).toEqual([]);

    const first = await run(false);
    expect(outcomeOf(first, ids[0]!)).toBe('written');
    expect((await aux(ids[1]!))[0]!.data_array[1]).toEqual({
      data_name: 'latitude',
      data_value: '-12.345679',
      data_uom: 'ddeg',
    });
    const prov = (await t.api('GET', `/aux_managers/provenance?event_id=${ids[1]}`, { token: admin })).json();
    expect(prov[0].provenance).toBe('backfilled');

    const again = await run(false);
    expect(outcomeOf(again, ids[0]!)).toBe('unchanged');
    expect(outcomeOf(again, ids[1]!)).toBe('unchanged');
    expect(again.totals.written ?? 0).toBe(0);
    expect(await aux(ids[0]!)).toHaveLength(1);

    // A live-only source never writes today's value into last week's event.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const live = await t.api('POST', '/aux_managers', {
      token: admin,
      body: {
        name: 'live-udp',
        kind: 'openrvdas',
        config_yaml: `data_source: liveNav\naux_record_lookup:\n  nav.lat: {name: latitude}\nsource: {host: 127.0.0.1, port: ${port}}\n`,
      },
    });
    expect(live.statusCode).toBe(201);
    expect((live.json() as AuxManager).historical).toBe(false);
    const liveRun = await t.api('POST', '/aux_managers/backfill', {
      token: admin,
      body: { event_ids: [ids[1]], manager_ids: [(live.json() as AuxManager).id], dry_run: false },
    });
    expect((liveRun.json() as AuxBackfillResult).rows.map((r) => r.outcome)).toEqual(['not_backfillable']);
    expect(await aux(ids[1]!, 'liveNav')).toEqual([]);
    await t.api('DELETE', `/aux_managers/${(live.json() as AuxManager).id}`, { token: admin });
  });

  it('refuses a configuration that does not hold, naming the key', async () => {
    const bad = async (config_yaml: string) => {
      const res = await t.api('POST', '/aux_managers', {
        token: admin,
        body: { name: `bad-${Math.random()}`, kind: 'influx', config_yaml },
      });
      expect(res.statusCode).toBe(400);
      return (res.json() as { message: string }).message;
    };
    expect(await bad(navYaml(influx.url).replace('round: 2', 'round: two'))).toMatch(
      /^config_yaml: aux_record_lookup\.S1HeadingTrue\.round: /,
    );
    expect(await bad(navYaml(influx.url).replace(/url: .*/, 'url: ftp://x'))).toMatch(/^config_yaml: source\.url: /);
    expect(await bad('data_source: x\naux_record_lookup: [unclosed')).toMatch(/^config_yaml: YAML line 2/);
    expect(await bad(navYaml(influx.url).replace('eq: S', 'is: S'))).toMatch(
      /aux_record_lookup\.S1Latitude\.modify\[0\]\.test\[0\]/,
    );
    const dup = await t.api('POST', '/aux_managers', {
      token: admin,
      body: { name: 'another', kind: 'influx', config_yaml: navYaml(influx.url) },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/vessel-nav already writes vehicleRealtimeNavData/);
  });

  it('is for admins; readers see only the footer status', async () => {
    expect((await t.api('GET', '/aux_managers', { token: watcher.token })).statusCode).toBe(403);
    expect(
      (await t.api('POST', '/aux_managers/backfill', { token: watcher.token, body: { event_ids: [nav.id] } }))
        .statusCode,
    ).toBe(403);
    expect((await t.api('GET', '/aux_managers/status', { token: watcher.token })).statusCode).toBe(200);
    expect((await t.api('GET', '/aux_managers/status')).statusCode).toBe(401);
  });

  it('goes stale then error when influxd stops, ok when it returns, with no password anywhere', async () => {
    await influx.write('openrvdas', [`seapath1 S1Latitude=1,S1NorS="N",S1HeadingTrue=1 ${Date.now()}`], creds);
    // The password is answered masked; the masked YAML sent back keeps it (the source still answers).
    const listed = (await t.api('GET', '/aux_managers', { token: admin })).body;
    expect(listed).not.toContain(creds.password);
    expect(listed).toContain(`${creds.user}:********@`);
    const masked = (await manager(nav.id)).config_yaml;
    const patched = await t.api('PATCH', `/aux_managers/${nav.id}`, {
      token: admin,
      body: { max_age_seconds: 3600, config_yaml: masked.replace('round: 2', 'round: 3') },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.body).not.toContain(creds.password);
    await waitUntil('ok', async () => (await manager(nav.id)).health.state === 'ok');
    const audit = (await t.api('GET', '/audit', { token: admin })).body;
    expect(audit).toContain('aux_manager');
    expect(audit).not.toContain(creds.password);
    await influx.stop();
    const stale = await waitUntil('stale', async () => {
      const m = await manager(nav.id);
      return m.health.state === 'stale' && m.health.last_error ? m : undefined;
    });
    expect(stale.health.last_error).toMatch(/InfluxDB at http:\/\/127\.0\.0\.1:\d+ unreachable/);
    const footer = (await t.api('GET', '/aux_managers/status', { token: watcher.token })).json();
    expect(footer.unhealthy).toEqual([{ name: 'vessel-nav', data_source: 'vehicleRealtimeNavData', state: 'stale' }]);
    const error = await waitUntil('error', async () => {
      const m = await manager(nav.id);
      return m.health.state === 'error' && m;
    });
    const everything = JSON.stringify([
      error.health,
      (await t.api('GET', '/aux_managers/status', { token: admin })).json(),
    ]);
    expect(everything).not.toContain(creds.password);
    await influx.start();
    await waitUntil('ok again', async () => (await manager(nav.id)).health.state === 'ok', 30_000);
    expect((await t.api('GET', '/aux_managers/status', { token: watcher.token })).json().unhealthy).toEqual([]);
  }, 60_000);

  it('stamps every event of a 50 events/s burst from the healthy managers while one source hangs', async () => {
    // A silent "InfluxDB": accepts connections and never answers.
    const hang = net.createServer(() => {});
    silent.push(hang);
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()));
    const hangUrl = `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}`;
    const single = (ds: string, m: string, field: string, name: string) =>
      `data_source: ${ds}\nquery_measurements: [${m}]\naux_record_lookup:\n  ${field}:\n    name: ${name}\n    round: 2\nsource:\n  url: ${influx.url}\n  database: openrvdas\n  username: ${creds.user}\n  password: ${creds.password}\n`;
    const healthy = [
      ['ctd', 'ctd', 'temp', 'temperature'],
      ['gyro', 'gyro', 'heading', 'heading'],
      ['paro', 'paro', 'depth', 'depth'],
    ] as const;
    for (const [ds, m, field, name] of healthy) {
      const res = await t.api('POST', '/aux_managers', {
        token: admin,
        body: { name: ds, kind: 'influx', max_age_seconds: 20, config_yaml: single(ds, m, field, name) },
      });
      expect(res.statusCode).toBe(201);
    }
    const hanging = await t.api('POST', '/aux_managers', {
      token: admin,
      body: {
        name: 'hanging',
        kind: 'influx',
        timeout_seconds: 1,
        config_yaml: single('hangingSource', 'ctd', 'temp', 'temperature').replace(influx.url, hangUrl),
      },
    });
    expect(hanging.statusCode).toBe(201);

    // The leader's runner has taken the new managers up once it reports their health.
    await waitUntil('the managers at work', async () =>
      ((await t.api('GET', '/aux_managers', { token: admin })).json() as AuxManager[]).every((m) => m.health.updated),
    );
    const ids: string[] = [];
    for (let second = 0; second < 2; second++) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, i) => logEvent(T0 + 100 + second * 1000 + i * 10, 'ASNAP')),
      );
      ids.push(...batch);
      await new Promise((r) => setTimeout(r, 1000));
    }
    // Requests are answered while the hanging source holds its queue: a read now.
    expect((await t.api('GET', `/events/${ids[0]}`, { token: admin })).statusCode).toBe(200);
    for (const [ds] of healthy)
      await waitUntil(
        `every ${ds} record`,
        async () => {
          const res = await t.api('GET', `/event_aux_data?datasource=${ds}&limit=1000`, { token: admin });
          if (res.statusCode !== 200) return false;
          return new Set((res.json() as EventAuxData[]).map((r) => r.event_id)).size === ids.length;
        },
        30_000,
      );
    const ctd = await t.api('GET', `/event_aux_data?eventID=${ids[7]}&datasource=ctd`, { token: admin });
    expect(ctd.json()[0].data_array).toEqual([{ data_name: 'temperature', data_value: '4.57', data_uom: '' }]);
    const hangingId = (hanging.json() as AuxManager).id;
    const stuck = await waitUntil('the hanging timeouts', async () => {
      const m = await manager(hangingId);
      return m.health.counters.timeouts > 0 && m;
    });
    expect(stuck.health.last_error).toMatch(/^InfluxDB at http:\/\/127\.0\.0\.1:\d+ did not answer in time$/);
    expect((await t.api('GET', `/event_aux_data?datasource=hangingSource`, { token: admin })).statusCode).toBe(404);
    await t.api('PATCH', `/aux_managers/${hangingId}`, { token: admin, body: { enabled: false } });
  }, 90_000);
});
