import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChecklistRun, ChecklistRunMessage } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import { createLowering } from '../../../test/api-fixtures.js';
import { systemIds } from '../../seed/system.js';
import { CustomVarsService } from '../custom-vars/custom-vars.service.js';

const preDive = {
  name: 'Pre-dive',
  phase: 'pre_dive',
  items: [
    {
      id: 'asnap',
      label: 'ASNAP on',
      kind: 'auto',
      condition: { type: 'custom_var', name: 'asnapStatus', equals: 'On' },
    },
    { id: 'cams', label: 'Cameras recording', kind: 'manual' },
    { label: 'Comms check', kind: 'manual' },
  ],
};

/**
 * Checklists (docs/checklists.md): definitions by admins, a run per lowering, ticks by event
 * loggers and device keys, automatic items evaluated live, the completion event.
 */
describe.each(engines)('checklists API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  let logger: string;
  let watcher: string;
  let lowering: string;
  let checklistId: string;

  const setAsnap = async (value: 'On' | 'Off') => {
    const res = await t.api('PATCH', `/custom_vars/${systemIds.asnapStatus}`, {
      token: admin,
      body: { custom_var_value: value },
    });
    expect(res.statusCode).toBe(204);
  };
  const runs = async (token = logger, id = lowering) => {
    const res = await t.api('GET', `/lowerings/${id}/checklists`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ChecklistRun[];
  };
  const runOf = async (id = lowering) => (await runs(logger, id)).find((r) => r.checklist_id === checklistId)!;
  const tick = (run: ChecklistRun, item: string, body: unknown, token = logger) =>
    t.api('PATCH', `/lowerings/${run.lowering_id}/checklists/${run.id}/items/${item}`, { token, body });

  beforeAll(async () => {
    t = await createTestApp(engine, { checklistIntervalSeconds: 0 });
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    logger = users.tokens.event_logger!;
    watcher = users.tokens.event_watcher!;
    lowering = await createLowering(t, admin);
    await setAsnap('Off');
  });
  afterAll(() => t?.close());

  it('admins define checklists; others read them and are refused writes', async () => {
    const created = await t.api('POST', '/checklists', { token: admin, body: preDive });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json() as { id: string; items: Array<{ id: string }>; phase: string };
    checklistId = body.id;
    expect(body.items.map((i) => i.id)).toEqual(['asnap', 'cams', 'item-1']);
    expect(body.phase).toBe('pre_dive');

    const listed = await t.api('GET', '/checklists', { token: watcher });
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as Array<{ id: string }>).map((c) => c.id)).toContain(checklistId);
    expect((await t.api('GET', `/checklists/${checklistId}`, { token: logger })).json()).toMatchObject({
      name: 'Pre-dive',
    });

    for (const token of [logger, users.tokens.cruise_manager!]) {
      expect((await t.api('POST', '/checklists', { token, body: preDive })).statusCode).toBe(403);
      expect((await t.api('PATCH', `/checklists/${checklistId}`, { token, body: { name: 'x' } })).statusCode).toBe(403);
      expect((await t.api('DELETE', `/checklists/${checklistId}`, { token })).statusCode).toBe(403);
    }
    expect((await t.api('GET', '/checklists')).statusCode).toBe(401);

    const audit = await t.ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('record_type', '=', 'checklist')
      .where('record_id', '=', checklistId)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
  });

  it('refuses definitions that make no sense, with the reason', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...preDive, items: [{ label: 'ASNAP', kind: 'auto' }] }, 'An automatic item needs a condition.'],
      [{ ...preDive, items: [] }, 'A checklist needs at least one item.'],
      [
        {
          ...preDive,
          items: [
            { id: 'a', label: 'x', kind: 'manual' },
            { id: 'a', label: 'y', kind: 'manual' },
          ],
        },
        'Item ids must be unique within a checklist.',
      ],
      [{ ...preDive, phase: 'lunch' }, 'phase'],
      [
        { ...preDive, items: [{ label: 'x', kind: 'auto', condition: { type: 'free_disk', min_bytes: -1 } }] },
        'min_bytes',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await t.api('POST', '/checklists', { token: admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { message: string }).message).toContain(message);
    }
  });

  it('a lowering lists a run of every checklist, started on first read, in the agreed shape', async () => {
    const run = await runOf();
    expect(run).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      checklist_id: checklistId,
      lowering_id: lowering,
      name: 'Pre-dive',
      phase: 'pre_dive',
      state: 'open',
      completed_at: null,
      completed_by: null,
      items: [
        {
          id: 'asnap',
          label: 'ASNAP on',
          kind: 'auto',
          condition: { type: 'custom_var', name: 'asnapStatus', equals: 'On' },
          state: 'open',
          ok: false,
          by: null,
          at: null,
          reason: null,
        },
        { id: 'cams', label: 'Cameras recording', kind: 'manual', state: 'open', by: null, at: null, reason: null },
        { id: 'item-1', label: 'Comms check', kind: 'manual', state: 'open', by: null, at: null, reason: null },
      ],
    });
    // Reading again starts nothing new; POST answers the same run.
    expect((await runs()).filter((r) => r.checklist_id === checklistId)).toHaveLength(1);
    const again = await t.api('POST', `/lowerings/${lowering}/checklists`, {
      token: logger,
      body: { checklist_id: checklistId },
    });
    expect(again.statusCode).toBe(200);
    expect((again.json() as ChecklistRun).id).toBe(run.id);
    // Watchers read runs; nobody without a token does; an unknown lowering is 404.
    expect((await runs(watcher)).length).toBeGreaterThan(0);
    expect((await t.api('GET', `/lowerings/${lowering}/checklists`)).statusCode).toBe(401);
    expect((await t.api('GET', '/lowerings/59810167212b348aed7fa900/checklists', { token: logger })).statusCode).toBe(
      404,
    );
  });

  it('start=false lists only the runs a lowering has and starts none (an old dive shown on its card)', async () => {
    const old = await createLowering(t, admin, {
      lowering_id: 'OLD1',
      start_ts: '2023-03-14T22:00:00.000Z',
      stop_ts: '2023-03-15T08:00:00.000Z',
    });
    const existing = async () => {
      const res = await t.api('GET', `/lowerings/${old}/checklists?start=false`, { token: watcher });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ChecklistRun[];
    };
    expect(await existing()).toEqual([]);
    expect(await existing()).toEqual([]);
    // Reading without it still starts them, and then they are listed.
    const started = await runs(logger, old);
    expect(started.length).toBeGreaterThan(0);
    expect((await existing()).map((r) => r.id)).toEqual(started.map((r) => r.id));
    const bad = await t.api('GET', `/lowerings/${old}/checklists?start=maybe`, { token: watcher });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('POST starts a run of a checklist for another lowering (201) and refuses an unknown checklist', async () => {
    const other = await createLowering(t, admin, { lowering_id: 'S0493' });
    const started = await t.api('POST', `/lowerings/${other}/checklists`, {
      token: logger,
      body: { checklist_id: checklistId },
    });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({ lowering_id: other, checklist_id: checklistId, state: 'open' });
    const unknown = await t.api('POST', `/lowerings/${other}/checklists`, {
      token: logger,
      body: { checklist_id: '59810167212b348aed7fa900' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(
      (await t.api('POST', `/lowerings/${other}/checklists`, { token: watcher, body: { checklist_id: checklistId } }))
        .statusCode,
    ).toBe(403);
  });

  it('an automatic item follows its condition live, pushed on the checklists channel', async () => {
    const run = await runOf();
    const pushed: ChecklistRunMessage[] = [];
    const off = t.ctx.bus.subscribe('checklists', (m) => pushed.push(m));
    try {
      await setAsnap('On');
      await expect.poll(() => pushed.find((m) => m.run.id === run.id)?.run.items[0]?.ok, { timeout: 5000 }).toBe(true);
      expect(pushed.find((m) => m.run.id === run.id)!.lowering_id).toBe(lowering);
      expect((await runOf()).items[0]!.ok).toBe(true);
      pushed.length = 0;
      await setAsnap('Off');
      await expect.poll(() => pushed.find((m) => m.run.id === run.id)?.run.items[0]?.ok, { timeout: 5000 }).toBe(false);
    } finally {
      off();
    }
    // An automatic item cannot be ticked while its condition does not hold.
    const refused = await tick(run, 'asnap', { state: 'done' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: 'An automatic item can be ticked only while its condition holds.',
    });
  });

  it('ticks record who and when; skips need a reason; watchers are refused; device keys may tick', async () => {
    const run = await runOf();
    const noReason = await tick(run, 'item-1', { state: 'skipped' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'A reason is needed to skip an item.',
    });
    expect((await tick(run, 'item-1', { state: 'skipped', reason: '   ' })).statusCode).toBe(400);
    expect((await tick(run, 'cams', { state: 'done' }, watcher)).statusCode).toBe(403);
    const anonymous = await t.api('PATCH', `/lowerings/${lowering}/checklists/${run.id}/items/cams`, {
      body: { state: 'done' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await tick(run, 'nope', { state: 'done' })).statusCode).toBe(404);
    expect((await tick(run, 'cams', { state: 'finished' })).statusCode).toBe(400);

    const done = await tick(run, 'cams', { state: 'done' });
    expect(done.statusCode, done.body).toBe(200);
    const cams = (done.json() as ChecklistRun).items.find((i) => i.id === 'cams')!;
    expect(cams).toMatchObject({ state: 'done', by: 'u_event_logger', reason: null });
    expect(Date.now() - Date.parse(cams.at!)).toBeLessThan(60_000);

    // A hardware button: a device key with event_logger rights.
    const key = await t.api('POST', '/device_keys', {
      token: admin,
      body: { name: 'Deck button', roles: ['event_logger'] },
    });
    expect(key.statusCode).toBe(201);
    const deviceKey = (key.json() as { key: string }).key;
    const skipped = await tick(run, 'item-1', { state: 'skipped', reason: 'radio down' }, deviceKey);
    expect(skipped.statusCode, skipped.body).toBe(200);
    const item = (skipped.json() as ChecklistRun).items.find((i) => i.id === 'item-1')!;
    expect(item).toMatchObject({ state: 'skipped', by: 'Deck button', reason: 'radio down' });
    // ASNAP is off: the run stays open.
    expect((skipped.json() as ChecklistRun).state).toBe('open');
    const watcherKey = await t.api('POST', '/device_keys', {
      token: admin,
      body: { name: 'Screen', roles: ['event_watcher'] },
    });
    expect((await tick(run, 'cams', { state: 'open' }, (watcherKey.json() as { key: string }).key)).statusCode).toBe(
      403,
    );

    const audit = await t.ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('record_type', '=', 'checklist_run')
      .where('record_id', '=', run.id)
      .orderBy('seq')
      .execute();
    expect(audit.map((a) => [a.actor_name, JSON.parse(a.new_value!).state])).toEqual([
      ['u_event_logger', 'done'],
      ['Deck button', 'skipped'],
    ]);
  });

  it('completes when the last condition holds, logging the completion event once', async () => {
    const newEvents: Array<{ event_value: string }> = [];
    const off = t.ctx.bus.subscribe('newEvents', (e) => newEvents.push(e));
    try {
      await setAsnap('On');
      // The monitor completes it: every manual item is ticked and the automatic one now holds.
      await expect.poll(async () => (await runOf()).state, { timeout: 5000 }).toBe('complete');
      await expect.poll(() => newEvents.filter((e) => e.event_value === 'CHECKLIST').length).toBe(1);
    } finally {
      off();
    }
    const completed = await runOf();
    expect(completed.completed_by).toBe('Deck button');
    expect(completed.items[0]).toMatchObject({ state: 'done', by: 'system' });
    expect(completed.items[0]!.ok).toBeUndefined();

    const events = await t.api('GET', '/events?value=CHECKLIST', { token: admin });
    expect(events.statusCode, events.body).toBe(200);
    const [event] = events.json() as Array<{
      event_author: string;
      event_free_text: string;
      event_options: Array<{ event_option_name: string; event_option_value: string }>;
    }>;
    expect(event).toMatchObject({
      event_author: 'Deck button',
      event_free_text: 'Pre-dive checklist complete: Pre-dive',
    });
    expect(event!.event_options).toEqual([
      { event_option_name: 'checklist', event_option_value: 'Pre-dive' },
      { event_option_name: 'phase', event_option_value: 'pre_dive' },
      { event_option_name: 'skipped', event_option_value: 'Comms check: radio down' },
    ]);
    const late = await tick(completed, 'cams', { state: 'open' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ message: 'This checklist is complete; its items can no longer change.' });
    await setAsnap('Off');
  });

  it('the last tick completes a run, authored by whoever ticked it', async () => {
    const other = await createLowering(t, admin, { lowering_id: 'S0494' });
    const post = await t.api('POST', '/checklists', {
      token: admin,
      body: { name: 'Post-dive', phase: 'post_dive', items: [{ id: 'video', label: 'Video copied', kind: 'manual' }] },
    });
    const postId = (post.json() as { id: string }).id;
    const run = (await runs(logger, other)).find((r) => r.checklist_id === postId)!;
    const done = await tick(run, 'video', { state: 'done' });
    expect(done.json()).toMatchObject({ state: 'complete', completed_by: 'u_event_logger' });
    const events = (await t.api('GET', '/events?value=CHECKLIST', { token: admin })).json() as Array<{
      event_author: string;
      event_free_text: string;
    }>;
    expect(events).toContainEqual(
      expect.objectContaining({
        event_author: 'u_event_logger',
        event_free_text: 'Post-dive checklist complete: Post-dive',
      }),
    );
  });

  it('evaluates fresh data sources and free disk space', async () => {
    const made = await t.api('POST', '/checklists', {
      token: admin,
      body: {
        name: 'Sensors',
        phase: 'pre_recovery',
        items: [
          {
            id: 'nav',
            label: 'Nav fresh',
            kind: 'auto',
            condition: { type: 'aux_fresh', data_source: 'navX', max_age_seconds: 60 },
          },
          {
            id: 'ctd',
            label: 'CTD fresh',
            kind: 'auto',
            condition: { type: 'aux_fresh', data_source: 'ctdX', max_age_seconds: 60 },
          },
          { id: 'disk', label: 'Disk', kind: 'auto', condition: { type: 'free_disk', min_bytes: 5_000_000_000 } },
        ],
      },
    });
    const sensorsId = (made.json() as { id: string }).id;
    const eventAt = async (ts: number, source: string) => {
      const event = await t.api('POST', '/events', {
        token: admin,
        body: { event_value: 'NAV', ts: new Date(ts).toISOString() },
      });
      const eventId = (event.json() as { insertedId: string }).insertedId;
      const aux = await t.api('POST', '/event_aux_data', {
        token: admin,
        body: { event_id: eventId, data_source: source, data_array: [{ data_name: 'x', data_value: '1' }] },
      });
      expect(aux.statusCode, aux.body).toBe(201);
    };
    await eventAt(Date.now() - 5_000, 'navX');
    await eventAt(Date.now() - 600_000, 'ctdX');
    const vars = new CustomVarsService(t.ctx);
    await vars.setByServer('freeSpaceInBytes', '4000000000');
    const ok = async () =>
      Object.fromEntries(
        (await runs(logger)).find((r) => r.checklist_id === sensorsId)!.items.map((i) => [i.id, i.ok]),
      );
    expect(await ok()).toEqual({ nav: true, ctd: false, disk: false });
    await vars.setByServer('freeSpaceInBytes', '6000000000');
    expect((await ok()).disk).toBe(true);
    expect((await t.api('DELETE', `/checklists/${sensorsId}`, { token: admin })).statusCode).toBe(204);
  });

  it('an edited definition reaches open runs; deleting it keeps completed runs', async () => {
    const third = await createLowering(t, admin, { lowering_id: 'S0495' });
    const before = await runs(logger, third);
    expect(before.find((r) => r.checklist_id === checklistId)).toBeDefined();
    expect(
      (await t.api('PATCH', `/checklists/${checklistId}`, { token: admin, body: { name: 'Before launch' } }))
        .statusCode,
    ).toBe(204);
    expect((await runs(logger, third)).find((r) => r.checklist_id === checklistId)!.name).toBe('Before launch');
    // The completed run keeps the name it completed under.
    expect((await runOf()).name).toBe('Pre-dive');
    expect((await t.api('DELETE', `/checklists/${checklistId}`, { token: admin })).statusCode).toBe(204);
    expect((await runs(logger, third)).find((r) => r.checklist_id === checklistId)).toBeUndefined();
    expect((await runs(logger, lowering)).find((r) => r.checklist_id === checklistId)?.state).toBe('complete');
    expect((await t.api('GET', `/checklists/${checklistId}`, { token: admin })).statusCode).toBe(404);
  });
});
