import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncChange, SyncChangesPage } from '@bathylog/shared';
import { createCruise, createLowering, createUser } from '../../../test/api-fixtures.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';

/**
 * The follow right (docs/security.md#device-keys-and-the-change-feed): a device key reads the
 * change feed, its files and sends comments only with a shore follower right an admin gave it; a
 * `follower` key gets what the event-access rule lets it read, a `full_follower` key everything.
 */
describe.each(engines)('the follow right on %s (access control on)', (engine) => {
  let t: TestApp;
  let admin: string;
  let restrictedCruise: string;
  let restrictedLowering: string;
  let openCruise: string;
  let memberId: string;
  let secretEvent: string;
  let openEvent: string;
  const keys: Record<
    'logger' | 'adminKey' | 'follower' | 'full' | 'adminFollower',
    { key: string; id: string; name: string }
  > = {} as never;

  const postEvent = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/events', { token: admin, body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { insertedId: string }).insertedId;
  };

  const drain = async (token: string, after?: string) => {
    await t.feedSettled();
    const all: SyncChange[] = [];
    let cursor = after;
    for (;;) {
      const q = new URLSearchParams({ max_bytes: '65536', ...(cursor !== undefined ? { after: cursor } : {}) });
      const res = await t.api('GET', `/sync/changes?${q}`, { token });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as SyncChangesPage;
      all.push(...page.changes);
      cursor = page.next;
      if (!page.more) return { all, cursor, text: JSON.stringify(all) };
    }
  };
  const ids = (all: SyncChange[], type: SyncChange['record_type']) =>
    all.filter((c) => c.record_type === type && c.op === 'upsert').map((c) => c.record_id);
  const commentOf = async (eventId: string) => {
    const res = await t.api('GET', `/events/${eventId}`, { token: admin });
    const options = (res.json() as { event_options: Array<{ event_option_name: string; event_option_value: string }> })
      .event_options;
    return options.find((o) => o.event_option_name === 'event_comment')?.event_option_value ?? null;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { useAccessControl: true });
    admin = await t.login('admin', 'demo');
    memberId = (await createUser(t, admin, 'member', ['event_watcher'])).id;
    // A cruise (with a lowering) open only to the member, and an open cruise a year before.
    restrictedCruise = await createCruise(t, admin);
    restrictedLowering = await createLowering(t, admin);
    const perms = await t.api('PATCH', `/cruises/${restrictedCruise}/permissions`, {
      token: admin,
      body: { add: [memberId] },
    });
    expect(perms.statusCode).toBe(204);
    openCruise = await createCruise(t, admin, {
      cruise_id: 'OPEN22',
      start_ts: '2022-05-01T00:00:00.000Z',
      stop_ts: '2022-07-01T00:00:00.000Z',
    });
    secretEvent = await postEvent({ ts: '2023-03-15T00:00:00.000Z', event_value: 'SECRETDIVE' });
    openEvent = await postEvent({ ts: '2022-06-01T00:00:00.000Z', event_value: 'OPENEVENT' });
    for (const [eventId, grab] of [
      [secretEvent, 'secret_grab.png'],
      [openEvent, 'open_grab.png'],
    ] as const) {
      const aux = await t.api('POST', '/event_aux_data', {
        token: admin,
        body: {
          event_id: eventId,
          data_source: 'framegrabber',
          data_array: [{ data_name: 'filename', data_value: grab }],
        },
      });
      expect(aux.statusCode, aux.body).toBe(201);
    }
    mkdirSync(t.ctx.paths.images, { recursive: true });
    writeFileSync(path.join(t.ctx.paths.images, 'secret_grab.png'), 'secret image');
    writeFileSync(path.join(t.ctx.paths.images, 'open_grab.png'), 'open image');
    const cruiseFiles = path.join(t.ctx.paths.files, 'cruises', restrictedCruise);
    mkdirSync(cruiseFiles, { recursive: true });
    writeFileSync(path.join(cruiseFiles, 'secret-plan.txt'), 'secret plan');

    const makeKey = async (name: string, roles: string[]) => {
      const res = await t.api('POST', '/device_keys', { token: admin, body: { name, roles } });
      expect(res.statusCode, res.body).toBe(201);
      return { ...(res.json() as { key: string; id: string }), name };
    };
    keys.logger = await makeKey('Deck button', ['event_logger']);
    keys.adminKey = await makeKey('Admin script', ['admin']);
    keys.follower = await makeKey('Reader shore', ['follower']);
    keys.full = await makeKey('Archive shore', ['full_follower']);
    keys.adminFollower = await makeKey('Admin shore', ['admin', 'follower']);
  });
  afterAll(() => t?.close());

  it('a key without the follow right gets 403 on the feed, its files and comments, and changes nothing', async () => {
    const full = await drain(keys.full.key);
    const openGrab = full.all.find((c) => c.record_id === 'images/open_grab.png')!.record as { sha256: string };
    for (const k of [keys.logger, keys.adminKey]) {
      const refused = {
        statusCode: 403,
        error: 'Forbidden',
        message:
          'This device key may not follow this server: an admin gives it a shore follower right under Device Keys',
      };
      expect((await t.api('GET', '/sync/changes', { token: k.key })).json()).toEqual(refused);
      expect((await t.api('GET', `/sync/files/${openGrab.sha256}`, { token: k.key })).json()).toEqual(refused);
      const comment = await t.api('POST', '/sync/comments', {
        token: k.key,
        body: { event_id: openEvent, text: 'from a button', author: 'pi' },
      });
      expect(comment.json()).toEqual(refused);
    }
    expect(await commentOf(openEvent)).toBeNull();
    // A user that is not an admin does not follow either.
    const watcher = await t.login('member', 'secret-pw');
    expect((await t.api('GET', '/sync/changes', { token: watcher })).statusCode).toBe(403);
  });

  it('a follower key gets only what it may read: no restricted record, event, aux record, access list or file', async () => {
    const { all, text, cursor } = await drain(keys.follower.key);
    expect(ids(all, 'cruise')).toEqual([openCruise]);
    expect(ids(all, 'lowering')).toEqual([]);
    expect(ids(all, 'event')).toEqual([openEvent]);
    expect(all.filter((c) => c.record_type === 'event_aux_data').map((c) => c.record?.event_id)).toEqual([openEvent]);
    expect(ids(all, 'file')).toEqual(['images/open_grab.png']);
    for (const secret of [restrictedCruise, restrictedLowering, secretEvent, memberId, 'SECRETDIVE', 'secret']) {
      expect(text).not.toContain(secret);
    }
    // The full follower's feed names the files the follower may not fetch: they answer as missing ones.
    const full = await drain(keys.full.key);
    const sha = (p: string) => (full.all.find((c) => c.record_id === p)!.record as { sha256: string }).sha256;
    for (const p of ['images/secret_grab.png', `cruises/${restrictedCruise}/secret-plan.txt`]) {
      expect((await t.api('GET', `/sync/files/${sha(p)}`, { token: keys.follower.key })).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `No file with checksum ${sha(p)}`,
      });
    }
    const open = await t.api('GET', `/sync/files/${sha('images/open_grab.png')}`, { token: keys.follower.key });
    expect(open.statusCode).toBe(200);
    expect(open.body).toBe('open image');

    // Live changes: a change inside the restricted cruise reaches the follower as a deletion, without its content.
    await t.api('PATCH', `/events/${secretEvent}`, { token: admin, body: { event_value: 'SECRETDIVE2' } });
    const late = await postEvent({ ts: '2023-03-16T00:00:00.000Z', event_value: 'SECRETLATE' });
    await t.api('PATCH', `/events/${openEvent}`, { token: admin, body: { event_value: 'OPENEVENT2' } });
    const next = await drain(keys.follower.key, cursor);
    expect(next.all.map((c) => [c.op, c.record_id, c.record?.event_value ?? null])).toEqual([
      ['delete', secretEvent, null],
      ['delete', late, null],
      ['upsert', openEvent, 'OPENEVENT2'],
    ]);
    expect(next.text).not.toContain('SECRET');

    // A record given an access list leaves the follower's copy the same way; opened again, it comes back.
    const permissions = async (body: object) => {
      const res = await t.api('PATCH', `/cruises/${openCruise}/permissions`, { token: admin, body });
      expect(res.statusCode).toBe(204);
    };
    await permissions({ add: [memberId] });
    const closed = await drain(keys.follower.key, next.cursor);
    expect(closed.all.map((c) => [c.op, c.record_id, c.record])).toEqual([['delete', openCruise, null]]);
    await permissions({ remove: [memberId] });
    const reopened = await drain(keys.follower.key, closed.cursor);
    expect(reopened.all.map((c) => [c.op, c.record_id])).toEqual([['upsert', openCruise]]);
  });

  it('a follower comments only on events it may read; the audit trail names the shore user through the key', async () => {
    const hidden = await t.api('POST', '/sync/comments', {
      token: keys.follower.key,
      body: { event_id: secretEvent, text: 'guess', author: 'pi' },
    });
    expect(hidden.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: `No event record found for id: ${secretEvent}`,
    });
    expect(await commentOf(secretEvent)).toBeNull();

    const ok = await t.api('POST', '/sync/comments', {
      token: keys.follower.key,
      body: { event_id: openEvent, text: 'Seen on shore', author: 'alice' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await commentOf(openEvent)).toBe('Seen on shore');
    const audit = await t.ctx.database.db
      .selectFrom('audit_log')
      .select(['actor_kind', 'actor_name', 'key_id', 'user_id', 'action'])
      .where('record_id', '=', openEvent)
      .where('action', '=', 'comment')
      .execute();
    expect(audit).toEqual([
      {
        actor_kind: 'key',
        actor_name: `alice (via ${keys.follower.name})`,
        key_id: keys.follower.id,
        user_id: null,
        action: 'comment',
      },
    ]);
  });

  it('a full follower key, an admin follower key and an admin get everything, restricted records and files included', async () => {
    for (const token of [keys.full.key, keys.adminFollower.key, admin]) {
      const { all, text } = await drain(token);
      expect(new Set(ids(all, 'cruise'))).toEqual(new Set([restrictedCruise, openCruise]));
      expect(ids(all, 'lowering')).toEqual([restrictedLowering]);
      expect(ids(all, 'event')).toContain(secretEvent);
      expect(new Set(ids(all, 'file'))).toEqual(
        new Set(['images/open_grab.png', 'images/secret_grab.png', `cruises/${restrictedCruise}/secret-plan.txt`]),
      );
      expect(text).toContain(memberId);
    }
  });
});
