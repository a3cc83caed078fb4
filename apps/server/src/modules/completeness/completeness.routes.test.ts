import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Nes from '@hapi/nes';
import { wsPath, type CompletenessSummary, type WsCompleteness } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createUser } from '../../../test/api-fixtures.js';
import { insertAux, insertEvents, insertLowering, navData } from '../../../test/table-fixtures.js';
import { listenInRange } from '../../realtime/testing/ws-test-client.js';
import { CompletenessService } from './completeness.service.js';

/**
 * Data completeness (docs/completeness.md): each event judged against the required aux sources,
 * a lowering's summary, the `completeness=incomplete` event lists, the export column and the
 * live pushes of the watcher (pending → incomplete at the end of the grace period → complete,
 * late, when the aux data arrives after all).
 */

const nav = 'vehicleRealtimeNavData';
const grab = 'vehicleRealtimeFramegrabberData';
const grabData = (eventId: string) => ({
  event_id: eventId,
  data_source: grab,
  data_array: [{ data_name: 'camera_name', data_value: 'Main' }],
});
const aged = (eventId: string, age: number) => ({
  ...navData(eventId, 1),
  data_array: [...navData(eventId, 1).data_array, { data_name: 'data_age', data_value: String(age), data_uom: 's' }],
});

/** The cells of a CSV line (quoted cells may hold commas). */
function cells(line: string): string[] {
  return [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
    .slice(0, -1)
    .map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"'));
}

describe.each(engines)('data completeness on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let watcher: { id: string; token: string };
  let outsider: { id: string; token: string };
  let lowering: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(engine, {
      useAccessControl: true,
      completeness: { requiredAuxSources: [nav, grab], graceSeconds: 1, maxAgeSeconds: 30 },
      realtime: { authRecheckMs: 0 },
    });
    admin = await t.login('admin', 'demo');
    watcher = await createUser(t, admin, 'cwatcher', ['event_watcher']);
    outsider = await createUser(t, admin, 'coutsider', ['event_watcher']);
    const db = t.ctx.database.db;
    lowering = await insertLowering(db, {
      lowering_id: 'S0492',
      start_ts: '2023-03-14T22:00:00.000Z',
      stop_ts: '2023-03-15T08:00:00.000Z',
      accessList: [watcher.id],
    });
    const [complete, noGrab, stale, fresh, none] = await insertEvents(db, [
      { ts: '2023-03-14T23:00:00.000Z', event_value: 'FISH' },
      { ts: '2023-03-14T23:01:00.000Z', event_value: 'CORAL' },
      { ts: '2023-03-14T23:02:00.000Z', event_value: 'SAMPLE' },
      { ts: '2023-03-14T23:03:00.000Z', event_value: 'ROCK' },
      { ts: '2023-03-14T23:04:00.000Z', event_value: 'FISH' },
    ]);
    Object.assign(ids, { complete, noGrab, stale, fresh, none });
    await insertAux(db, [
      navData(complete!, 0),
      grabData(complete!),
      navData(noGrab!, 1),
      aged(stale!, 45),
      grabData(stale!),
      aged(fresh!, 5),
      grabData(fresh!),
    ]);
  });
  afterAll(() => t?.close());

  it("summarises a lowering's events: complete, missing a source, stale by data_age", async () => {
    const res = await t.api('GET', `/lowerings/${lowering}/completeness?events=true`, { token: watcher.token });
    expect(res.statusCode).toBe(200);
    const body = res.json() as CompletenessSummary;
    expect(body).toMatchObject({
      required_sources: [nav, grab],
      grace_seconds: 1,
      max_age_seconds: 30,
      events_total: 5,
      events_complete: 2,
      events_incomplete: 3,
      events_pending: 0,
      events_late: 0,
      missing_by_source: { [nav]: 1, [grab]: 2 },
      stale_by_source: { [nav]: 1, [grab]: 0 },
    });
    expect(body.incomplete_event_ids).toEqual([ids.noGrab, ids.stale, ids.none]);
    expect(body.events?.map((e) => [e.id, e.state, e.missing, e.stale])).toEqual([
      [ids.complete, 'complete', [], []],
      [ids.noGrab, 'incomplete', [grab], []],
      [ids.stale, 'incomplete', [], [nav]],
      [ids.fresh, 'complete', [], []],
      [ids.none, 'incomplete', [nav, grab], []],
    ]);
    // Without events=true the list is left out.
    const plain = await t.api('GET', `/lowerings/${lowering}/completeness`, { token: watcher.token });
    expect((plain.json() as CompletenessSummary).events).toBeUndefined();
  });

  it("a lowering's own required sources win over the deployment's", async () => {
    await t.ctx.database.db
      .updateTable('lowerings')
      .set({ lowering_additional_meta: JSON.stringify({ required_aux_sources: [nav] }) })
      .where('id', '=', lowering)
      .execute();
    try {
      const body = (
        await t.api('GET', `/lowerings/${lowering}/completeness`, { token: admin })
      ).json() as CompletenessSummary;
      expect(body).toMatchObject({ required_sources: [nav], events_complete: 3, events_incomplete: 2 });
      expect(body.incomplete_event_ids).toEqual([ids.stale, ids.none]);
      const list = await t.api('GET', `/events/bylowering/${lowering}?completeness=incomplete`, { token: admin });
      expect((list.json() as Array<{ id: string }>).map((e) => e.id)).toEqual([ids.stale, ids.none]);
    } finally {
      await t.ctx.database.db
        .updateTable('lowerings')
        .set({ lowering_additional_meta: '{}' })
        .where('id', '=', lowering)
        .execute();
    }
  });

  it('a lowering stored with a huge source list is judged by its first 100 sources, not refused with a 500', async () => {
    const sources = [nav, ...Array.from({ length: 20_000 }, (_, i) => `src${i}`)];
    await t.ctx.database.db
      .updateTable('lowerings')
      .set({ lowering_additional_meta: JSON.stringify({ required_aux_sources: sources }) })
      .where('id', '=', lowering)
      .execute();
    try {
      const summary = await t.api('GET', `/lowerings/${lowering}/completeness?events=true`, { token: admin });
      expect(summary.statusCode).toBe(200);
      expect((summary.json() as CompletenessSummary).required_sources).toEqual(sources.slice(0, 100));
      const list = await t.api('GET', `/events/bylowering/${lowering}?completeness=incomplete`, { token: admin });
      expect(list.statusCode).toBe(200);
    } finally {
      await t.ctx.database.db
        .updateTable('lowerings')
        .set({ lowering_additional_meta: '{}' })
        .where('id', '=', lowering)
        .execute();
    }
  });

  it('the event lists keep only incomplete events with completeness=incomplete', async () => {
    const expected = [ids.noGrab, ids.stale, ids.none];
    for (const path of [`/events/bylowering/${lowering}`, '/events']) {
      const list = await t.api('GET', `${path}?completeness=incomplete`, { token: watcher.token });
      expect(list.statusCode).toBe(200);
      expect((list.json() as Array<{ id: string }>).map((e) => e.id)).toEqual(expected);
      const count = await t.api('GET', `${path}/count?completeness=incomplete`, { token: watcher.token });
      expect(count.json()).toEqual({ events: 3 });
    }
    // Combined with another filter, and streamed (no limit) or paged alike.
    const fish = await t.api('GET', `/events?completeness=incomplete&value=FISH&limit=5&sort=newest`, { token: admin });
    expect((fish.json() as Array<{ id: string }>).map((e) => e.id)).toEqual([ids.none]);
    const text = await t.api('GET', `/events?completeness=incomplete&fulltext=coral`, { token: admin });
    expect((text.json() as Array<{ id: string }>).map((e) => e.id)).toEqual([ids.noGrab]);
    const bad = await t.api('GET', '/events?completeness=maybe', { token: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('one meaning everywhere: between dives nothing is required, a CHECKLIST needs no aux data, a dive judges by its own sources', async () => {
    const db = t.ctx.database.db;
    // A second dive that requires navigation only.
    const navOnly = await insertLowering(db, {
      lowering_id: 'S0493',
      start_ts: '2023-03-16T00:00:00.000Z',
      stop_ts: '2023-03-16T06:00:00.000Z',
      accessList: [watcher.id],
    });
    await db
      .updateTable('lowerings')
      .set({ lowering_additional_meta: JSON.stringify({ required_aux_sources: [nav] }) })
      .where('id', '=', navOnly)
      .execute();
    const [onDeck, checklist, navOnlyComplete, navOnlyBare] = await insertEvents(db, [
      { ts: '2023-03-15T09:00:00.000Z', event_value: 'ON_DECK' },
      { ts: '2023-03-14T23:05:00.000Z', event_value: 'CHECKLIST', event_author: 'jsmith' },
      { ts: '2023-03-16T01:00:00.000Z', event_value: 'FISH' },
      { ts: '2023-03-16T01:01:00.000Z', event_value: 'FISH' },
    ]);
    await insertAux(db, [navData(navOnlyComplete!, 2)]);
    try {
      const ids_ = async (path: string) =>
        ((await t.api('GET', path, { token: watcher.token })).json() as Array<{ id: string }>).map((e) => e.id);
      const expected = [ids.noGrab, ids.stale, ids.none, navOnlyBare];
      expect(await ids_('/events?completeness=incomplete')).toEqual(expected);
      expect((await t.api('GET', '/events/count?completeness=incomplete', { token: watcher.token })).json()).toEqual({
        events: expected.length,
      });
      expect(await ids_(`/events/bylowering/${lowering}?completeness=incomplete`)).toEqual([
        ids.noGrab,
        ids.stale,
        ids.none,
      ]);
      expect(await ids_(`/events/bylowering/${navOnly}?completeness=incomplete`)).toEqual([navOnlyBare]);
      // The summary and the watcher say the same of the CHECKLIST event.
      const summary = (
        await t.api('GET', `/lowerings/${lowering}/completeness?events=true`, { token: watcher.token })
      ).json() as CompletenessSummary;
      expect(summary.events?.find((e) => e.id === checklist)).toMatchObject({ state: 'complete', missing: [] });
      expect(summary.incomplete_event_ids).not.toContain(checklist);
      const pushed = await new CompletenessService(t.ctx).refresh([checklist!, onDeck!]);
      expect(pushed.map((p) => [p.event_id, p.state])).toEqual([[checklist, 'complete']]);
    } finally {
      for (const id of [onDeck, checklist, navOnlyComplete, navOnlyBare]) {
        expect((await t.api('DELETE', `/events/${id}`, { token: admin })).statusCode).toBe(204);
      }
      await db.deleteFrom('lowerings').where('id', '=', navOnly).execute();
    }
  });

  it('exports carry a completeness field (JSON) or columns (CSV) when asked', async () => {
    const json = await t.api('GET', `/event_exports/bylowering/${lowering}?completeness=true`, { token: admin });
    expect(json.statusCode).toBe(200);
    const events = json.json() as Array<{ id: string; completeness: { state: string; missing: string[] } }>;
    expect(events.map((e) => [e.id, e.completeness.state])).toEqual([
      [ids.complete, 'complete'],
      [ids.noGrab, 'incomplete'],
      [ids.stale, 'incomplete'],
      [ids.fresh, 'complete'],
      [ids.none, 'incomplete'],
    ]);
    expect(events[4]!.completeness.missing).toEqual([nav, grab]);
    const csv = await t.api('GET', `/event_exports/bylowering/${lowering}?completeness=true&format=csv`, {
      token: admin,
    });
    const [header, ...lines] = csv.body.trim().split('\n').map(cells);
    const state = header!.indexOf('completeness.state_value');
    expect(state).toBeGreaterThan(0);
    expect(lines[4]![header!.indexOf('completeness.missing_value')]).toBe(`${nav},${grab}`);
    expect(lines.map((l) => l[state])).toEqual(['complete', 'incomplete', 'incomplete', 'complete', 'incomplete']);
    // `incomplete`: the column, and only the incomplete events.
    const only = await t.api('GET', `/event_exports/bylowering/${lowering}?completeness=incomplete`, { token: admin });
    expect((only.json() as Array<{ id: string }>).map((e) => e.id)).toEqual([ids.noGrab, ids.stale, ids.none]);
    // Without the parameter nothing changes.
    const plain = await t.api('GET', `/event_exports/bylowering/${lowering}`, { token: admin });
    expect((plain.json() as Array<Record<string, unknown>>)[0]).not.toHaveProperty('completeness');
  });

  it('refuses the summary to a caller who may not read the lowering, and without a token', async () => {
    const refused = await t.api('GET', `/lowerings/${lowering}/completeness`, { token: outsider.token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ statusCode: 401, message: 'User not authorized to retrieve this lowering' });
    expect((await t.api('GET', `/lowerings/${lowering}/completeness`)).statusCode).toBe(401);
    const missing = await t.api('GET', '/lowerings/5981f167212b348aed7fa9f5/completeness', { token: admin });
    expect(missing.statusCode).toBe(404);
    // The outsider's event lists leave the lowering's events out, incomplete or not.
    const list = await t.api('GET', '/events?completeness=incomplete', { token: outsider.token });
    expect([200, 404]).toContain(list.statusCode);
    if (list.statusCode === 200) expect(list.json()).toEqual([]);
  });

  it("answers the newest event the caller may see, judged (the footer's line)", async () => {
    const mine = (await t.api('GET', '/completeness/newest', { token: watcher.token })).json();
    expect(mine).toEqual({
      required_sources: [nav, grab],
      newest: {
        event_id: ids.none,
        lowering_id: lowering,
        ts: '2023-03-14T23:04:00.000Z',
        state: 'incomplete',
        missing: [nav, grab],
        stale: [],
      },
    });
    // The outsider may not see the lowering's events: not its newest either.
    const theirs = await t.api('GET', '/completeness/newest', { token: outsider.token });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ required_sources: [nav, grab], newest: null });
    expect((await t.api('GET', '/completeness/newest')).statusCode).toBe(401);
  });

  it('an event between dives is not judged: no footer line, no push', async () => {
    const [deck] = await insertEvents(t.ctx.database.db, [{ ts: '2023-03-15T09:00:00.000Z', event_value: 'ON_DECK' }]);
    const newest = (await t.api('GET', '/completeness/newest', { token: admin })).json();
    expect(newest).toEqual({ required_sources: [nav, grab], newest: null });
    expect(await new CompletenessService(t.ctx).refresh([deck!])).toEqual([]);
    expect((await t.api('DELETE', `/events/${deck}`, { token: admin })).statusCode).toBe(204);
  });

  it('the filtered bulk delete takes completeness=incomplete: complete events stay', async () => {
    const res = await t.api('DELETE', '/events?completeness=incomplete&value=CORAL,FISH', { token: admin });
    expect(res.statusCode).toBe(200);
    // CORAL (missing a source) and the FISH without aux data go; the complete FISH stays.
    expect(res.json()).toEqual({ deletedCount: 2 });
    const left = await t.api('GET', `/events/bylowering/${lowering}`, { token: admin });
    expect((left.json() as Array<{ id: string }>).map((e) => e.id)).toEqual([ids.complete, ids.stale, ids.fresh]);
  });

  describe('live', () => {
    let port: number;
    let liveLowering: string;
    const clients: InstanceType<typeof Nes.Client>[] = [];

    async function subscribe(token: string): Promise<WsCompleteness[]> {
      const client = new Nes.Client(`ws://127.0.0.1:${port}/ws`);
      clients.push(client);
      await client.connect({ auth: { headers: { Authorization: `Bearer ${token}` } }, reconnect: false });
      const seen: WsCompleteness[] = [];
      await client.subscribe(wsPath('completeness'), (message: unknown) => void seen.push(message as WsCompleteness));
      return seen;
    }

    async function until<T>(what: string, probe: () => T | undefined, ms = 8000): Promise<T> {
      const deadline = Date.now() + ms;
      for (;;) {
        const got = probe();
        if (got !== undefined) return got;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    beforeAll(async () => {
      port = await listenInRange(t.app);
      liveLowering = await insertLowering(t.ctx.database.db, {
        lowering_id: 'LIVE',
        start_ts: Date.now() - 3_600_000,
        stop_ts: Date.now() + 3_600_000,
        accessList: [watcher.id],
      });
    });
    afterAll(async () => {
      for (const c of clients) await c.disconnect();
    });

    it('pushes pending, then incomplete after the grace period, then complete (late) when the aux data arrives', async () => {
      const seen = await subscribe(watcher.token);
      const post = await t.api('POST', '/events', { token: admin, body: { event_value: 'LIVE_EVENT' } });
      expect(post.statusCode).toBe(201);
      const eventId = (post.json() as { insertedId: string }).insertedId;
      const of = (state: string) => () => seen.find((p) => p.event_id === eventId && p.state === state);

      const pending = await until('pending', of('pending'));
      expect(pending).toMatchObject({ lowering_id: liveLowering, missing: [nav, grab], stale: [] });
      const incomplete = await until('incomplete', of('incomplete'));
      // The push says which event it is: its value beside its time.
      expect(incomplete).toMatchObject({ lowering_id: liveLowering, event_value: 'LIVE_EVENT', missing: [nav, grab] });

      // The navigation arrives late, then the frame grab: the event is complete, and late.
      for (const body of [navData(eventId, 3), grabData(eventId)]) {
        expect((await t.api('POST', '/event_aux_data', { token: admin, body })).statusCode).toBe(201);
      }
      const complete = await until('complete', of('complete'));
      expect(complete).toMatchObject({ missing: [], stale: [], late: true });
      const summary = (await t.api('GET', `/lowerings/${liveLowering}/completeness`, { token: watcher.token })).json();
      expect(summary).toMatchObject({ events_late: 1 });
    });

    it('a stale sample makes an event incomplete at the end of its grace period', async () => {
      const seen = await subscribe(watcher.token);
      const post = await t.api('POST', '/events', { token: admin, body: { event_value: 'STALE_EVENT' } });
      const eventId = (post.json() as { insertedId: string }).insertedId;
      for (const body of [aged(eventId, 120), grabData(eventId)]) {
        expect((await t.api('POST', '/event_aux_data', { token: admin, body })).statusCode).toBe(201);
      }
      const incomplete = await until('incomplete', () =>
        seen.find((p) => p.event_id === eventId && p.state === 'incomplete'),
      );
      expect(incomplete).toMatchObject({ missing: [], stale: [nav] });
    });

    it('a subscriber who may not see the event does not get its completeness', async () => {
      await t.ctx.database.db
        .updateTable('lowerings')
        .set({ lowering_access_list: JSON.stringify([watcher.id]) })
        .where('id', '=', liveLowering)
        .execute();
      const outsiderSeen = await subscribe(outsider.token);
      const adminSeen = await subscribe(admin);
      const post = await t.api('POST', '/events', { token: admin, body: { event_value: 'PRIVATE_EVENT' } });
      const eventId = (post.json() as { insertedId: string }).insertedId;
      await until('the admin push', () => adminSeen.find((p) => p.event_id === eventId && p.state === 'incomplete'));
      expect(outsiderSeen.filter((p) => p.event_id === eventId)).toEqual([]);
    });
  });
});
