import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectId } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import {
  insertCruise,
  insertEvents,
  insertLowering,
  loadDemoLowering,
  type DemoLowering,
} from '../../../test/table-fixtures.js';

// The raw demo files: every expected figure below is worked out from them here, not by the server's code.
const demoFile = (name: string) => new URL(`../../../demo/${name}`, import.meta.url);
const rawLowering = (() => {
  const r = JSON.parse(readFileSync(demoFile('FKt230303_S0492_loweringRecord.json'), 'utf8')) as unknown;
  return (Array.isArray(r) ? r[0] : r) as {
    start_ts: string;
    stop_ts: string;
    lowering_additional_meta: { milestones: Record<string, string | null> };
  };
})();
const rawEvents = JSON.parse(readFileSync(demoFile('FKt230303_S0492_eventOnlyExport.json'), 'utf8')) as Array<{
  id: string;
  ts: string;
  event_value: string;
  event_author: string;
}>;

/** Great-circle distance by the spherical law of cosines (a different formula from the server's). */
function greatCircle(a: [number, number], b: [number, number]): number {
  const r = Math.PI / 180;
  const c =
    Math.sin(a[0] * r) * Math.sin(b[0] * r) + Math.cos(a[0] * r) * Math.cos(b[0] * r) * Math.cos((b[1] - a[1]) * r);
  return 6371008.8 * Math.acos(Math.min(1, c));
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

describe.each(engines)('dive metrics API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  let demo: DemoLowering;
  let cruise: string;
  let small: string;

  beforeAll(async () => {
    // The table fixture writes the demo's frame grabs under the source `framegrabber`.
    t = await createTestApp(engine, {
      sampleEventValues: ['SAMPLE', 'NOT LOGGED'],
      client: { imagesAuxDataSources: ['framegrabber'] },
    });
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    const db = t.ctx.database.db;
    demo = await loadDemoLowering(db);
    await db
      .updateTable('lowerings')
      .set({ lowering_additional_meta: JSON.stringify(rawLowering.lowering_additional_meta) })
      .where('id', '=', demo.loweringId)
      .execute();
    cruise = await insertCruise(db, {
      cruise_id: 'FKt230303',
      start_ts: '2023-03-10T00:00:00Z',
      stop_ts: '2023-03-20T00:00:00Z',
    });
    small = await insertLowering(db, {
      lowering_id: 'S0493',
      start_ts: '2023-03-16T00:00:00Z',
      stop_ts: '2023-03-16T01:00:00Z',
    });
    await insertEvents(db, [
      { ts: '2023-03-16T00:10:00Z', event_value: 'SAMPLE', event_author: 'ann' },
      { ts: '2023-03-16T00:20:00Z', event_value: 'FISH', event_author: 'ann' },
    ]);
  });
  afterAll(() => t?.close());

  const get = (url: string, token: string | undefined = admin) => t.api('GET', url, { token });

  // Expected figures of S0492, from the raw files and the fixture's nav rule (table-fixtures navData:
  // the n-th event of the file at lat 23.55 + n·1e-5, lon −45.14 − n·1e-5, depth 1000 + n mod 1000).
  const lo = Date.parse(rawLowering.start_ts);
  const hi = Date.parse(rawLowering.stop_ts);
  const ms = rawLowering.lowering_additional_meta.milestones;
  const inDive = rawEvents.map((e, n) => ({ ...e, n, t: Date.parse(e.ts) })).filter((e) => e.t >= lo && e.t <= hi);

  it('S0492: durations, depths, bottom distance and counts as worked out from the raw files', async () => {
    const res = await get(`/lowerings/${demo.loweringId}/metrics`);
    expect(res.statusCode).toBe(200);
    const m = res.json();
    const at = (k: string) => Date.parse(ms[k]!);
    expect(m).toMatchObject({
      id: demo.loweringId,
      lowering_id: 'S0492',
      position_source: 'vehicleRealtimeNavData',
      distance_method: 'filtered track: 120 s median, 15 m steps',
    });
    expect(m.durations).toEqual([
      { stage: 'Deck-to-Deck', seconds: (hi - lo) / 1000 },
      { stage: 'Deployment', seconds: (at('lowering_descending') - lo) / 1000 },
      { stage: 'Descent', seconds: (at('lowering_on_bottom') - at('lowering_descending')) / 1000 },
      { stage: 'On Bottom', seconds: (at('lowering_off_bottom') - at('lowering_on_bottom')) / 1000 },
      { stage: 'Ascent', seconds: (at('lowering_on_surface') - at('lowering_off_bottom')) / 1000 },
      { stage: 'Recovery', seconds: (hi - at('lowering_on_surface')) / 1000 },
    ]);
    // 22:15:39.479 → 08:32:32.654 the next day
    expect(m.durations[0].seconds).toBe(10 * 3600 + 16 * 60 + 53.175);

    const depths = inDive.map((e) => 1000 + (e.n % 1000));
    expect(m.max_depth).toBe(Math.max(...depths));
    expect(m.depth_readings).toBe(depths.length);
    expect(m.mean_depth).toBeCloseTo(depths.reduce((a, b) => a + b, 0) / depths.length, 6);

    const onBottom = inDive
      .filter((e) => e.t >= at('lowering_on_bottom') && e.t <= at('lowering_off_bottom'))
      .sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1));
    const bottomDepths = onBottom.map((e) => 1000 + (e.n % 1000));
    expect(m.bottom_depth_readings).toBe(bottomDepths.length);
    expect(m.bottom_mean_depth).toBeCloseTo(bottomDepths.reduce((a, b) => a + b, 0) / bottomDepths.length, 6);

    // The fixture's track is a straight line, so its filtered length is the distance from its first
    // to its last on-bottom fix, less what the running median and the steps leave at the ends.
    const bottom = onBottom.map(
      (e) => [Number((23.55 + e.n * 1e-5).toFixed(6)), Number((-45.14 - e.n * 1e-5).toFixed(6))] as [number, number],
    );
    expect(bottom.length).toBeGreaterThan(100);
    const straight = greatCircle(bottom[0]!, bottom.at(-1)!);
    expect(m.bottom_distance).toBeGreaterThan(0.97 * straight);
    expect(m.bottom_distance).toBeLessThanOrEqual(straight + 0.01);

    expect(m.events_total).toBe(inDive.length);
    expect(m.events_by_category).toEqual(countBy(inDive.map((e) => e.event_value)));
    expect(m.events_by_author).toEqual(countBy(inDive.map((e) => e.event_author)));
    const samples = inDive.filter((e) => e.event_value === 'SAMPLE').length;
    expect(samples).toBe(35);
    expect(m.samples_total).toBe(samples);
    expect(m.samples_by_value).toEqual({ SAMPLE: samples });
    expect(m.sample_values).toEqual(['SAMPLE', 'NOT LOGGED']);
    // Two cameras on every SAMPLE and FRAMEGRAB event.
    const grabbed = inDive.filter((e) => e.event_value === 'SAMPLE' || e.event_value === 'FRAMEGRAB').length;
    expect(m.framegrabs_by_camera).toEqual({ 'Main Camera': grabbed, 'Down Camera': grabbed });
    expect(m.framegrabs_total).toBe(2 * grabbed);
  });

  it('CSV: metric,value,unit, one row per figure', async () => {
    const res = await get(`/lowerings/${demo.loweringId}/metrics?format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="S0492_metrics.csv"');
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('"metric","value","unit"');
    expect(lines[1]).toBe(`"duration.Deck-to-Deck",${(hi - lo) / 1000},"s"`);
    expect(lines).toContain('"events_total",4540,"count"');
    expect(lines).toContain('"samples_by_value.SAMPLE",35,"count"');
    expect(lines).toContain('"events_by_category.ASNAP",3701,"count"');
    expect(lines).toContain(`"max_depth",${Math.max(...inDive.map((e) => 1000 + (e.n % 1000)))},"m"`);
    expect(lines.every((l) => /^"[^"]+",[^,]*,"(s|m|count)"$/.test(l) || l === lines[0])).toBe(true);
  });

  it('a dive without milestones or nav: durations of start/stop only, no depth, no distance', async () => {
    const m = (await get(`/lowerings/${small}/metrics`)).json();
    expect(m).toMatchObject({
      durations: [{ stage: 'Deck-to-Deck', seconds: 3600 }],
      max_depth: null,
      mean_depth: null,
      depth_readings: 0,
      bottom_mean_depth: null,
      bottom_depth_readings: 0,
      bottom_distance: null,
      position_source: null,
      events_total: 2,
      samples_total: 1,
      framegrabs_total: 0,
      framegrabs_by_camera: {},
    });
  });

  it('a cruise: one row per lowering and the sums', async () => {
    const res = await get(`/cruises/${cruise}/metrics`);
    expect(res.statusCode).toBe(200);
    const c = res.json();
    expect(c.cruise_id).toBe('FKt230303');
    expect(c.lowerings.map((l: { lowering_id: string }) => l.lowering_id)).toEqual(['S0492', 'S0493']);
    const [a, b] = c.lowerings;
    expect(c.totals.events_total).toBe(a.events_total + b.events_total);
    expect(c.totals.samples_total).toBe(36);
    expect(c.totals.events_by_author.ann).toBe(2 + (a.events_by_author.ann ?? 0));
    expect(c.totals.max_depth).toBe(a.max_depth);
    expect(c.totals.durations.find((d: { stage: string }) => d.stage === 'Deck-to-Deck').seconds).toBeCloseTo(
      (hi - lo) / 1000 + 3600,
      6,
    );
    expect(c.totals.bottom_distance).toBe(a.bottom_distance);
    const csv = (await get(`/cruises/${cruise}/metrics?format=csv`)).body.split('\n');
    expect(csv[0]).toBe('"lowering_id","metric","value","unit"');
    expect(csv).toContain('"S0493","events_total",2,"count"');
    expect(csv).toContain(`"total","events_total",${4540 + 2},"count"`);
  });

  it('answers 401 without a token, 404 for a missing record, 400 for a bad id or format', async () => {
    expect((await t.api('GET', `/lowerings/${small}/metrics`)).statusCode).toBe(401);
    const missing = await get(`/lowerings/${newObjectId()}/metrics`);
    expect(missing.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'lowering not found for that id' });
    expect((await get(`/cruises/${newObjectId()}/metrics`)).statusCode).toBe(404);
    expect((await get('/lowerings/nothex/metrics')).statusCode).toBe(400);
    expect((await get(`/lowerings/${small}/metrics?format=xml`)).statusCode).toBe(400);
  });

  it('with access control, a caller off the access list is refused and the cruise leaves that lowering out', async () => {
    const strict = await createTestApp(engine, { useAccessControl: true });
    try {
      const strictUsers = await createRoleUsers(strict);
      const db = strict.ctx.database.db;
      const c = await insertCruise(db, { start_ts: '2024-01-01T00:00:00Z', stop_ts: '2024-01-02T00:00:00Z' });
      const secret = await insertLowering(db, {
        lowering_id: 'SECRET',
        start_ts: '2024-01-01T01:00:00Z',
        stop_ts: '2024-01-01T02:00:00Z',
        accessList: [strictUsers.ids.event_logger!],
      });
      await insertEvents(db, [{ ts: '2024-01-01T01:30:00Z', event_value: 'SAMPLE' }]);
      const read = (token: string | undefined) => strict.api('GET', `/lowerings/${secret}/metrics`, { token });
      expect((await read(strictUsers.tokens.admin)).statusCode).toBe(200);
      expect((await read(strictUsers.tokens.event_logger)).statusCode).toBe(200);
      const refused = await read(strictUsers.tokens.event_watcher);
      expect(refused.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'User not authorized to retrieve this lowering',
      });
      const csv = await strict.api('GET', `/lowerings/${secret}/metrics?format=csv`, {
        token: strictUsers.tokens.event_watcher,
      });
      expect(csv.statusCode).toBe(401);
      const seen = (
        await strict.api('GET', `/cruises/${c}/metrics`, { token: strictUsers.tokens.event_watcher })
      ).json();
      expect(seen.lowerings).toEqual([]);
      // The event inside the hidden lowering is not counted in the sums either.
      expect(seen.totals.events_total).toBe(0);
      const own = (await strict.api('GET', `/cruises/${c}/metrics`, { token: strictUsers.tokens.event_logger })).json();
      expect(own.lowerings.map((l: { lowering_id: string }) => l.lowering_id)).toEqual(['SECRET']);
    } finally {
      await strict.close();
    }
  });
});
