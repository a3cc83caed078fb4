import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCruise, createLowering, createUser } from '../../../test/api-fixtures.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { archiveCacheLifetimeMs } from './archive-cache.js';

/**
 * The archive state kept between requests (archive-cache.ts) as an anonymous visitor meets it: a
 * record closed by any write of this process is closed (401, as the archive answers a closed record) on the very next request, one closed by
 * another server when the bus says so, one closed behind the server's back within the cache's
 * lifetime, and an embargo still opens at its moment by the server's clock.
 */
describe.each(engines)('the kept archive state on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  const clock = { value: Date.parse('2026-03-01T00:00:00.000Z') };
  const embargoEnd = Date.parse('2026-06-01T00:00:00.000Z');
  let n = 0;

  beforeEach(async () => {
    // The caches' own clock (Date) stands still unless a test moves it; the server's clock (`now`,
    // what embargoes are judged by) is `clock`.
    vi.useFakeTimers({ toFake: ['Date'] });
    clock.value = Date.parse('2026-03-01T00:00:00.000Z');
    t = await createTestApp(engine, { publicArchive: true }, undefined, () => clock.value);
    admin = await t.login('admin', 'demo');
  });
  afterEach(async () => {
    vi.useRealTimers();
    await t.close();
  });

  const visitor = (url: string) => t.app.inject({ method: 'GET', url: `/sealog-server/api/v1${url}` });
  /** Past the moment after a change, whose reads are not kept: the next reads fill the cache. */
  const settle = () => vi.setSystemTime(Date.now() + 2 * archiveCacheLifetimeMs);

  const publicCruise = (extra: Record<string, unknown> = {}) =>
    createCruise(t, admin, {
      cruise_id: `KEPT${++n}`,
      start_ts: '2025-02-01T00:00:00.000Z',
      stop_ts: '2025-02-20T00:00:00.000Z',
      cruise_location: 'Kept location',
      cruise_public: true,
      ...extra,
    });

  /** Read twice, so the second answer came from the kept state. */
  async function seenTwice(id: string) {
    settle();
    expect((await visitor(`/cruises/${id}`)).statusCode).toBe(200);
    expect((await visitor(`/cruises/${id}`)).statusCode).toBe(200);
  }

  it('a cruise made private through the API is closed on the very next request', async () => {
    const id = await publicCruise();
    await seenTwice(id);
    expect((await t.api('PATCH', `/cruises/${id}`, { token: admin, body: { cruise_public: false } })).statusCode).toBe(
      204,
    );
    expect((await visitor(`/cruises/${id}`)).statusCode).toBe(401);
    expect((await visitor('/cruises')).body).not.toContain(id);
  });

  it('a write of any module that publishes nothing closes it at once too (the statement is seen)', async () => {
    const id = await publicCruise();
    await seenTwice(id);
    await t.ctx.database.db.updateTable('cruises').set({ cruise_hidden: 1 }).where('id', '=', id).execute();
    expect((await visitor(`/cruises/${id}`)).statusCode).toBe(401);
    // Inside a transaction as well.
    const other = await publicCruise();
    await seenTwice(other);
    await t.ctx.database.db.transaction().execute(async (tx) => {
      await tx.updateTable('cruises').set({ cruise_public: 0 }).where('id', '=', other).execute();
    });
    expect((await visitor(`/cruises/${other}`)).statusCode).toBe(401);
  });

  it("another server's change takes effect when its message arrives, and a change behind the server's back within the lifetime", async () => {
    const id = await publicCruise();
    await seenTwice(id);
    // The row changes as another process would change it: not through this process's statements.
    const elsewhere = t.ctx.database.db.withoutPlugins();
    await elsewhere.updateTable('cruises').set({ cruise_public: 0 }).where('id', '=', id).execute();
    // The clock stands still: without a message the kept state still opens it.
    expect((await visitor(`/cruises/${id}`)).statusCode).toBe(200);
    const cruise = (await t.api('GET', `/cruises/${id}`, { token: admin })).json() as Record<string, unknown>;
    t.ctx.bus.publish('updateCruises', cruise as never);
    // For up to 5 s of real time (the bus delivers asynchronously on PostgreSQL); the caches' clock
    // stands still meanwhile (vi.waitFor would move it on).
    let status = 200;
    for (let i = 0; i < 100 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await visitor(`/cruises/${id}`)).statusCode;
    }
    expect(status).toBe(401);

    const other = await publicCruise();
    await seenTwice(other);
    await elsewhere.updateTable('cruises').set({ cruise_public: 0 }).where('id', '=', other).execute();
    expect((await visitor(`/cruises/${other}`)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + archiveCacheLifetimeMs + 1);
    expect((await visitor(`/cruises/${other}`)).statusCode).toBe(401);
  });

  it("the origins of a followed ship's events, written all day, do not drop what is kept", async () => {
    const id = await publicCruise();
    await seenTwice(id);
    // Behind the server's back, so only a drop of the kept state would show it.
    await t.ctx.database.db
      .withoutPlugins()
      .updateTable('cruises')
      .set({ cruise_public: 0 })
      .where('id', '=', id)
      .execute();
    await t.ctx.database.db
      .insertInto('sync_origins')
      .values({ record_type: 'event', record_id: 'a'.repeat(24), ship_id: 'ship-kept' })
      .execute();
    expect((await visitor(`/cruises/${id}`)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + archiveCacheLifetimeMs + 1);
    expect((await visitor(`/cruises/${id}`)).statusCode).toBe(401);
  });

  it('an embargoed cruise is a stub until its date, then opens by the server clock', async () => {
    const id = await publicCruise({ cruise_embargo_until: new Date(embargoEnd).toISOString() });
    settle();
    const stub = (await visitor(`/cruises/${id}`)).json() as Record<string, unknown>;
    expect(stub.cruise_location).toBe('');
    expect((await visitor(`/cruises/${id}`)).json()).toEqual(stub);
    clock.value = embargoEnd;
    expect((await visitor(`/cruises/${id}`)).json()).toMatchObject({ cruise_location: 'Kept location' });
    // And closes again if the clock is set back.
    clock.value = embargoEnd - 1;
    expect(((await visitor(`/cruises/${id}`)).json() as Record<string, unknown>).cruise_location).toBe('');
  });
});

describe.each(engines)('access lists read from the kept state on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeEach(async () => {
    t = await createTestApp(engine, { useAccessControl: true });
    admin = await t.login('admin', 'demo');
  });
  afterEach(async () => {
    await t.close();
  });

  it('a dive whose stored access list cannot be read shuts everyone but admins out of its events', async () => {
    const id = await createLowering(t, admin, {
      lowering_id: 'UNREADABLE',
      start_ts: '2025-03-01T00:00:00.000Z',
      stop_ts: '2025-03-02T00:00:00.000Z',
    });
    const event = await t.api('POST', '/events', {
      token: admin,
      body: { ts: '2025-03-01T12:00:00.000Z', event_value: 'INSIDE_UNREADABLE' },
    });
    expect(event.statusCode).toBe(201);
    const { token } = await createUser(t, admin, 'watcher1', ['event_watcher']);
    const seen = () => t.api('GET', '/events?value=INSIDE_UNREADABLE', { token });
    // No list: the watcher sees the dive's events.
    expect((await seen()).statusCode).toBe(200);
    await t.ctx.database.db
      .updateTable('lowerings')
      .set({ lowering_access_list: 'not a list' })
      .where('id', '=', id)
      .execute();
    expect((await seen()).statusCode).toBe(404);
    // The admin still reads them.
    expect((await t.api('GET', '/events?value=INSIDE_UNREADABLE', { token: admin })).statusCode).toBe(200);
  });
});
