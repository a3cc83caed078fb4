import { readdirSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectId, shipRecordReadOnlyMessage, type SyncChange } from '@bathylog/shared';
import { applyChanges } from '../src/modules/sync/sync-apply.js';
import { registerOriginGuard } from '../src/origins/origin-guard.js';
import { internalChannels } from '../src/realtime/internal-channels.js';
import type { AppContext } from '../src/context.js';
import { createCruise, createLowering, createUser, filepondBody, multipart } from './api-fixtures.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/**
 * The shore's read-only rule for records copied from a ship (docs/ship-to-shore.md#read-only-on-shore),
 * generated from the route table: every write route declares `config.origin`, and every route that
 * may change a copied record has a case below, called by an admin on a copied record, which must
 * answer 403 with the read-only message and leave every copied record (rows and files) as it was.
 * Bulk routes run too and must leave the copies where they are.
 */

const api = '/sealog-server/api/v1';
const files = '/sealog-server/files';
const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const shipName = 'Falkor (too)';

/** The smallest PNG (1×1). */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface Copies {
  cruise: string;
  lowering: string;
  event: string;
  aux: string;
  template: string;
  /** A picture attached to the copied event (its stored name). */
  picture: string;
  /** A file of the copied cruise and of the copied lowering (`<id>/<name>`). */
  cruiseFile: string;
  loweringFile: string;
  /** The shore's own event and aux record. */
  ownEvent: string;
  ownAux: string;
  /** A recording of the copied lowering. */
  recording: string;
}

interface Call {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  raw?: { payload: Buffer | string; headers: Record<string, string> };
}

const json = (method: Call['method'], url: string, body?: unknown): Call => ({ method, url, body });

/** Each route that may change a copied record: the calls that try it on one. */
const cases: Record<string, (c: Copies) => Call[]> = {
  [`PATCH ${api}/cruises/:id`]: (c) => [json('PATCH', `${api}/cruises/${c.cruise}`, { cruise_location: 'shore' })],
  [`PATCH ${api}/cruises/:id/permissions`]: (c) => [
    json('PATCH', `${api}/cruises/${c.cruise}/permissions`, { add: [newObjectId()] }),
  ],
  [`DELETE ${api}/cruises/:id`]: (c) => [json('DELETE', `${api}/cruises/${c.cruise}`)],
  [`PATCH ${api}/lowerings/:id`]: (c) => [
    json('PATCH', `${api}/lowerings/${c.lowering}`, { lowering_location: 'shore' }),
  ],
  [`PATCH ${api}/lowerings/:id/permissions`]: (c) => [
    json('PATCH', `${api}/lowerings/${c.lowering}/permissions`, { add: [newObjectId()] }),
  ],
  [`DELETE ${api}/lowerings/:id`]: (c) => [json('DELETE', `${api}/lowerings/${c.lowering}`)],
  [`PATCH ${api}/event_templates/:id`]: (c) => [
    json('PATCH', `${api}/event_templates/${c.template}`, { event_value: 'SHORE' }),
  ],
  [`DELETE ${api}/event_templates/:id`]: (c) => [json('DELETE', `${api}/event_templates/${c.template}`)],
  [`PATCH ${api}/events/:id`]: (c) => [json('PATCH', `${api}/events/${c.event}`, { event_value: 'SHORE' })],
  [`DELETE ${api}/events/:id`]: (c) => [json('DELETE', `${api}/events/${c.event}`)],
  [`POST ${api}/event_aux_data`]: (c) => [
    // New navigation for the copied event, and the copied record taken over by a client id.
    json('POST', `${api}/event_aux_data`, {
      event_id: c.event,
      data_source: 'vehicleRealtimeNavData',
      data_array: [{ data_name: 'latitude', data_value: '1.5', data_uom: 'ddeg' }],
    }),
    json('POST', `${api}/event_aux_data`, {
      id: c.aux,
      event_id: c.ownEvent,
      data_source: 'shoreNav',
      data_array: [{ data_name: 'depth', data_value: '1', data_uom: 'm' }],
    }),
  ],
  [`PATCH ${api}/event_aux_data/:id`]: (c) => [
    json('PATCH', `${api}/event_aux_data/${c.aux}`, {
      data_array: [{ data_name: 'depth', data_value: '1', data_uom: 'm' }],
    }),
    // The shore's own record moved onto the copied event.
    json('PATCH', `${api}/event_aux_data/${c.ownAux}`, { event_id: c.event }),
  ],
  [`DELETE ${api}/event_aux_data/:id`]: (c) => [json('DELETE', `${api}/event_aux_data/${c.aux}`)],
  // A copied lowering's recordings are the ship's (docs/video.md#ship-to-shore).
  [`POST ${api}/lowerings/:id/recordings`]: (c) => [
    json('POST', `${api}/lowerings/${c.lowering}/recordings`, {
      camera: 'shorecam',
      start_ts: '2023-03-15T00:00:00.000Z',
      copies: [{ uri: 'video/none.mp4', role: 'proxy' }],
    }),
  ],
  [`POST ${api}/lowerings/:id/recordings/import`]: (c) => [
    json('POST', `${api}/lowerings/${c.lowering}/recordings/import`, {
      csv: 'camera,start_ts,uri,role\nshorecam,2023-03-15T00:00:00.000Z,video/none.mp4,proxy\n',
    }),
  ],
  [`PATCH ${api}/recordings/:id`]: (c) => [json('PATCH', `${api}/recordings/${c.recording}`, { camera: 'shorecam' })],
  [`DELETE ${api}/recordings/:id`]: (c) => [json('DELETE', `${api}/recordings/${c.recording}`)],
  [`POST ${api}/recordings/:id/proxy`]: (c) => [json('POST', `${api}/recordings/${c.recording}/proxy`)],
  [`PUT ${api}/lowerings/:id/camera_offsets/:camera`]: (c) => [
    json('PUT', `${api}/lowerings/${c.lowering}/camera_offsets/cam1`, { offset_ms: 1000 }),
  ],
  [`POST ${api}/events/:id/framegrab`]: (c) => [json('POST', `${api}/events/${c.event}/framegrab`)],
  ...Object.fromEntries(
    (['cruises', 'lowerings'] as const).flatMap((kind) => {
      const id = (c: Copies) => (kind === 'cruises' ? c.cruise : c.lowering);
      return [
        [
          `POST ${files}/${kind}/:id`,
          (c: Copies) => [
            {
              method: 'POST',
              url: `${files}/${kind}/${id(c)}`,
              raw: multipart([{ name: 'file', filename: 'shore.txt', contentType: 'text/plain', data: 'x' }]),
            },
          ],
        ],
        [
          `POST ${files}/${kind}/filepond/process/:id`,
          (c: Copies) => [
            { method: 'POST', url: `${files}/${kind}/filepond/process/${id(c)}`, raw: filepondBody('shore.txt', 'x') },
          ],
        ],
        [
          `DELETE ${files}/${kind}/*`,
          (c: Copies) => [json('DELETE', `${files}/${kind}/${kind === 'cruises' ? c.cruiseFile : c.loweringFile}`)],
        ],
      ];
    }),
  ),
  [`POST ${files}/images/filepond/process/:id`]: (c) => [
    {
      method: 'POST',
      url: `${files}/images/filepond/process/${c.event}`,
      raw: multipart([{ name: 'filepond', filename: 'pic.png', contentType: 'image/png', data: tinyPng }]),
    },
  ],
  [`DELETE ${files}/images/filepond/revert`]: (c) => [
    {
      method: 'DELETE',
      url: `${files}/images/filepond/revert`,
      raw: { payload: c.picture, headers: { 'content-type': 'text/plain' } },
    },
  ],
  [`DELETE ${files}/images/*`]: (c) => [
    json('DELETE', `${files}/images/${c.picture}`),
    json('DELETE', `${files}/images/${c.event}/${c.picture}`),
  ],
};

/** The bulk routes (`origin: 'bulk'`), by route: they run and leave every copy where it was. */
const bulkCalls: Record<string, Call | ((c: Copies) => Call)> = {
  // The frame job grabs for the shore's own events only (docs/video.md#ship-to-shore).
  [`POST ${api}/lowerings/:id/framegrabs`]: (c) => json('POST', `${api}/lowerings/${c.lowering}/framegrabs`),
  [`DELETE ${api}/events`]: json('DELETE', `${api}/events?value=COPIED`),
  [`DELETE ${api}/events/all`]: json('DELETE', `${api}/events/all`),
  [`DELETE ${api}/event_templates/all`]: json('DELETE', `${api}/event_templates/all`),
  [`DELETE ${api}/lowerings/all`]: json('DELETE', `${api}/lowerings/all`),
  [`DELETE ${api}/cruises/all`]: json('DELETE', `${api}/cruises/all`),
  // Writes the managers' records of the named events; a copied event gets none (aux-managers.service.ts).
  [`POST ${api}/aux_managers/backfill`]: json('POST', `${api}/aux_managers/backfill`, {
    event_ids: ['5981f167212b348aed7fa9f5'],
    dry_run: false,
  }),
};

const declaredChecks = (origin: unknown) => origin !== undefined && origin !== 'none' && origin !== 'bulk';

describe.each(engines)('records copied from a ship, on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let copies: Copies;

  async function call(c: Call, token = admin) {
    return t.app.inject({
      method: c.method,
      url: c.url,
      headers: { authorization: `Bearer ${token}`, ...(c.raw?.headers ?? {}) },
      ...(c.raw ? { payload: c.raw.payload } : c.body !== undefined ? { payload: c.body as object } : {}),
    });
  }

  async function ok(c: Call): Promise<Record<string, unknown>> {
    const res = await call(c);
    if (res.statusCode >= 300) throw new Error(`${c.method} ${c.url}: ${res.statusCode} ${res.body}`);
    return res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : { text: res.body };
  }

  /** Every copied record's row, and the files of the copied cruise, lowering and event. */
  async function copiedState(): Promise<unknown> {
    const db = t.ctx.database.db;
    const row = (table: 'cruises' | 'lowerings' | 'events' | 'event_aux_data' | 'event_templates', id: string) =>
      db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
    const list = (dir: string) => {
      try {
        return readdirSync(dir).sort();
      } catch {
        return [];
      }
    };
    return {
      cruise: await row('cruises', copies.cruise),
      lowering: await row('lowerings', copies.lowering),
      event: await row('events', copies.event),
      aux: await db
        .selectFrom('event_aux_data')
        .selectAll()
        .where('event_id', '=', copies.event)
        .orderBy('id')
        .execute(),
      template: await row('event_templates', copies.template),
      cruiseFiles: list(path.join(t.ctx.paths.cruises, copies.cruise)),
      loweringFiles: list(path.join(t.ctx.paths.lowerings, copies.lowering)),
      pictures: list(t.ctx.paths.images).filter((n) => n.startsWith(copies.event)),
    };
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin', 'demo');
    const cruise = await createCruise(t, admin, { cruise_id: 'COPY1' });
    const lowering = await createLowering(t, admin, { lowering_id: 'COPY1' });
    const event = (await ok(json('POST', `${api}/events`, { event_value: 'COPIED', ts: '2023-03-15T00:00:00.000Z' })))
      .insertedId as string;
    const aux = (
      await ok(
        json('POST', `${api}/event_aux_data`, {
          event_id: event,
          data_source: 'vehicleRealtimeNavData',
          data_array: [{ data_name: 'depth', data_value: '2000', data_uom: 'm' }],
        }),
      )
    ).insertedId as string;
    const template = (
      await ok(
        json('POST', `${api}/event_templates`, {
          event_name: 'COPIED',
          event_value: 'COPIED',
          event_free_text_required: false,
          system_template: false,
          event_options: [],
        }),
      )
    ).insertedId as string;
    const picture = (
      await ok({
        method: 'POST',
        url: `${files}/images/filepond/process/${event}`,
        raw: multipart([{ name: 'filepond', filename: 'pic.png', contentType: 'image/png', data: tinyPng }]),
      })
    ).text as string;
    for (const [kind, id] of [
      ['cruises', cruise],
      ['lowerings', lowering],
    ] as const) {
      await ok({
        method: 'POST',
        url: `${files}/${kind}/${id}`,
        raw: multipart([{ name: 'file', filename: 'ship.txt', contentType: 'text/plain', data: 'from the ship' }]),
      });
    }
    const ownEvent = (await ok(json('POST', `${api}/events`, { event_value: 'OWN' }))).insertedId as string;
    const ownAux = (
      await ok(
        json('POST', `${api}/event_aux_data`, {
          event_id: ownEvent,
          data_source: 'shoreNav',
          data_array: [{ data_name: 'depth', data_value: '3', data_uom: 'm' }],
        }),
      )
    ).insertedId as string;
    copies = {
      cruise,
      lowering,
      event,
      aux,
      template,
      picture,
      cruiseFile: `${cruise}/ship.txt`,
      loweringFile: `${lowering}/ship.txt`,
      ownEvent,
      ownAux,
      recording: newObjectId(),
    };
    // Marked as the follower marks what it copies from a ship.
    const shipId = newObjectId();
    const db = t.ctx.database.db;
    await db
      .insertInto('recordings')
      .values({
        id: copies.recording,
        lowering_id: lowering,
        camera: 'cam1',
        start_ts: Date.parse('2023-03-15T00:00:00.000Z'),
        duration_ms: 60_000,
        created_at: Date.now(),
      })
      .execute();
    await db
      .insertInto('sync_ships')
      .values({
        id: shipId,
        name: shipName,
        url: 'http://ship.invalid',
        device_key: 'k',
        enabled: 0,
        state: 'paused',
        behind_records: 0,
        behind_bytes: 0,
        created_at: Date.now(),
      })
      .execute();
    const marks = [
      ['cruise', cruise],
      ['lowering', lowering],
      ['event', event],
      ['event_aux_data', aux],
      ['event_template', template],
    ] as const;
    await db
      .insertInto('sync_origins')
      .values(marks.map(([record_type, record_id]) => ({ record_type, record_id, ship_id: shipId })))
      .execute();
    t.ctx.bus.publish(internalChannels.shipsChanged, { shipId });
  });

  afterAll(async () => {
    await t.close();
  });

  it('every write route declares how it stands to copied records, and each that may change one has a case', () => {
    const writes = t.routes.filter((r) => writeMethods.has(r.method) && r.url.startsWith('/sealog-server/'));
    expect(writes.length).toBeGreaterThan(40);
    const undeclared = writes.filter((r) => r.config.origin === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
    const guarded = writes.filter((r) => declaredChecks(r.config.origin)).map((r) => `${r.method} ${r.url}`);
    expect(guarded.filter((key) => !cases[key])).toEqual([]);
    expect(Object.keys(cases).filter((key) => !guarded.includes(key))).toEqual([]);
    const bulk = writes.filter((r) => r.config.origin === 'bulk').map((r) => `${r.method} ${r.url}`);
    expect(bulk.sort()).toEqual(Object.keys(bulkCalls).sort());
  });

  it('refuses every way of changing a copied record with the read-only message, and changes nothing', async () => {
    const before = await copiedState();
    const failures: string[] = [];
    for (const [route, calls] of Object.entries(cases)) {
      for (const c of calls(copies)) {
        const res = await call(c);
        const message = res.statusCode === 403 ? (res.json() as { message?: string }).message : undefined;
        if (res.statusCode !== 403 || message !== shipRecordReadOnlyMessage(shipName))
          failures.push(`${route} (${c.method} ${c.url}): ${res.statusCode} ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await copiedState()).toEqual(before);
  });

  it('still takes a comment on a copied event, and the shore’s own records as before', async () => {
    const res = await call(
      json('PATCH', `${api}/events/${copies.event}`, {
        event_options: [{ event_option_name: 'event_comment', event_option_value: 'seen from shore' }],
      }),
    );
    expect(res.statusCode).toBe(204);
    const own = await call(
      json('PATCH', `${api}/event_aux_data/${copies.ownAux}`, {
        data_array: [{ data_name: 'depth', data_value: '4', data_uom: 'm' }],
      }),
    );
    expect(own.statusCode).toBe(204);
  });

  it('bulk routes leave the copies where they are', async () => {
    const before = await copiedState();
    for (const bulk of Object.values(bulkCalls)) {
      const c = typeof bulk === 'function' ? bulk(copies) : bulk;
      const res = await call(c);
      expect(res.statusCode, `${c.method} ${c.url}: ${res.body}`).toBeLessThan(300);
    }
    expect(await copiedState()).toEqual(before);
  });

  it('keeps the records of a ship no longer followed read-only under its name', async () => {
    const ship = await t.ctx.database.db.selectFrom('sync_ships').select('id').executeTakeFirstOrThrow();
    expect((await call(json('DELETE', `${api}/ships/${ship.id}`))).statusCode).toBe(204);
    const before = await copiedState();
    for (const c of [
      json('PATCH', `${api}/events/${copies.event}`, { event_value: 'MINE NOW' }),
      json('PATCH', `${api}/cruises/${copies.cruise}`, { cruise_location: 'mine now' }),
      json('DELETE', `${api}/event_aux_data/${copies.aux}`),
    ]) {
      const res = await call(c);
      expect(res.statusCode).toBe(403);
      expect((res.json() as { message: string }).message).toBe(shipRecordReadOnlyMessage(shipName));
    }
    expect(await copiedState()).toEqual(before);
    const own = (await ok(json('POST', `${api}/events`, { event_value: 'OWN' }))).insertedId as string;
    const got = await call(json('PATCH', `${api}/events/${own}`, { event_value: 'STILL OURS' }));
    expect(got.statusCode).toBe(204);

    // Nor does another ship: its changes to the removed ship's records are left out.
    const other = newObjectId();
    await t.ctx.database.db
      .insertInto('sync_ships')
      .values({
        id: other,
        name: 'Other ship',
        url: 'http://other.invalid',
        device_key: 'k',
        enabled: 0,
        state: 'paused',
        behind_records: 0,
        behind_bytes: 0,
        created_at: Date.now(),
      })
      .execute();
    const change = (
      record_type: SyncChange['record_type'],
      record_id: string,
      record: Record<string, unknown> | null,
    ) => ({ seq: '1', op: record ? 'upsert' : 'delete', record_type, record_id, record }) as SyncChange;
    const event = (await t.ctx.database.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', copies.event)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    const newAux = newObjectId();
    await applyChanges(
      t.ctx,
      { id: other },
      [
        change('event', copies.event, { ...event, event_value: 'TAKEN OVER' }),
        change('event_aux_data', newAux, {
          id: newAux,
          event_id: copies.event,
          data_source: 'otherNav',
          data_array: '[]',
        }),
        change('event_aux_data', copies.aux, null),
        change('cruise', copies.cruise, null),
      ],
      'next',
    );
    expect(await copiedState()).toEqual(before);
  });
});

describe.each(engines)('a copied event the caller may not see, on %s', (engine) => {
  it('is answered as a missing one, never as read-only (which would tell that it exists)', async () => {
    const t = await createTestApp(engine, { useAccessControl: true });
    try {
      const admin = await t.login('admin', 'demo');
      const member = await createUser(t, admin, 'member', ['event_watcher']);
      const outsider = (await createUser(t, admin, 'outsider', ['event_manager'])).token;
      const cruise = await createCruise(t, admin, { cruise_id: 'HIDDEN1' });
      await t.api('PATCH', `/cruises/${cruise}/permissions`, { token: admin, body: { add: [member.id] } });
      const made = await t.api('POST', '/events', {
        token: admin,
        body: { event_value: 'COPIED', ts: '2023-03-15T00:00:00.000Z' },
      });
      const event = (made.json() as { insertedId: string }).insertedId;
      const shipId = newObjectId();
      const db = t.ctx.database.db;
      await db
        .insertInto('sync_ships')
        .values({
          id: shipId,
          name: shipName,
          url: 'http://ship.invalid',
          device_key: 'k',
          enabled: 0,
          state: 'paused',
          behind_records: 0,
          behind_bytes: 0,
          created_at: Date.now(),
        })
        .execute();
      // The restricted cruise and its event both came from the ship: a record hides only its own
      // origin's events (docs/public-archive.md#records-from-a-ship).
      await db
        .insertInto('sync_origins')
        .values([
          { record_type: 'event', record_id: event, ship_id: shipId },
          { record_type: 'cruise', record_id: cruise, ship_id: shipId },
        ])
        .execute();
      t.ctx.bus.publish(internalChannels.shipsChanged, { shipId });
      const missing = newObjectId();
      const answers = async (id: string) => [
        (await t.api('PATCH', `/events/${id}`, { token: outsider, body: { event_value: 'X' } })).json(),
        (
          await t.api('POST', '/event_aux_data', {
            token: outsider,
            body: { event_id: id, data_source: 'nav', data_array: [] },
          })
        ).json(),
      ];
      const hidden = await answers(event);
      const none = await answers(missing);
      expect(JSON.stringify(hidden).replaceAll(event, missing)).toBe(JSON.stringify(none));
      // An admin, who sees it, is told it is read-only.
      const seen = await t.api('PATCH', `/events/${event}`, { token: admin, body: { event_value: 'X' } });
      expect((seen.json() as { message: string }).message).toBe(shipRecordReadOnlyMessage(shipName));
    } finally {
      await t.close();
    }
  });
});

describe('the origin declaration', () => {
  it('is required of every write route: a server with a route that lacks it does not start', async () => {
    const app = Fastify();
    registerOriginGuard(app, {} as AppContext, {
      comment: () => Promise.resolve(false),
      hidden: () => Promise.resolve(false),
    });
    expect(() => app.post('/sealog-server/api/v1/anything', async () => ({}))).toThrow(/config\.origin/);
    app.post('/sealog-server/api/v1/declared', { config: { origin: 'none' } }, async () => ({}));
    app.get('/sealog-server/api/v1/read', async () => ({}));
    await app.close();
  });
});
