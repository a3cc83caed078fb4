import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AuxBackfillResult,
  AuxManager,
  AuxManagerStatus,
  CompletenessSummary,
  NewestCompleteness,
  WsCompleteness,
} from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { insertLowering } from '../../../test/table-fixtures.js';
import { peer } from '../../../test/peers.js';
import { Influxd } from '../../../test/influxd.js';
import { waitUntil } from '../../../test/ship-and-shore.js';

/**
 * A manager marked required feeds the completeness watch (docs/completeness.md#required-aux-data-managers):
 * with no source required by the deployment, an event logged in a dive while the required manager's InfluxDB
 * is down is incomplete for the manager's data source in the lowering's figures, the footer's newest-event
 * line and the pushed warning, and the footer's aux-source line names it; once InfluxDB is back new events are
 * complete and the backfilled one recovers (late); a manager no longer required, or disabled, stops counting.
 */
const influxBin = peer('influxd');
const source = 'vesselRealtimeNavData';
const iso = (ms: number) => new Date(ms).toISOString();

describe.skipIf(!influxBin).each(engines)('a required aux-data manager in the completeness watch on %s', (engine) => {
  let influx: Influxd;
  let t: TestApp;
  let admin: string;
  let lowering: string;
  let nav: AuxManager;
  const pushed: WsCompleteness[] = [];

  const summary = async () => {
    const res = await t.api('GET', `/lowerings/${lowering}/completeness?events=true`, { token: admin });
    expect(res.statusCode).toBe(200);
    return res.json() as CompletenessSummary;
  };
  const newest = async () =>
    (await t.api('GET', '/completeness/newest', { token: admin })).json() as NewestCompleteness;
  const status = async () => (await t.api('GET', '/aux_managers/status', { token: admin })).json() as AuxManagerStatus;
  const state = async () =>
    ((await t.api('GET', `/aux_managers/${nav.id}`, { token: admin })).json() as AuxManager).health.state;
  const logEvent = async (value: string) => {
    const res = await t.api('POST', '/events', {
      token: admin,
      body: { event_value: value, ts: iso(Date.now()), publish: true },
    });
    expect(res.statusCode).toBe(201);
    return (res.json() as { insertedId: string }).insertedId;
  };
  const patch = async (body: Record<string, unknown>) =>
    expect((await t.api('PATCH', `/aux_managers/${nav.id}`, { token: admin, body })).statusCode).toBe(200);

  beforeAll(async () => {
    influx = await Influxd.create(influxBin!);
    await influx.query('CREATE DATABASE ship');
    await influx.write('ship', [`nav lat=23.51 ${Date.now() - 1000}`]);
    t = await createTestApp(engine, {
      completeness: { requiredAuxSources: [], graceSeconds: 1, maxAgeSeconds: 30 },
      auxManagers: { probeSeconds: 0.2, errorAfterSeconds: 1 },
    });
    admin = await t.login('admin', 'demo');
    t.ctx.bus.subscribe('completeness', (p) => void pushed.push(p));
    lowering = await insertLowering(t.ctx.database.db, {
      lowering_id: 'S0493',
      start_ts: iso(Date.now() - 3600_000),
      stop_ts: iso(Date.now() + 3600_000),
    });
    const res = await t.api('POST', '/aux_managers', {
      token: admin,
      body: {
        name: 'ship-nav',
        kind: 'influx',
        required: true,
        max_age_seconds: 3600,
        config_yaml: `data_source: ${source}\nquery_measurements: [nav]\naux_record_lookup:\n  lat: {name: latitude, uom: ddeg}\nsource: {url: '${influx.url}', database: ship}\n`,
      },
    });
    expect(res.statusCode).toBe(201);
    nav = res.json() as AuxManager;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await influx?.close();
  });

  it('requires the data source of an enabled required manager, though the deployment requires nothing', async () => {
    expect((await summary()).required_sources).toEqual([source]);
    expect((await newest()).required_sources).toEqual([source]);
  });

  it('shows an event logged while the peer is down as incomplete for that source, and the footer names it', async () => {
    await influx.stop();
    await waitUntil('the manager to turn error', async () => (await state()) === 'error');
    expect((await status()).unhealthy).toEqual([{ name: 'ship-nav', data_source: source, state: 'error' }]);
    const id = await logEvent('FISH');
    const warned = await waitUntil('the incomplete push', async () =>
      pushed.find((p) => p.event_id === id && p.state === 'incomplete'),
    );
    expect(warned).toMatchObject({ event_value: 'FISH', lowering_id: lowering, missing: [source], stale: [] });
    const figures = await summary();
    expect(figures).toMatchObject({
      required_sources: [source],
      events_incomplete: 1,
      missing_by_source: { [source]: 1 },
      incomplete_event_ids: [id],
    });
    expect((await newest()).newest).toMatchObject({ event_id: id, state: 'incomplete', missing: [source] });
  }, 60_000);

  it('recovers: events logged once the peer is back are complete, and the backfilled one is complete late', async () => {
    await influx.start();
    await influx.write('ship', [`nav lat=23.52 ${Date.now()}`]);
    await waitUntil('the manager to turn ok', async () => (await state()) === 'ok');
    expect((await status()).unhealthy).toEqual([]);
    const fresh = await logEvent('CORAL');
    await waitUntil('the new event complete', async () =>
      pushed.find((p) => p.event_id === fresh && p.state === 'complete'),
    );
    expect((await newest()).newest).toMatchObject({ event_id: fresh, state: 'complete', missing: [] });
    const [missed] = (await summary()).incomplete_event_ids!;
    const res = await t.api('POST', '/aux_managers/backfill', {
      token: admin,
      body: { event_ids: [missed], dry_run: false },
    });
    expect((res.json() as AuxBackfillResult).rows).toEqual([expect.objectContaining({ outcome: 'written' })]);
    const figures = await summary();
    expect(figures).toMatchObject({ events_total: 2, events_complete: 2, events_incomplete: 0, events_late: 1 });
  }, 60_000);

  it('stops counting a manager no longer required, or disabled', async () => {
    await influx.stop();
    await patch({ required: false });
    const id = await logEvent('ROCK');
    expect((await summary()).required_sources).toEqual([]);
    expect(await newest()).toEqual({ required_sources: [], newest: null });
    expect((await status()).unhealthy).toEqual([]);
    await patch({ required: true, enabled: false });
    expect((await summary()).required_sources).toEqual([]);
    expect((await summary()).events!.find((e) => e.id === id)).toMatchObject({ state: 'complete' });
    // Back on: the event logged meanwhile (its grace over) lacks the source again.
    await patch({ enabled: true });
    const judged = await waitUntil('its grace period to end', async () => {
      const e = (await summary()).events!.find((e) => e.id === id);
      return e?.state !== 'pending' && e;
    });
    expect(judged).toMatchObject({ state: 'incomplete', missing: [source] });
  }, 60_000);
});
