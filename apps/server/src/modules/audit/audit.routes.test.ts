import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createUser, filepondBody, multipart } from '../../../test/api-fixtures.js';
import { insertCruise } from '../../../test/table-fixtures.js';
import { systemIds } from '../../seed/system.js';

/** The smallest valid PNG (1×1). */
const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc000000301010018dd8db00000000049454e44ae426082',
  'hex',
);

/**
 * Audit trail (docs/security.md#the-audit-trail): every change is recorded in the same transaction (who, when, route,
 * record, old and new values); admins read it (filtered, paged, CSV) and restore deleted events.
 */
describe.each(engines)('audit trail on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  const history = async (recordId: string): Promise<AuditEntry[]> => {
    const res = await t.api('GET', `/audit?record_id=${recordId}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as AuditPage).entries;
  };
  const logEvent = async (body: Record<string, unknown>, token = admin) => {
    const res = await t.api('POST', '/events', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { insertedId: string }).insertedId;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin', 'demo');
  });
  afterAll(() => t?.close());

  it('records event create, update, comment and delete with the actor, route and old and new values', async () => {
    const id = await logEvent({ event_value: 'FISH', event_free_text: 'first' });
    expect(
      (await t.api('PATCH', `/events/${id}`, { token: admin, body: { event_free_text: 'second' } })).statusCode,
    ).toBe(204);
    const comment = [{ event_option_name: 'event_comment', event_option_value: 'nice eel' }];
    expect((await t.api('PATCH', `/events/${id}`, { token: admin, body: { event_options: comment } })).statusCode).toBe(
      204,
    );
    expect((await t.api('DELETE', `/events/${id}`, { token: admin })).statusCode).toBe(204);

    const entries = (await history(id)).reverse();
    expect(entries.map((e) => e.action)).toEqual(['create', 'update', 'comment', 'delete']);
    for (const e of entries) {
      expect(e).toMatchObject({ actor_kind: 'user', actor_name: 'admin', record_type: 'event', record_id: id });
      expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(entries[0]).toMatchObject({
      route: 'POST /sealog-server/api/v1/events',
      old_value: null,
      new_value: { id, event_value: 'FISH', event_free_text: 'first' },
    });
    expect(entries[1]).toMatchObject({
      route: 'PATCH /sealog-server/api/v1/events/:id',
      old_value: { event_free_text: 'first' },
      new_value: { event_free_text: 'second' },
    });
    expect(entries[2]).toMatchObject({ old_value: { event_options: [] }, new_value: { event_options: comment } });
    expect(entries[3]).toMatchObject({
      route: 'DELETE /sealog-server/api/v1/events/:id',
      old_value: { id, event_value: 'FISH', event_free_text: 'second', event_options: comment, aux_data: [] },
      new_value: null,
    });
  });

  it('an admin restores a deleted event with its aux data from the audit record', async () => {
    const id = await logEvent({ event_value: 'SAMPLE', event_free_text: 'keep me' });
    const aux = await t.api('POST', '/event_aux_data', {
      token: admin,
      body: {
        event_id: id,
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: '812' }],
      },
    });
    expect(aux.statusCode).toBe(201);
    const before = (await t.api('GET', `/events/${id}`, { token: admin })).json() as Record<string, unknown>;
    expect((await t.api('DELETE', `/events/${id}`, { token: admin })).statusCode).toBe(204);
    expect((await t.api('GET', `/events/${id}`, { token: admin })).statusCode).toBe(404);

    const deletion = (await history(id)).find((e) => e.action === 'delete')!;
    const user = await t.api('POST', '/users', {
      token: admin,
      body: {
        username: 'auditmgr',
        fullname: 'M',
        email: 'auditmgr@example.org',
        password: 'pw-pw-pw-pw',
        roles: ['event_manager'],
      },
    });
    expect(user.statusCode).toBe(201);
    const manager = await t.login('auditmgr', 'pw-pw-pw-pw');
    expect((await t.api('POST', `/audit/${deletion.seq}/restore`, { token: manager })).statusCode).toBe(403);

    const restored = await t.api('POST', `/audit/${deletion.seq}/restore`, { token: admin });
    expect(restored.statusCode, restored.body).toBe(201);
    expect(restored.json()).toMatchObject({ acknowledged: true, insertedId: id });
    const after = (await t.api('GET', `/events/${id}`, { token: admin })).json() as Record<string, unknown>;
    expect(after).toEqual(before);
    const auxAfter = (await t.api('GET', `/event_aux_data?eventID=${id}`, { token: admin })).json() as Array<{
      data_array: unknown;
    }>;
    expect(auxAfter.map((a) => a.data_array)).toEqual([[{ data_name: 'depth', data_value: '812' }]]);
    expect((await history(id))[0]).toMatchObject({ action: 'restore', actor_name: 'admin', new_value: { id } });
    expect((await t.api('POST', `/audit/${deletion.seq}/restore`, { token: admin })).json()).toMatchObject({
      statusCode: 400,
      message: 'The event exists: it was already restored',
    });
    const create = (await history(id)).find((e) => e.action === 'create')!;
    expect((await t.api('POST', `/audit/${create.seq}/restore`, { token: admin })).json()).toMatchObject({
      statusCode: 400,
      message: 'Only a deleted event can be restored from its audit record',
    });
    expect((await t.api('POST', '/audit/999999999/restore', { token: admin })).statusCode).toBe(404);
  });

  it('bulk delete records one restorable row per event; a wipe records the count', async () => {
    const a = await logEvent({ event_value: 'BULK_AUDIT' });
    const b = await logEvent({ event_value: 'BULK_AUDIT' });
    const res = await t.api('DELETE', '/events?value=BULK_AUDIT', { token: admin });
    expect(res.json()).toMatchObject({ deletedCount: 2 });
    for (const id of [a, b]) {
      expect((await history(id))[0]).toMatchObject({
        action: 'bulk_delete',
        route: 'DELETE /sealog-server/api/v1/events',
        old_value: { id, event_value: 'BULK_AUDIT' },
      });
    }
    const count = (await t.api('GET', '/events/count', { token: admin })).json() as { events: number };
    expect((await t.api('DELETE', '/events/all', { token: admin })).statusCode).toBe(204);
    const wipes = ((await t.api('GET', '/audit?record_type=event&limit=1', { token: admin })).json() as AuditPage)
      .entries;
    expect(wipes[0]).toMatchObject({ action: 'wipe', record_id: null, old_value: { events: count.events } });
  });

  it('filters by actor, record and time; pages; exports CSV; is admin only and append-only', async () => {
    const key = (
      (
        await t.api('POST', '/device_keys', { token: admin, body: { name: 'Audit Bot', roles: ['event_logger'] } })
      ).json() as {
        key: string;
      }
    ).key;
    // The key's creation is recorded too: the window starts after it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const start = new Date().toISOString();
    const byKey = await logEvent({ event_value: 'BY_KEY' }, key);
    const page = (
      await t.api('GET', `/audit?actor=${encodeURIComponent('Audit Bot')}`, { token: admin })
    ).json() as AuditPage;
    expect(page.total).toBe(1);
    expect(page.entries[0]).toMatchObject({ actor_kind: 'key', actor_name: 'Audit Bot', record_id: byKey });
    const since = (await t.api('GET', `/audit?startTS=${start}`, { token: admin })).json() as AuditPage;
    expect(since.entries.map((e) => e.record_id)).toEqual([byKey]);
    const paged = (await t.api('GET', '/audit?limit=2&offset=1', { token: admin })).json() as AuditPage;
    expect(paged.entries).toHaveLength(2);
    expect(paged.total).toBeGreaterThan(3);
    const all = (await t.api('GET', '/audit?limit=3', { token: admin })).json() as AuditPage;
    expect(paged.entries[0]!.seq).toBe(all.entries[1]!.seq);

    const csv = await t.api('GET', `/audit?format=csv&record_id=${byKey}`, { token: admin });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      '"seq","at","actor_kind","actor_name","actor_id","route","action","record_type","record_id","old_value","new_value"',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"key","Audit Bot"');
    expect(lines[1]).toContain('BY_KEY');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="audit.csv"');
    // Paging applies to the export too, and matches the JSON page.
    const csvPage = (await t.api('GET', '/audit?format=csv&limit=2&offset=1', { token: admin })).body.split('\n');
    expect(csvPage).toHaveLength(3);
    expect(csvPage.slice(1).map((l) => Number(l.split(',')[0]!.replace(/"/g, '')))).toEqual(
      paged.entries.map((e) => e.seq),
    );
    const everything = (await t.api('GET', '/audit?format=csv', { token: admin })).body.split('\n');
    expect(everything).toHaveLength(paged.total + 1);

    expect((await t.api('GET', '/audit', { token: key })).statusCode).toBe(403);
    expect((await t.api('GET', '/audit?record_type=nope', { token: admin })).statusCode).toBe(400);
    // Below the API too: the database refuses to rewrite an audit row.
    await expect(
      t.ctx.database.db
        .updateTable('audit_log')
        .set({ action: 'forged' })
        .where('seq', '=', page.entries[0]!.seq)
        .execute(),
    ).rejects.toThrow(/append-only/);
    // Nor remove one.
    const db = t.ctx.database.db;
    const rows = async () =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM audit_log`.execute(db)).rows[0]!.n);
    const before = await rows();
    await expect(db.deleteFrom('audit_log').where('seq', '=', page.entries[0]!.seq).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    if (engine === 'postgres') await expect(sql`TRUNCATE audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect(await rows()).toBe(before);
  });

  it('writes names that look like formulas into the CSV as text', async () => {
    const res = await t.api('POST', '/device_keys', {
      token: admin,
      body: { name: '=HYPERLINK("http://x.test","hi")', roles: ['event_logger'] },
    });
    const formulaKey = (res.json() as { key: string }).key;
    const id = await logEvent({ event_value: 'BY_FORMULA_KEY' }, formulaKey);
    const csv = await t.api('GET', `/audit?format=csv&record_id=${id}`, { token: admin });
    expect(csv.body.split('\n')[1]).toContain(`"key","'=HYPERLINK(""http://x.test"",""hi"")"`);
  });

  it('records device keys created and revoked (never the key), custom var changes, and files stored and removed', async () => {
    // A device key: created, then revoked; neither row holds the key or its hash.
    const created = (
      await t.api('POST', '/device_keys', { token: admin, body: { name: 'Winch Button', roles: ['event_logger'] } })
    ).json() as { id: string; key: string };
    expect((await t.api('DELETE', `/device_keys/${created.id}`, { token: admin })).statusCode).toBe(204);
    const keyRows = (await history(created.id)).reverse();
    expect(keyRows.map((e) => [e.record_type, e.action, e.actor_name])).toEqual([
      ['device_key', 'create', 'admin'],
      ['device_key', 'revoke', 'admin'],
    ]);
    expect(keyRows[0]!.new_value).toMatchObject({ name: 'Winch Button', roles: ['event_logger'], revoked: null });
    expect(keyRows[1]!.new_value).toMatchObject({ name: 'Winch Button', revoked_by: 'admin' });
    const stored = JSON.stringify(
      (await sql`SELECT old_value, new_value FROM audit_log WHERE record_id = ${created.id}`.execute(t.ctx.database.db))
        .rows,
    );
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(created.key.slice(8));
    expect(stored).not.toContain('key_hash');

    // ASNAP switched on by a logger.
    const logger = await createUser(t, admin, 'asnap_logger', ['event_logger']);
    const asnap = systemIds.asnapStatus;
    const on = await t.api('PATCH', `/custom_vars/${asnap}`, { token: logger.token, body: { custom_var_value: 'On' } });
    expect(on.statusCode, on.body).toBe(204);
    expect((await history(asnap))[0]).toMatchObject({
      record_type: 'custom_var',
      action: 'update',
      actor_name: 'asnap_logger',
      route: 'PATCH /sealog-server/api/v1/custom_vars/:id',
      old_value: { custom_var_name: 'asnapStatus', custom_var_value: 'Off' },
      new_value: { custom_var_name: 'asnapStatus', custom_var_value: 'On' },
    });
    await t.api('PATCH', `/custom_vars/${asnap}`, { token: admin, body: { custom_var_value: 'Off' } });

    // Files of a cruise: uploaded directly, then deleted.
    const cruise = {
      insertedId: await insertCruise(t.ctx.database.db, {
        start_ts: Date.UTC(2024, 0, 1),
        stop_ts: Date.UTC(2024, 0, 2),
      }),
    };
    const body = multipart([{ name: 'files', filename: 'report.txt', contentType: 'text/plain', data: 'r' }]);
    const up = await t.app.inject({
      method: 'POST',
      url: `/sealog-server/files/cruises/${cruise.insertedId}`,
      headers: { authorization: `Bearer ${admin}`, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/sealog-server/files/cruises/${cruise.insertedId}/report.txt`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(gone.statusCode).toBe(204);
    const fileRows = (await history(cruise.insertedId)).filter((e) => e.record_type === 'file').reverse();
    expect(fileRows.map((e) => [e.action, e.new_value ?? e.old_value])).toEqual([
      ['upload', { record_type: 'cruise', files: ['report.txt'] }],
      ['delete', { record_type: 'cruise', files: ['report.txt'] }],
    ]);

    // A picture attached to an event, then removed.
    const eventId = await logEvent({ event_value: 'PHOTO' }, logger.token);
    const pic = filepondBody('pic.png', png);
    const attached = await t.app.inject({
      method: 'POST',
      url: `/sealog-server/files/images/filepond/process/${eventId}`,
      headers: { authorization: `Bearer ${logger.token}`, ...pic.headers },
      payload: pic.payload,
    });
    expect(attached.statusCode, attached.body).toBe(201);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/sealog-server/files/images/filepond/revert',
      headers: { authorization: `Bearer ${logger.token}`, 'content-type': 'text/plain' },
      payload: attached.body,
    });
    expect(removed.statusCode).toBe(204);
    const pictureRows = (await history(eventId)).filter((e) => e.record_type === 'file').reverse();
    expect(pictureRows.map((e) => [e.action, e.actor_name, e.new_value ?? e.old_value])).toEqual([
      ['upload', 'asnap_logger', { record_type: 'event', files: [attached.body] }],
      ['delete', 'asnap_logger', { record_type: 'event', files: [attached.body] }],
    ]);
  });

  it('records every other kind of change: aux data, cruises, lowerings, templates and users, with old and new values', async () => {
    const ok = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
      const res = await t.api(method, url, { token: admin, ...(body !== undefined ? { body } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.body ? (res.json() as { insertedId?: string }) : {};
    };
    const actions = async (id: string) => (await history(id)).map((e) => [e.record_type, e.action]).reverse();

    // Aux data.
    const eventId = await logEvent({ event_value: 'AUX_AUDIT' });
    const auxId = (
      await ok('POST', '/event_aux_data', {
        event_id: eventId,
        data_source: 'camera',
        data_array: [{ data_name: 'filename', data_value: 'a.jpg' }],
      })
    ).insertedId!;
    await ok('PATCH', `/event_aux_data/${auxId}`, { data_array: [{ data_name: 'filename', data_value: 'b.jpg' }] });
    await ok('DELETE', `/event_aux_data/${auxId}`);
    expect(await actions(auxId)).toEqual([
      ['event_aux_data', 'create'],
      ['event_aux_data', 'update'],
      ['event_aux_data', 'delete'],
    ]);
    const auxUpdate = (await history(auxId))[1]!;
    expect(auxUpdate.old_value).toMatchObject({ data_array: [{ data_name: 'filename', data_value: 'a.jpg' }] });
    expect(auxUpdate.new_value).toMatchObject({ data_array: [{ data_name: 'filename', data_value: 'b.jpg' }] });

    // Cruises (lowerings share the same service).
    const cruise = {
      cruise_id: 'AUDIT1',
      start_ts: '2001-01-01T00:00:00.000Z',
      stop_ts: '2001-01-02T00:00:00.000Z',
      cruise_location: 'Here',
      cruise_tags: [],
      cruise_additional_meta: { cruise_name: 'A', cruise_vessel: 'V', cruise_pi: 'P' },
    };
    const cruiseId = (await ok('POST', '/cruises', cruise)).insertedId!;
    await ok('PATCH', `/cruises/${cruiseId}`, { cruise_location: 'There' });
    await ok('PATCH', `/cruises/${cruiseId}`, { cruise_hidden: true });
    await ok('PATCH', `/cruises/${cruiseId}/permissions`, { add: ['5981f167212b348aed7fb9f5'] });
    await ok('DELETE', `/cruises/${cruiseId}`);
    expect(await actions(cruiseId)).toEqual([
      ['cruise', 'create'],
      ['cruise', 'update'],
      ['cruise', 'hide'],
      ['cruise', 'permissions'],
      ['cruise', 'delete'],
    ]);
    const moved = (await history(cruiseId))[3]!;
    expect(moved.old_value).toMatchObject({ cruise_location: 'Here' });
    expect(moved.new_value).toMatchObject({ cruise_location: 'There' });
    const loweringId = (
      await ok('POST', '/lowerings', {
        lowering_id: 'AUDITL',
        start_ts: '2001-01-01T01:00:00.000Z',
        stop_ts: '2001-01-01T02:00:00.000Z',
        lowering_location: 'Here',
        lowering_tags: [],
        lowering_additional_meta: {},
      })
    ).insertedId!;
    await ok('DELETE', `/lowerings/${loweringId}`);
    expect(await actions(loweringId)).toEqual([
      ['lowering', 'create'],
      ['lowering', 'delete'],
    ]);

    // Templates.
    const templateId = (
      await ok('POST', '/event_templates', {
        event_name: 'Audit',
        event_value: 'AUDIT',
        event_free_text_required: false,
        system_template: false,
        event_options: [],
      })
    ).insertedId!;
    await ok('PATCH', `/event_templates/${templateId}`, { event_name: 'Audited' });
    await ok('DELETE', `/event_templates/${templateId}`);
    expect(await actions(templateId)).toEqual([
      ['event_template', 'create'],
      ['event_template', 'update'],
      ['event_template', 'delete'],
    ]);
    expect((await history(templateId))[1]).toMatchObject({
      old_value: { event_name: 'Audit' },
      new_value: { event_name: 'Audited' },
    });

    // Users: the password is never recorded.
    const userId = (
      await ok('POST', '/users', {
        username: 'audited',
        fullname: 'Audited',
        email: 'audited@example.org',
        password: 'secret-pw-1',
        roles: ['event_logger'],
      })
    ).insertedId!;
    await ok('PATCH', `/users/${userId}`, { fullname: 'Audited Two', password: 'secret-pw-2' });
    await ok('PATCH', `/users/${userId}`, { roles: ['event_watcher'] });
    await ok('DELETE', `/users/${userId}`);
    expect(await actions(userId)).toEqual([
      ['user', 'create'],
      ['user', 'update'],
      ['user', 'permissions'],
      ['user', 'delete'],
    ]);
    const userHistory = await history(userId);
    expect(userHistory[2]).toMatchObject({
      old_value: { fullname: 'Audited' },
      new_value: { fullname: 'Audited Two', password_changed: true },
    });
    expect(userHistory[1]).toMatchObject({
      old_value: { roles: ['event_logger'] },
      new_value: { roles: ['event_watcher'] },
    });
    expect(JSON.stringify(userHistory)).not.toMatch(/secret-pw|\$2[aby]\$/);
    const bulkUser = (
      await ok('POST', '/users', {
        username: 'bulkgone',
        fullname: 'B',
        email: 'bulkgone@example.org',
        password: 'secret-pw-3',
        roles: ['event_logger'],
      })
    ).insertedId!;
    await ok('DELETE', '/users/all');
    expect((await history(bulkUser))[0]).toMatchObject({ action: 'bulk_delete', old_value: { username: 'bulkgone' } });
  });

  it('records self-registration, profile changes, password resets, imports and the remaining bulk deletes and record changes', async () => {
    const ok = async (
      method: 'POST' | 'PATCH' | 'DELETE',
      url: string,
      body?: unknown,
      token: string | null = admin,
    ) => {
      const res = await t.api(method, url, { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.body ? (res.json() as { insertedId?: string }) : {};
    };

    // Self-registration: the new user is the actor; the password is never recorded.
    const userId = (
      await ok(
        'POST',
        '/auth/register',
        { username: 'selfmade', fullname: 'Self Made', email: 'Self.Made@example.org', password: 'reg-secret-1' },
        null,
      )
    ).insertedId!;
    const [registered] = await history(userId);
    expect(registered).toMatchObject({
      action: 'register',
      actor_kind: 'user',
      actor_id: userId,
      actor_name: 'selfmade',
      route: 'POST /sealog-server/api/v1/auth/register',
      record_type: 'user',
      old_value: null,
      new_value: { id: userId, username: 'selfmade', fullname: 'Self Made' },
    });

    // Profile: the caller changes their own name and password.
    const own = await t.login('selfmade', 'reg-secret-1');
    await ok('PATCH', '/auth/profile', { fullname: 'Self Remade', password: 'reg-secret-2' }, own);
    expect((await history(userId))[0]).toMatchObject({
      action: 'profile',
      actor_name: 'selfmade',
      route: 'PATCH /sealog-server/api/v1/auth/profile',
      old_value: { fullname: 'Self Made' },
      new_value: { fullname: 'Self Remade', password_changed: true },
    });

    // Password reset through the emailed link.
    // No public URL: the mail holds the bare path; it is written just after the answer.
    await ok(
      'POST',
      '/auth/forgotPassword',
      { email: 'Self.Made@example.org', resetURL: 'http://localhost/reset/' },
      null,
    );
    const outbox = path.join(t.dataDir, 'outbox');
    const resetMail = () =>
      readdirSync(outbox)
        .sort()
        .map((f) => readFileSync(path.join(outbox, f), 'utf8'))
        .findLast((m) => m.includes('Password Reset') && /To: self\.made@example\.org/i.test(m));
    await expect.poll(resetMail).toBeDefined();
    const token = /\/resetPassword\/([0-9a-f]{40})/.exec(resetMail()!)![1]!;
    await ok('PATCH', '/auth/resetPassword', { token, password: 'reg-secret-3' }, null);
    expect((await history(userId))[0]).toMatchObject({
      action: 'password_reset',
      actor_kind: 'user',
      actor_name: 'selfmade',
      route: 'PATCH /sealog-server/api/v1/auth/resetPassword',
      old_value: { fullname: 'Self Remade' },
      new_value: { fullname: 'Self Remade', password_changed: true },
    });
    expect(JSON.stringify(await history(userId))).not.toMatch(/reg-secret|\$2[aby]\$|[0-9a-f]{40}/);

    // An import creates each record under its own id, recorded with the route it came through.
    const imported = '5f0e1d2c3b4a596877665544';
    await ok('POST', '/events', {
      id: imported,
      ts: '2020-02-02T02:02:02.000Z',
      event_author: 'pi',
      event_value: 'IMPORTED',
      event_options: [],
      event_free_text: '',
    });
    expect((await history(imported))[0]).toMatchObject({
      action: 'create',
      route: 'POST /sealog-server/api/v1/events',
      new_value: { id: imported, event_author: 'pi', ts: '2020-02-02T02:02:02.000Z' },
    });

    // Lowerings: update, hide, permissions; then the bulk deletes of cruises, lowerings and templates.
    const loweringId = (
      await ok('POST', '/lowerings', {
        lowering_id: 'AUDITL2',
        start_ts: '2001-01-01T01:00:00.000Z',
        stop_ts: '2001-01-01T02:00:00.000Z',
        lowering_location: 'Deep',
        lowering_tags: [],
        lowering_additional_meta: {},
      })
    ).insertedId!;
    await ok('PATCH', `/lowerings/${loweringId}`, { lowering_location: 'Deeper' });
    await ok('PATCH', `/lowerings/${loweringId}`, { lowering_hidden: true });
    await ok('PATCH', `/lowerings/${loweringId}/permissions`, { add: [userId] });
    const cruiseId = (
      await ok('POST', '/cruises', {
        cruise_id: 'AUDIT2',
        start_ts: '2001-01-01T00:00:00.000Z',
        stop_ts: '2001-01-02T00:00:00.000Z',
        cruise_location: 'Here',
        cruise_tags: [],
        cruise_additional_meta: { cruise_name: 'A', cruise_vessel: 'V', cruise_pi: 'P' },
      })
    ).insertedId!;
    const templateId = (
      await ok('POST', '/event_templates', {
        event_name: 'Bulk',
        event_value: 'BULK_T',
        event_free_text_required: false,
        system_template: false,
        event_options: [],
      })
    ).insertedId!;
    await ok('DELETE', '/lowerings/all');
    await ok('DELETE', '/cruises/all');
    await ok('DELETE', '/event_templates/all');
    const lowering = (await history(loweringId)).map((e) => e.action).reverse();
    expect(lowering).toEqual(['create', 'update', 'hide', 'permissions', 'bulk_delete']);
    expect((await history(loweringId))[3]).toMatchObject({
      old_value: { lowering_location: 'Deep' },
      new_value: { lowering_location: 'Deeper' },
    });
    expect((await history(loweringId))[0]).toMatchObject({
      route: 'DELETE /sealog-server/api/v1/lowerings/all',
      old_value: { lowering_id: 'AUDITL2', lowering_hidden: true },
    });
    expect((await history(cruiseId))[0]).toMatchObject({ action: 'bulk_delete', old_value: { cruise_id: 'AUDIT2' } });
    expect((await history(templateId))[0]).toMatchObject({
      action: 'bulk_delete',
      record_type: 'event_template',
      old_value: { event_name: 'Bulk' },
    });
  });
});
