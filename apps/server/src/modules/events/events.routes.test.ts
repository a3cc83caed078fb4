import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newObjectId, type WsChannel } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import {
  framegrabData,
  insertAux,
  insertCruise,
  insertEvents,
  insertLowering,
  navData,
} from '../../../test/table-fixtures.js';

type Json = Record<string, unknown>;

const T0 = Date.UTC(2024, 0, 1);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** Events with known text, so every filter has an exact expected answer. */
const fixture = [
  { key: 'a', ts: at(1), event_value: 'ASNAP', event_author: 'admin' },
  {
    key: 'b',
    ts: at(2),
    event_value: 'FISH',
    event_author: 'alice',
    event_free_text: 'big one',
    event_options: [{ event_option_name: 'status', event_option_value: 'Alive Octopus' }],
  },
  { key: 'c', ts: at(3), event_value: 'CORAL', event_author: 'bob', event_free_text: 'coral reef 50% cover' },
  {
    key: 'd',
    ts: at(4),
    event_value: 'SAMPLE',
    event_author: 'Alice',
    event_options: [{ event_option_name: 'sample_id', event_option_value: 'S-01' }],
  },
  { key: 'e', ts: at(5), event_value: 'FREE_FORM', event_author: 'carol', event_free_text: 'ab_c [test] (x) a.b' },
  { key: 'f', ts: at(6), event_value: 'ASNAP', event_author: 'admin' },
  { key: 'h', ts: at(7), event_value: 'Fish Count', event_author: 'dave', event_free_text: 'ÉCHO line' },
  // In the future: never in the global lists (their window ends now).
  { key: 'g', ts: Date.now() + 86_400_000, event_value: 'FISH', event_author: 'alice' },
] as const;

describe.each(engines)('events API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  const id: Record<string, string> = {};
  const key = (eventId: string) => Object.entries(id).find(([, v]) => v === eventId)?.[0] ?? eventId;

  beforeAll(async () => {
    t = await createTestApp(engine);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
  });
  afterAll(() => t?.close());

  const wipe = async () => {
    const db = t.ctx.database.db;
    await db.deleteFrom('event_aux_data').execute();
    await db.deleteFrom('events').execute();
    await db.deleteFrom('lowerings').execute();
    await db.deleteFrom('cruises').execute();
  };

  const get = (url: string, token: string | undefined = admin) => t.api('GET', url, { token });
  const keysOf = (body: unknown) => (body as Json[]).map((e) => key(e.id as string)).join('');

  describe('filters', () => {
    beforeAll(async () => {
      await wipe();
      const ids = await insertEvents(
        t.ctx.database.db,
        fixture.map(({ key: _k, ...e }) => ({ ...e })),
      );
      fixture.forEach((e, i) => (id[e.key] = ids[i]!));
      await insertAux(t.ctx.database.db, [navData(id.b!, 1), navData(id.d!, 2), framegrabData(id.d!, 2)]);
    });

    /**
     * The same filter through both query paths: a small limit (one index-driven page, FTS on
     * SQLite) and no limit (keyset chunks with per-row checks), plus the count route.
     */
    const expectFilter = async (query: string, expected: string) => {
      const sep = query ? '&' : '';
      const streamed = await get(`/events?${query}`);
      const paged = await get(`/events?${query}${sep}limit=100`);
      const count = await get(`/events/count?${query}`);
      if (expected === '') {
        expect(streamed.statusCode, streamed.body).toBe(404);
        expect(streamed.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'No records found' });
        expect(paged.statusCode).toBe(404);
      } else {
        expect(streamed.statusCode, streamed.body).toBe(200);
        expect(keysOf(streamed.json()), `streamed ${query}`).toBe(expected);
        expect(keysOf(paged.json()), `paged ${query}`).toBe(expected);
      }
      expect(count.json(), `count ${query}`).toEqual({ events: expected.length });
    };

    it('lists every event up to now, oldest first', () => expectFilter('', 'abcdefh'));

    it('value: case-insensitive substring, comma lists and repeated keys OR-ed', async () => {
      await expectFilter('value=fis', 'bh');
      await expectFilter('value=FISH,CORAL', 'bch');
      await expectFilter('value=FISH&value=CORAL', 'bch');
      await expectFilter('value=%20fish%20,%20,', 'bh');
    });

    it('value: ! excludes, alone or with includes', async () => {
      await expectFilter('value=!ASNAP', 'bcdeh');
      await expectFilter('value=!asnap,!fish', 'cde');
      await expectFilter('value=fish&value=!count', 'b');
      await expectFilter('value=!nothing-like-this', 'abcdefh');
      await expectFilter('value=zzz', '');
    });

    it('fulltext: value, free text, option values and author; ! looks at the value only', async () => {
      await expectFilter('fulltext=octopus', 'b');
      await expectFilter('fulltext=BIG', 'b');
      await expectFilter('fulltext=alice', 'bd');
      await expectFilter('fulltext=s-01', 'd');
      await expectFilter('fulltext=octopus,reef', 'bc');
      await expectFilter('fulltext=!ASNAP', 'bcdeh');
      await expectFilter('fulltext=!ASNAP&fulltext=alice', 'bd');
    });

    it('short terms (under 3 characters) match too', async () => {
      await expectFilter('fulltext=oc', 'b');
      await expectFilter('author=bo', 'c');
      await expectFilter('freetext=%25', 'c');
    });

    it('input is never a pattern: %, _, regex and FTS syntax are literal', async () => {
      await expectFilter('freetext=50%25', 'c');
      await expectFilter('freetext=_', 'e');
      await expectFilter('freetext=ab_c', 'e');
      await expectFilter('freetext=abxc', '');
      await expectFilter('fulltext=%5Btest%5D', 'e');
      await expectFilter('fulltext=(x)', 'e');
      await expectFilter('fulltext=a.b', 'e');
      await expectFilter('fulltext=.*', '');
      await expectFilter('fulltext=%22big%22', '');
      await expectFilter('author=a*', '');
    });

    it('author and freetext: case-insensitive substrings, OR-ed lists', async () => {
      await expectFilter('author=ALI', 'bd');
      await expectFilter('author=ali,bob', 'bcd');
      await expectFilter('freetext=REEF', 'c');
    });

    it('matches accented letters without regard to case (terms of 3+ characters)', async () => {
      await expectFilter('fulltext=écho', 'h');
      await expectFilter('fulltext=ÉCHO', 'h');
    });

    it('datasource: events with aux data from a matching source (substring on /events)', async () => {
      await expectFilter('datasource=nav', 'bd');
      await expectFilter('datasource=FRAME', 'd');
      await expectFilter('datasource=framegrabber,vehicleRealtimeNavData', 'bd');
      await expectFilter('datasource=nothing', '');
      await expectFilter('datasource=nav&value=fish', 'b');
    });

    it('combines conditions with AND', () => expectFilter('value=!ASNAP&author=alice&fulltext=octopus', 'b'));

    it('startTS/stopTS bound the window; values outside it fall back to its bounds', async () => {
      await expectFilter(`startTS=${at(2)}&stopTS=${at(4)}`, 'bcd');
      await expectFilter(`startTS=${at(5)}`, 'efh');
      await expectFilter(`startTS=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`, 'abcdefh');
      await expectFilter(`stopTS=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`, 'abcdefh');
      await expectFilter(`startTS=1990-01-01&stopTS=${at(1)}`, 'a');
    });

    it('sorts newest first on sort=newest, pages with offset then limit', async () => {
      expect(keysOf((await get('/events?sort=newest')).json())).toBe('hfedcba');
      expect(keysOf((await get('/events?offset=2&limit=2')).json())).toBe('cd');
      expect(keysOf((await get('/events?sort=newest&offset=1&limit=2')).json())).toBe('fe');
      expect(keysOf((await get('/events?offset=5')).json())).toBe('fh');
      expect(keysOf((await get('/events?sort=anything&limit=1')).json())).toBe('a');
      expect((await get('/events?offset=7')).statusCode).toBe(404);
      expect(keysOf((await get('/events?limit=5000&offset=1&value=!ASNAP')).json())).toBe('cdeh');
    });

    it('refuses bad query input with 400 and a message naming the problem', async () => {
      const cases: Array<[string, string]> = [
        ['limit=0', '"limit" must be greater than or equal to 1'],
        ['limit=x', '"limit" must be a number'],
        ['offset=-1', '"offset" must be zero or more'],
        ['startTS=yesterday', '"startTS" must be a valid ISO 8601 date'],
        [`startTS=${at(5)}&stopTS=${at(1)}`, '"stopTS" must be later than "startTS"'],
        ['format=xml', '"format" must be one of [json, csv]'],
        ['add_record_ids=maybe', '"add_record_ids" must be a boolean'],
        ['bogus=1', '"bogus" is not allowed'],
      ];
      for (const [query, message] of cases) {
        const res = await get(`/events?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json(), query).toEqual({ statusCode: 400, error: 'Bad Request', message });
      }
      // A ?token= is read before the header (docs/wire.md#tokens): a bad one is a 401 whatever the header says.
      expect((await get('/events?token=abc')).statusCode).toBe(401);
    });

    it('the count answers {events: 0} with 200 when nothing matches', async () => {
      const res = await get('/events/count?value=nothing');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ events: 0 });
    });

    it('answers CSV on format=csv, also with a datasource filter (Sealog ignored it)', async () => {
      const res = await get('/events?format=csv&value=fish&datasource=nav');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.body).toBe(
        '"id","ts","event_value","event_author","event_free_text","event_option.status"\n' +
          `"${id.b}","${at(2)}","FISH","alice","big one","Alive Octopus"`,
      );
    });

    it('adds the human cruise_id and lowering_id of the windows holding each event on add_record_ids', async () => {
      const cruise = await insertCruise(t.ctx.database.db, { cruise_id: 'AT37-14', start_ts: at(0), stop_ts: at(10) });
      const lowering = await insertLowering(t.ctx.database.db, {
        lowering_id: '4928',
        start_ts: at(3),
        stop_ts: at(4),
      });
      try {
        const list = (await get('/events?add_record_ids=true&value=!ASNAP')).json() as Json[];
        expect(list.map((e) => [key(e.id as string), e.cruise_id, e.lowering_id])).toEqual([
          ['b', 'AT37-14', undefined],
          ['c', 'AT37-14', '4928'],
          ['d', 'AT37-14', '4928'],
          ['e', 'AT37-14', undefined],
          ['h', 'AT37-14', undefined],
        ]);
        const csv = (await get('/events?add_record_ids=true&format=csv&value=CORAL')).body;
        expect(csv).toBe(
          `"id","cruise_id","lowering_id","ts","event_value","event_author","event_free_text"\n"${id.c}","AT37-14","4928","${at(3)}","CORAL","bob","coral reef 50% cover"`,
        );
        const one = (await get(`/events/${id.c}?add_record_ids=true`)).json() as Json;
        expect([one.cruise_id, one.lowering_id]).toEqual(['AT37-14', '4928']);
      } finally {
        await t.ctx.database.db.deleteFrom('cruises').where('id', '=', cruise).execute();
        await t.ctx.database.db.deleteFrom('lowerings').where('id', '=', lowering).execute();
      }
    });
  });

  describe('by cruise and by lowering', () => {
    let cruise: string;
    let lowering: string;
    let hidden: string;
    beforeAll(async () => {
      await wipe();
      const ids = await insertEvents(
        t.ctx.database.db,
        fixture.map(({ key: _k, ...e }) => ({ ...e })),
      );
      fixture.forEach((e, i) => (id[e.key] = ids[i]!));
      await insertAux(t.ctx.database.db, [navData(id.b!, 1)]);
      cruise = await insertCruise(t.ctx.database.db, { cruise_id: 'C1', start_ts: at(2), stop_ts: at(5) });
      lowering = await insertLowering(t.ctx.database.db, { lowering_id: 'L1', start_ts: at(3), stop_ts: at(6) });
      hidden = await insertLowering(t.ctx.database.db, {
        lowering_id: 'H1',
        start_ts: at(0),
        stop_ts: at(9),
        hidden: true,
        accessList: [users.ids.event_logger!],
      });
    });

    it('uses the record window (inclusive) and the same filters', async () => {
      expect(keysOf((await get(`/events/bycruise/${cruise}`)).json())).toBe('bcde');
      expect(keysOf((await get(`/events/bylowering/${lowering}?value=!ASNAP`)).json())).toBe('cde');
      expect(keysOf((await get(`/events/bylowering/${lowering}?sort=newest&limit=2`)).json())).toBe('fe');
      expect((await get(`/events/bycruise/${cruise}/count?fulltext=alice`)).json()).toEqual({ events: 2 });
      expect((await get(`/events/bylowering/${lowering}/count`)).json()).toEqual({ events: 4 });
      expect(keysOf((await get(`/events/bycruise/${cruise}?datasource=nav`)).json())).toBe('b');
    });

    it('clamps startTS/stopTS to the record window', async () => {
      expect(keysOf((await get(`/events/bycruise/${cruise}?startTS=${at(0)}&stopTS=${at(3)}`)).json())).toBe('bc');
      expect(keysOf((await get(`/events/bycruise/${cruise}?startTS=${at(4)}&stopTS=${at(60)}`)).json())).toBe('de');
    });

    it('answers 404 No records found for an empty window and {events: 0} for its count', async () => {
      const empty = await insertLowering(t.ctx.database.db, { start_ts: at(100), stop_ts: at(200) });
      expect((await get(`/events/bylowering/${empty}`)).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'No records found',
      });
      expect((await get(`/events/bylowering/${empty}/count`)).json()).toEqual({ events: 0 });
    });

    it("answers Sealog's not-found messages for unknown records, 400 for bad ids", async () => {
      const missing = newObjectId();
      const expectMessage = async (url: string, status: number, message: string) => {
        const res = await get(url);
        expect(res.statusCode, url).toBe(status);
        expect((res.json() as Json).message, url).toBe(message);
      };
      await expectMessage(`/events/bycruise/${missing}`, 400, `No cruise record found for id: ${missing}`);
      await expectMessage(`/events/bycruise/${missing}/count`, 400, `No record cruise found for id: ${missing}`);
      await expectMessage(`/events/bylowering/${missing}`, 400, `No record lowering found for id: ${missing}`);
      await expectMessage(`/events/bylowering/${missing}/count`, 400, `No record lowering found for id: ${missing}`);
      await expectMessage('/events/bycruise/nothex', 400, '"id" must be a 24-character hex id');
      await expectMessage('/events/bycruise/zzzzzzzzzzzzzzzzzzzzzzzz', 400, '"id" must be a 24-character hex id');
    });

    it('with access control, only admins and members read a record that has an access list', async () => {
      const strict = await createTestApp(engine, { useAccessControl: true });
      try {
        const strictUsers = await createRoleUsers(strict);
        const restricted = await insertLowering(strict.ctx.database.db, {
          start_ts: at(0),
          stop_ts: at(9),
          hidden: true,
          accessList: [strictUsers.ids.event_logger!],
        });
        await insertEvents(strict.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
        const read = (token: string | undefined) => strict.api('GET', `/events/bylowering/${restricted}`, { token });
        expect((await read(strictUsers.tokens.admin)).statusCode).toBe(200);
        expect((await read(strictUsers.tokens.event_logger)).statusCode).toBe(200);
        const refused = await read(strictUsers.tokens.event_watcher);
        expect(refused.statusCode).toBe(401);
        expect((refused.json() as Json).message).toBe('User not authorized to retrieve this lowering');
        expect(
          (
            await strict.api('GET', `/events/bylowering/${restricted}/count`, {
              token: strictUsers.tokens.event_watcher,
            })
          ).statusCode,
        ).toBe(401);
      } finally {
        await strict.close();
      }
    });

    it('without access control a hidden record is read by id like the record itself', async () => {
      expect((await get(`/events/bylowering/${hidden}`, users.tokens.event_watcher)).statusCode).toBe(200);
    });
  });

  describe('one event', () => {
    beforeEach(wipe);

    it('answers JSON, or one-row CSV on format=csv; 404 for an unknown id, 400 for a bad one', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [
        {
          ts: at(1),
          event_value: 'FISH',
          event_author: 'mt',
          event_free_text: 'line1\nline2',
          event_options: [{ event_option_name: 'a', event_option_value: 'x' }],
        },
      ]);
      const json = await get(`/events/${eventId}`);
      expect(json.statusCode).toBe(200);
      expect(json.json()).toEqual({
        id: eventId,
        event_author: 'mt',
        ts: at(1),
        event_value: 'FISH',
        event_options: [{ event_option_name: 'a', event_option_value: 'x' }],
        event_free_text: 'line1\nline2',
      });
      const csv = await get(`/events/${eventId}?format=csv`);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.body).toBe(
        `"id","ts","event_value","event_author","event_free_text","event_option.a"\n"${eventId}","${at(1)}","FISH","mt","line1\\nline2","x"`,
      );
      const missing = newObjectId();
      expect((await get(`/events/${missing}`)).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `No record found for id: ${missing}`,
      });
      expect((await get('/events/123')).statusCode).toBe(400);
      expect((await get(`/events/${eventId}?sort=newest`)).statusCode).toBe(400);
    });
  });

  describe('create', () => {
    beforeEach(wipe);

    it('stores defaults: author = caller, ts = now, options [], free text ""; answers 201 with the event', async () => {
      const before = Date.now();
      const res = await t.api('POST', '/events', { token: users.tokens.event_logger, body: { event_value: 'FISH' } });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json() as { acknowledged: boolean; insertedId: string; insertedEvent: Json };
      expect(body.acknowledged).toBe(true);
      expect(body.insertedEvent).toEqual({
        id: body.insertedId,
        event_author: 'u_event_logger',
        ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        event_value: 'FISH',
        event_options: [],
        event_free_text: '',
      });
      expect(Date.parse(body.insertedEvent.ts as string)).toBeGreaterThanOrEqual(before - 5);
      expect((await get(`/events/${body.insertedId}`)).json()).toEqual(body.insertedEvent);
    });

    it('normalises option names (lower case, whitespace runs → _) and keeps values as given', async () => {
      const res = await t.api('POST', '/events', {
        token: admin,
        body: {
          event_value: 'VEHICLE',
          event_options: [
            { event_option_name: 'Fish Type  Big', event_option_value: 'Eel' },
            { event_option_name: 'Milestone', event_option_value: 'Off deck' },
            { event_option_name: 'empty', event_option_value: '' },
          ],
        },
      });
      expect((res.json() as { insertedEvent: Json }).insertedEvent.event_options).toEqual([
        { event_option_name: 'fish_type_big', event_option_value: 'Eel' },
        { event_option_name: 'milestone', event_option_value: 'Off deck' },
        { event_option_name: 'empty', event_option_value: '' },
      ]);
    });

    it('takes a client id, author and ts with 0-6 fractional digits; a repeated id is 400 duplicate event ID', async () => {
      const eventId = newObjectId();
      const body = {
        id: eventId,
        event_value: 'ASNAP',
        event_author: 'someone',
        ts: '2023-03-14T22:15:39.479123Z',
        event_free_text: 'x',
      };
      const res = await t.api('POST', '/events', { token: admin, body });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        insertedId: eventId,
        insertedEvent: { ts: '2023-03-14T22:15:39.479Z', event_author: 'someone' },
      });
      for (const ts of ['2023-03-14T22:15:39Z', '2023-03-14T22:15:39.4Z', '2023-03-15']) {
        expect((await t.api('POST', '/events', { token: admin, body: { event_value: 'X', ts } })).statusCode, ts).toBe(
          201,
        );
      }
      const again = await t.api('POST', '/events', { token: admin, body });
      expect(again.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'duplicate event ID' });
    });

    it('concurrent creates are each stored once; a repeated id among them fails only its own request', async () => {
      await wipe();
      const repeated = newObjectId();
      const bodies = Array.from({ length: 30 }, (_, i) =>
        i === 10 || i === 20 ? { id: repeated, event_value: `REPEAT ${i}` } : { event_value: `BATCH ${i}` },
      );
      const answers = await Promise.all(bodies.map((body) => t.api('POST', '/events', { token: admin, body })));
      const statuses = answers.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(29);
      const refused = answers.filter((r) => r.statusCode !== 201);
      expect(refused.map((r) => r.json())).toEqual([
        { statusCode: 400, error: 'Bad Request', message: 'duplicate event ID' },
      ]);
      const ids = answers
        .filter((r) => r.statusCode === 201)
        .map((r) => (r.json() as { insertedId: string }).insertedId);
      expect(new Set(ids).size).toBe(29);
      const stored = await t.ctx.database.db.selectFrom('events').select(['id', 'event_value']).execute();
      expect(stored.map((r) => r.id).sort()).toEqual([...ids].sort());
      // The stored repeat is the one whose request was answered 201.
      const winner = answers.findIndex((r) => r.statusCode === 201 && (r.json() as Json).insertedId === repeated);
      expect(stored.find((r) => r.id === repeated)?.event_value).toBe(bodies[winner]!.event_value);
      // One audit row per stored event: the refused create left none.
      const audited = await t.ctx.database.db
        .selectFrom('audit_log')
        .select('record_id')
        .where('record_type', '=', 'event')
        .where('action', '=', 'create')
        .where('record_id', 'in', ids)
        .execute();
      expect(audited).toHaveLength(29);
      expect((await get('/events/count')).json()).toEqual({ events: 29 });
    });

    it('refuses bad bodies with 400 naming the field, and stores nothing', async () => {
      const cases: Array<[unknown, string]> = [
        [{}, '"event_value" is required'],
        [{ event_value: '' }, '"event_value" is not allowed to be empty'],
        [{ event_value: 'x'.repeat(101) }, '"event_value" length must be less than or equal to 100 characters long'],
        [{ event_value: 'X', extra: 1 }, '"extra" is not allowed'],
        [{ event_value: 'X', ts: 'yesterday' }, '"ts" must be a valid ISO 8601 date'],
        [{ event_value: 'X', ts: 1700000000000 }, '"ts" must be a string'],
        [{ event_value: 'X', id: 'abc' }, '"id" must be a 24-character hex id'],
        [
          { event_value: 'X', event_options: [{ event_option_name: '', event_option_value: 'v' }] },
          '"event_options[0].event_option_name" is not allowed to be empty',
        ],
        [
          { event_value: 'X', event_options: [{ event_option_name: 'a' }] },
          '"event_options[0].event_option_value" is required',
        ],
        [
          { event_value: 'X', event_options: [{ event_option_name: 'a', event_option_value: 'v', x: 1 }] },
          '"event_options[0].x" is not allowed',
        ],
        [{ event_value: 'X', publish: 'yes' }, '"publish" must be a boolean'],
      ];
      for (const [body, message] of cases) {
        const res = await t.api('POST', '/events', { token: admin, body });
        expect(res.json(), JSON.stringify(body)).toEqual({ statusCode: 400, error: 'Bad Request', message });
      }
      const malformed = await t.api('POST', '/events', {
        token: admin,
        body: '{"event_value":',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Invalid request payload JSON format',
      });
      expect((await get('/events/count')).json()).toEqual({ events: 0 });
    });

    it('reads a body sent without a content type as JSON (the Python helpers do)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/sealog-server/api/v1/events',
        headers: { authorization: `Bearer ${admin}` },
        payload: Buffer.from(JSON.stringify({ event_value: 'ASNAP', event_options: [], event_free_text: '' })),
      });
      expect(res.statusCode, res.body).toBe(201);
    });
  });

  describe('update', () => {
    beforeEach(wipe);

    it('sets the given fields, replaces the options (normalised); 400 when missing; 400 for an empty body', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [
        { ts: at(1), event_value: 'FISH', event_options: [{ event_option_name: 'a', event_option_value: '1' }] },
      ]);
      // An event of unknown creator: an event manager's (a logger may change only its comment).
      const res = await t.api('PATCH', `/events/${eventId}`, {
        token: users.tokens.event_manager,
        body: {
          event_free_text: 'edited',
          event_options: [{ event_option_name: 'Event Comment', event_option_value: 'nice' }],
        },
      });
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      expect((await get(`/events/${eventId}`)).json()).toMatchObject({
        event_value: 'FISH',
        event_free_text: 'edited',
        event_options: [{ event_option_name: 'event_comment', event_option_value: 'nice' }],
      });
      const missing = newObjectId();
      expect((await t.api('PATCH', `/events/${missing}`, { token: admin, body: { event_value: 'X' } })).json()).toEqual(
        {
          statusCode: 400,
          error: 'Bad Request',
          message: `No event record found for id: ${missing}`,
        },
      );
      expect((await t.api('PATCH', `/events/${eventId}`, { token: admin, body: {} })).json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: '"eventUpdateResponse" must have at least 1 key',
      });
      expect((await t.api('PATCH', `/events/${eventId}`, { token: admin, body: { id: eventId } })).statusCode).toBe(
        400,
      );
      expect((await t.api('PATCH', `/events/${eventId}`, { token: admin, body: { publish: false } })).statusCode).toBe(
        400,
      );
    });

    it('keeps the aux data when the ts changes (Sealog deleted it) and finds the event at its new time', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      await insertAux(t.ctx.database.db, [navData(eventId!, 1)]);
      expect((await t.api('PATCH', `/events/${eventId}`, { token: admin, body: { ts: at(30) } })).statusCode).toBe(204);
      expect((await get(`/events?startTS=${at(29)}`)).json()).toMatchObject([{ id: eventId, ts: at(30) }]);
      expect((await get(`/event_aux_data?eventID=${eventId}`)).json()).toHaveLength(1);
      expect((await get(`/events/count?startTS=${at(29)}&fulltext=fish`)).json()).toEqual({ events: 1 });
    });

    it('keeps the search index in step with edits', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [
        { ts: at(1), event_value: 'FISH', event_free_text: 'first words' },
      ]);
      await t.api('PATCH', `/events/${eventId}`, {
        token: admin,
        body: {
          event_free_text: 'second thoughts',
          event_options: [{ event_option_name: 'x', event_option_value: 'octopus' }],
        },
      });
      expect((await get('/events/count?fulltext=first')).json()).toEqual({ events: 0 });
      expect((await get('/events/count?fulltext=second')).json()).toEqual({ events: 1 });
      expect((await get('/events/count?fulltext=octopus')).json()).toEqual({ events: 1 });
      expect((await get('/events?fulltext=octopus&limit=10')).json()).toHaveLength(1);
    });
  });

  describe('delete', () => {
    beforeEach(wipe);

    it('deletes one event and its aux data; 404 when missing', async () => {
      const [eventId, other] = await insertEvents(t.ctx.database.db, [
        { ts: at(1), event_value: 'FISH' },
        { ts: at(2), event_value: 'CORAL' },
      ]);
      await insertAux(t.ctx.database.db, [navData(eventId!, 1), framegrabData(eventId!, 1), navData(other!, 2)]);
      const res = await t.api('DELETE', `/events/${eventId}`, { token: admin });
      expect(res.statusCode).toBe(204);
      expect((await get(`/events/${eventId}`)).statusCode).toBe(404);
      expect((await get('/event_aux_data')).json()).toMatchObject([{ event_id: other }]);
      expect((await get('/events/count?fulltext=fish')).json()).toEqual({ events: 0 });
      const missing = newObjectId();
      expect((await t.api('DELETE', `/events/${missing}`, { token: admin })).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `No record found for id: ${missing}`,
      });
    });

    it('DELETE /events deletes what the same filters list and answers {deletedCount}', async () => {
      await insertEvents(t.ctx.database.db, [
        { ts: at(1), event_value: 'ASNAP' },
        { ts: at(2), event_value: 'FISH' },
        { ts: at(3), event_value: 'ASNAP' },
        { ts: at(4), event_value: 'ASNAP' },
      ]);
      const first = await t.api('DELETE', '/events?value=ASNAP&sort=newest&limit=2', { token: admin });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ deletedCount: 2 });
      expect(((await get('/events')).json() as Json[]).map((e) => e.ts)).toEqual([at(1), at(2)]);
      expect((await t.api('DELETE', '/events?value=nothing', { token: admin })).json()).toEqual({ deletedCount: 0 });
      expect((await t.api('DELETE', '/events?bogus=1', { token: admin })).statusCode).toBe(400);
    });

    it('DELETE /events/all wipes every event and aux record', async () => {
      const ids = await insertEvents(t.ctx.database.db, [
        { ts: at(1), event_value: 'FISH', event_free_text: 'octopus' },
        { ts: at(2), event_value: 'CORAL' },
      ]);
      await insertAux(t.ctx.database.db, [navData(ids[0]!, 1)]);
      expect((await t.api('DELETE', '/events/all', { token: admin })).statusCode).toBe(204);
      expect((await get('/events/count')).json()).toEqual({ events: 0 });
      expect((await get('/event_aux_data')).statusCode).toBe(404);
      // The index is empty too: new events are found, old ones are not.
      await insertEvents(t.ctx.database.db, [{ ts: at(3), event_value: 'SQUID', event_free_text: 'octopus again' }]);
      expect((await get('/events/count?fulltext=octopus')).json()).toEqual({ events: 1 });
      expect((await get('/events?fulltext=octopus&limit=5')).json()).toMatchObject([{ event_value: 'SQUID' }]);
    });
  });

  describe('live channels', () => {
    beforeEach(wipe);

    const capture = (...channels: WsChannel[]) => {
      const seen: Array<[string, Json]> = [];
      const offs = channels.map((c) => t.ctx.bus.subscribe(c, (payload) => seen.push([c, payload as Json])));
      return { seen, stop: () => offs.forEach((off) => off()) };
    };

    it('publishes newEvents for a live event, not for a back-dated one or with publish=false', async () => {
      const tap = capture('newEvents');
      try {
        const live = await t.api('POST', '/events', { token: admin, body: { event_value: 'LIVE' } });
        await t.api('POST', '/events', { token: admin, body: { event_value: 'OLD', ts: at(1) } });
        await t.api('POST', '/events', { token: admin, body: { event_value: 'QUIET', publish: false } });
        await t.api('POST', '/events', {
          token: admin,
          body: { event_value: 'SOON', ts: new Date(Date.now() + 60_000).toISOString() },
        });
        expect(tap.seen.map(([, p]) => p.event_value)).toEqual(['LIVE', 'SOON']);
        // The payload is a valid POST body for the repeater: the stored event, no extra keys.
        expect(tap.seen[0]![1]).toEqual((live.json() as { insertedEvent: Json }).insertedEvent);
      } finally {
        tap.stop();
      }
    });

    it('publishes updateEvents, or deleteEvents then newEvents when the ts changed', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const tap = capture('newEvents', 'updateEvents', 'deleteEvents');
      try {
        await t.api('PATCH', `/events/${eventId}`, { token: admin, body: { event_free_text: 'x' } });
        await t.api('PATCH', `/events/${eventId}`, { token: admin, body: { ts: at(1) } });
        await t.api('PATCH', `/events/${eventId}`, { token: admin, body: { ts: at(2) } });
        expect(tap.seen.map(([c]) => c)).toEqual(['updateEvents', 'updateEvents', 'deleteEvents', 'newEvents']);
        expect(tap.seen[3]![1]).toEqual({
          id: eventId,
          ts: at(2),
          event_author: 'tester',
          event_value: 'FISH',
          event_options: [],
          event_free_text: 'x',
        });
        expect(tap.seen[2]![1]).toEqual(tap.seen[3]![1]);
      } finally {
        tap.stop();
      }
    });

    it('publishes deleteEvents with the aux data on delete; bulk deletes publish nothing', async () => {
      const [eventId, other] = await insertEvents(t.ctx.database.db, [
        { ts: at(1), event_value: 'FISH' },
        { ts: at(2), event_value: 'FISH' },
      ]);
      const [auxId] = await insertAux(t.ctx.database.db, [navData(eventId!, 1)]);
      const tap = capture('deleteEvents');
      try {
        await t.api('DELETE', `/events/${eventId}`, { token: admin });
        expect(tap.seen).toHaveLength(1);
        expect(tap.seen[0]![1]).toMatchObject({
          id: eventId,
          event_value: 'FISH',
          aux_data: [{ id: auxId, event_id: eventId, data_source: 'vehicleRealtimeNavData' }],
        });
        await t.api('DELETE', '/events', { token: admin });
        await insertEvents(t.ctx.database.db, [{ ts: at(3), event_value: 'X' }]);
        await t.api('DELETE', '/events/all', { token: admin });
        expect(tap.seen).toHaveLength(1);
        expect(other).toBeDefined();
      } finally {
        tap.stop();
      }
    });
  });

  describe('roles (docs/roles-and-access.md)', () => {
    beforeEach(wipe);

    it('reads with read_events; watchers cannot write; no token is 401', async () => {
      await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      for (const who of [
        'admin',
        'cruise_manager',
        'event_manager',
        'template_manager',
        'event_logger',
        'event_watcher',
        'guest',
      ] as const) {
        expect((await get('/events', users.tokens[who])).statusCode, who).toBe(200);
      }
      expect((await t.api('GET', '/events')).statusCode).toBe(401);
      expect((await get('/events', users.tokens.disabled)).statusCode).toBe(401);
      const watcher = await t.api('POST', '/events', { token: users.tokens.event_watcher, body: { event_value: 'X' } });
      expect(watcher.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope' });
      for (const who of [
        'admin',
        'cruise_manager',
        'event_manager',
        'template_manager',
        'event_logger',
        'guest',
      ] as const) {
        expect(
          (await t.api('POST', '/events', { token: users.tokens[who], body: { event_value: 'X' } })).statusCode,
          who,
        ).toBe(201);
      }
    });

    it('admins and event managers delete any event; others only their own, within an hour of creating it', async () => {
      const create = async (token: string | undefined, body: Json = {}) =>
        (
          (await t.api('POST', '/events', { token, body: { event_value: 'X', ...body } })).json() as {
            insertedId: string;
          }
        ).insertedId;
      const del = (eventId: string, token: string | undefined) => t.api('DELETE', `/events/${eventId}`, { token });

      // The console's cancel: the logger deletes the bare event the click just made.
      expect((await del(await create(users.tokens.event_logger), users.tokens.event_logger)).statusCode).toBe(204);
      expect((await del(await create(users.tokens.guest), users.tokens.guest)).statusCode).toBe(204);
      // Someone else's event.
      const byAdmin = await create(admin);
      const refused = await del(byAdmin, users.tokens.event_logger);
      expect(refused.statusCode).toBe(403);
      expect((refused.json() as Json).message).toMatch(/Only admins and event managers/);
      expect((await del(byAdmin, users.tokens.cruise_manager)).statusCode).toBe(403);
      // The hour runs from when the server stored the event, not from the time inside its id, which
      // the client chooses: an old id stored now may go, a future id stored over an hour ago may not.
      const oldId = '5981f167212b348aed7fa9f5';
      await create(users.tokens.event_logger, { id: oldId, ts: at(1) });
      expect((await del(oldId, users.tokens.event_logger)).statusCode).toBe(204);
      const futureId = 'f981f167212b348aed7fa9f5';
      await create(users.tokens.event_logger, { id: futureId, ts: at(2) });
      await t.ctx.database.db
        .updateTable('events')
        .set({ created_at: Date.now() - 61 * 60_000 })
        .where('id', '=', futureId)
        .execute();
      expect((await del(futureId, users.tokens.event_logger)).statusCode).toBe(403);
      expect((await del(futureId, users.tokens.event_manager)).statusCode).toBe(204);
      expect((await del(byAdmin, users.tokens.event_manager)).statusCode).toBe(204);
      expect((await del(await create(users.tokens.event_logger), admin)).statusCode).toBe(204);
      expect((await del(await create(admin), users.tokens.event_watcher)).statusCode).toBe(403);
    });

    const createAs = async (token: string | undefined, body: Json = {}) => {
      const res = await t.api('POST', '/events', { token, body: { event_value: 'X', ...body } });
      expect(res.statusCode).toBe(201);
      return (res.json() as { insertedId: string }).insertedId;
    };
    const patch = (eventId: string, token: string | undefined, body: Json) =>
      t.api('PATCH', `/events/${eventId}`, { token, body });
    const stored = async (eventId: string) => (await get(`/events/${eventId}`)).json() as Json;

    it("a logger comments on anyone's event but changes nothing else of it; its creator and managers may", async () => {
      const options = [{ event_option_name: 'status', event_option_value: 'alive' }];
      const theirs = await createAs(users.tokens.template_manager, { event_options: options, event_free_text: 'orig' });
      const before = await stored(theirs);
      for (const body of [
        { event_value: 'CHANGED' },
        { event_author: 'u_event_logger' },
        { ts: at(30) },
        { event_free_text: 'rewritten' },
        { event_options: [{ event_option_name: 'status', event_option_value: 'dead' }] },
        { event_options: [] },
        // A comment together with another option's change is still a change of the options.
        {
          event_options: [
            { event_option_name: 'status', event_option_value: 'dead' },
            { event_option_name: 'event_comment', event_option_value: 'hi' },
          ],
        },
        // An event holds one comment: more options under its name are new data.
        {
          event_options: [
            ...options,
            { event_option_name: 'event_comment', event_option_value: 'one' },
            { event_option_name: 'event_comment', event_option_value: 'two' },
          ],
        },
      ]) {
        const res = await patch(theirs, users.tokens.event_logger, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(403);
        expect(res.json()).toEqual({
          statusCode: 403,
          error: 'Forbidden',
          message:
            'Only admins, event managers and whoever created this event can change it (anyone may change its comment)',
        });
      }
      expect(await stored(theirs)).toEqual(before);

      // The comment: added, edited, then emptied, as the Add/Update Comment modal sends it.
      for (const comment of ['looks like a squid', 'an octopus', '']) {
        const body = {
          event_options: [...options, { event_option_name: 'event_comment', event_option_value: comment }],
        };
        expect((await patch(theirs, users.tokens.event_logger, body)).statusCode, comment).toBe(204);
      }
      expect((await stored(theirs)).event_options).toEqual([
        ...options,
        { event_option_name: 'event_comment', event_option_value: '' },
      ]);
      // Unchanged fields sent along with a comment are fine (scripts send whole events back).
      const whole = { event_value: 'X', event_free_text: 'orig', event_options: options };
      expect((await patch(theirs, users.tokens.event_logger, whole)).statusCode).toBe(204);

      // Its creator and event managers change the rest; so do admins.
      expect((await patch(theirs, users.tokens.template_manager, { event_value: 'MINE' })).statusCode).toBe(204);
      expect((await patch(theirs, users.tokens.event_manager, { event_free_text: 'fixed' })).statusCode).toBe(204);
      expect((await patch(theirs, admin, { ts: at(40) })).statusCode).toBe(204);
      // A cruise manager is not an event manager.
      expect((await patch(theirs, users.tokens.cruise_manager, { event_value: 'NO' })).statusCode).toBe(403);
      expect(await stored(theirs)).toMatchObject({ event_value: 'MINE', event_free_text: 'fixed', ts: at(40) });
    });

    it("nobody takes over another's event by relabelling it: the author label gives no right to change or delete", async () => {
      const victim = await createAs(users.tokens.template_manager);
      // Relabelling it is refused, and the delete after it too.
      expect((await patch(victim, users.tokens.event_logger, { event_author: 'u_event_logger' })).statusCode).toBe(403);
      expect((await t.api('DELETE', `/events/${victim}`, { token: users.tokens.event_logger })).statusCode).toBe(403);
      // Labelled with the logger's name by its creator: still not the logger's event.
      await patch(victim, users.tokens.template_manager, { event_author: 'u_event_logger' });
      expect((await stored(victim)).event_author).toBe('u_event_logger');
      expect((await patch(victim, users.tokens.event_logger, { event_value: 'MINE' })).statusCode).toBe(403);
      expect((await t.api('DELETE', `/events/${victim}`, { token: users.tokens.event_logger })).statusCode).toBe(403);
      // A script labels its events as anyone; they stay its creator's.
      const labelled = await createAs(users.tokens.event_logger, { event_author: 'someone else' });
      expect((await patch(labelled, users.tokens.event_logger, { event_value: 'EDITED' })).statusCode).toBe(204);
      expect((await t.api('DELETE', `/events/${labelled}`, { token: users.tokens.event_logger })).statusCode).toBe(204);
      expect((await t.api('DELETE', `/events/${victim}`, { token: users.tokens.template_manager })).statusCode).toBe(
        204,
      );
    });

    it('events stored without a known creator are changed and deleted by admins and event managers only', async () => {
      // As migration 014 leaves an event whose author label is no username (and the command line's imports).
      const [oldId] = await insertEvents(t.ctx.database.db, [
        { ts: Date.now(), event_value: 'OLD', event_author: 'u_event_logger' },
      ]);
      if (!oldId) throw new Error('no event');
      expect((await patch(oldId, users.tokens.event_logger, { event_value: 'NEW' })).statusCode).toBe(403);
      expect((await t.api('DELETE', `/events/${oldId}`, { token: users.tokens.event_logger })).statusCode).toBe(403);
      expect((await patch(oldId, users.tokens.event_manager, { event_value: 'NEW' })).statusCode).toBe(204);
      expect((await t.api('DELETE', `/events/${oldId}`, { token: users.tokens.event_manager })).statusCode).toBe(204);
    });

    it('bulk deletes and the wipe are for admins only', async () => {
      for (const who of ['event_manager', 'cruise_manager', 'event_logger', 'event_watcher'] as const) {
        expect((await t.api('DELETE', '/events', { token: users.tokens[who] })).statusCode, who).toBe(403);
        expect((await t.api('DELETE', '/events/all', { token: users.tokens[who] })).statusCode, who).toBe(403);
      }
      expect((await t.api('DELETE', '/events/all', { token: undefined })).statusCode).toBe(401);
    });
  });
});
