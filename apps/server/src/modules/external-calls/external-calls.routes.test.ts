import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import { listenInRange, RawClient, scriptHello, type Frame } from '../../realtime/testing/ws-test-client.js';

const loweringUid = '6410f20b6594c9977675e47b';
const cruiseUid = '6410f20b6594c9977675e47c';

/** A tiny export "script": echoes its argument, writes stderr, pauses (so a second call overlaps), exits 3. */
const script = `
const id = process.argv[2];
process.stdout.write('exporting ' + id + '\\nline a\\nline b');
setTimeout(() => {
  process.stdout.write(' continued\\n');
  process.stderr.write('warning: no aux data\\n');
  setTimeout(() => process.exit(3), 50);
}, 600);
`;

describe.each(engines)('external calls and /ws/execute_output on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let users: RoleUsers;
  let admin: string;
  let dir: string;
  let lowering: string;
  const clients: RawClient[] = [];

  const listener = async (token = admin) => {
    const c = await RawClient.open(port);
    clients.push(c);
    expect((await c.call(scriptHello(token, []))).type).toBe('hello');
    return c;
  };
  const updates = (c: RawClient) => c.frames.filter((f) => f.type === 'update').map((f) => f.message);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-export-'));
    const file = path.join(dir, 'export script.js');
    writeFileSync(file, script);
    lowering = `${JSON.stringify(process.execPath)} ${JSON.stringify(file)} {id}`;
    t = await createTestApp(engine, {
      externalCalls: { exportLowering: lowering, exportCruise: '/nonexistent/bathylog-export -C {id}' },
    });
    port = await listenInRange(t.app);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    const common = { start_ts: '2023-03-14T00:00:00.000Z', stop_ts: '2023-03-15T00:00:00.000Z' };
    const l = await t.api('POST', '/lowerings', {
      token: admin,
      body: {
        id: loweringUid,
        lowering_id: 'S 0492',
        lowering_location: '',
        lowering_tags: [],
        lowering_additional_meta: {},
        ...common,
      },
    });
    expect(l.statusCode).toBe(201);
    const c = await t.api('POST', '/cruises', {
      token: admin,
      body: {
        id: cruiseUid,
        cruise_id: 'FKt230303',
        cruise_location: '',
        cruise_tags: [],
        cruise_additional_meta: {},
        ...common,
      },
    });
    expect(c.statusCode).toBe(201);
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams the output line by line to the socket that asked for it, then the end marker, then closes it', async () => {
    const c = await listener();
    const other = await listener();
    expect(await c.call({ type: 'request', id: 'exec', method: 'GET', path: '/ws/execute_output' })).toEqual({
      type: 'request',
      id: 'exec',
      statusCode: 200,
      payload: 'connection request received',
    });
    const res = await t.api('GET', `/external_calls/export_lowering/${loweringUid}`, { token: admin });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: 'Command is being executed.' });
    // One command at a time.
    const again = await t.api('GET', `/external_calls/export_cruise/${cruiseUid}`, { token: admin });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'A command is already running.' });

    await c.closed;
    const lines = updates(c);
    // The program and script by name: the temporary folder they sit in is not echoed.
    expect(lines[0]).toBe(`Executing ${path.basename(process.execPath)} "export script.js" "S 0492"`);
    expect(lines.join('\n')).not.toContain(dir);
    expect(lines.at(-1)).toBe('Process exited with code: 3');
    expect(lines.slice(1, -1).sort()).toEqual(
      ['exporting S 0492', 'line a', 'line b continued', 'warning: no aux data'].sort(),
    );
    expect(lines.indexOf('exporting S 0492')).toBeLessThan(lines.indexOf('line b continued'));
    expect(c.frames.filter((f) => f.type === 'update')[0]).toEqual({ type: 'update', message: lines[0] });
    // A socket that did not ask gets nothing and stays open.
    expect(updates(other)).toEqual([]);
    expect(other.isOpen).toBe(true);
  });

  it('accepts the route-id form of the request', async () => {
    const c = await listener();
    expect(await c.call({ type: 'request', id: 2, method: 'GET', path: 'execute_output' })).toMatchObject({
      statusCode: 200,
    });
  });

  it('reports a command that cannot start instead of crashing, and the server keeps working', async () => {
    const c = await listener();
    await c.call({ type: 'request', id: 1, path: '/ws/execute_output' });
    const res = await t.api('GET', `/external_calls/export_cruise/${cruiseUid}`, { token: admin });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Could not start the export command: spawn /nonexistent/bathylog-export ENOENT',
    });
    await c.closed;
    expect(updates(c)).toEqual([
      'Executing bathylog-export -C FKt230303',
      'Could not start /nonexistent/bathylog-export: spawn /nonexistent/bathylog-export ENOENT',
      'Process exited with code: -1',
    ]);
    // Not stuck as "running": the next call starts.
    const next = await t.api('GET', `/external_calls/export_lowering/${loweringUid}`, { token: admin });
    expect(next.statusCode).toBe(202);
    const listeners = await listener();
    await listeners.call({ type: 'request', id: 1, path: '/ws/execute_output' });
    await listeners.next((f) => f.type === 'update' && String(f.message).startsWith('Process exited'), 10_000);
  });

  it('answers missing records, missing configuration, bad ids and non-admins clearly', async () => {
    const missing = '6410f20b6594c9977675e400';
    const noLowering = await t.api('GET', `/external_calls/export_lowering/${missing}`, { token: admin });
    expect(noLowering.statusCode).toBe(400);
    expect(noLowering.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: `No record lowering found for id: ${missing}`,
    });
    const badId = await t.api('GET', '/external_calls/export_lowering/123', { token: admin });
    expect(badId.statusCode).toBe(400);
    for (const role of ['cruise_manager', 'event_logger', 'guest'] as const) {
      const res = await t.api('GET', `/external_calls/export_lowering/${loweringUid}`, { token: users.tokens[role] });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Insufficient scope' });
    }
    expect((await t.api('GET', `/external_calls/export_lowering/${loweringUid}`)).statusCode).toBe(401);
    const saved = t.ctx.config.externalCalls.exportLowering;
    t.ctx.config.externalCalls.exportLowering = null;
    try {
      const res = await t.api('GET', `/external_calls/export_lowering/${loweringUid}`, { token: admin });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'No lowering export command is configured on this server',
      });
    } finally {
      t.ctx.config.externalCalls.exportLowering = saved;
    }
  });

  it('passes the record id as one whole argument and in the environment, never into a shell command or as an option', async () => {
    const saved = t.ctx.config.externalCalls.exportCruise;
    const cruiseWith = async (cruiseId: string) => {
      const res = await t.api('PATCH', `/cruises/${cruiseUid}`, { token: admin, body: { cruise_id: cruiseId } });
      expect(res.statusCode, res.body).toBe(204);
    };
    const exportCruise = () => t.api('GET', `/external_calls/export_cruise/${cruiseUid}`, { token: admin });
    const shown = path.join(dir, 'shown');
    try {
      // {id} inside a shell's command text is refused before anything runs.
      t.ctx.config.externalCalls.exportCruise = `sh -c 'touch ${shown}; echo {id}'`;
      const inText = await exportCruise();
      expect(inText.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message:
          'The cruise export command is not valid: {id} must be a whole argument (a script run by a shell reads $BATHYLOG_RECORD_ID)',
      });
      expect(existsSync(shown)).toBe(false);

      // Ids that would be options or shell text are refused.
      t.ctx.config.externalCalls.exportCruise = `${JSON.stringify(process.execPath)} -e 'console.log(process.argv[1])' {id}`;
      for (const bad of ['--help', '-e', 'x;touch pwned', '$(reboot)', '../../etc', '.hidden', 'a/b']) {
        await cruiseWith(bad);
        const res = await exportCruise();
        expect(res.statusCode, bad).toBe(400);
        expect((res.json() as { message: string }).message).toBe(
          `The cruise id ${JSON.stringify(bad)} cannot be passed to the export command: it must start with a letter or a digit and hold only letters, digits, spaces and _ . + -`,
        );
      }

      // A script run by a shell reads the id from its environment.
      await cruiseWith('FKt230303');
      t.ctx.config.externalCalls.exportCruise = `sh -c 'echo "$BATHYLOG_RECORD_KIND $BATHYLOG_RECORD_ID $BATHYLOG_RECORD_UID $1"' sh {id}`;
      const c = await listener();
      await c.call({ type: 'request', id: 1, path: '/ws/execute_output' });
      expect((await exportCruise()).statusCode).toBe(202);
      await c.closed;
      expect(updates(c)).toContain(`cruise FKt230303 ${cruiseUid} FKt230303`);
    } finally {
      t.ctx.config.externalCalls.exportCruise = saved;
      await cruiseWith('FKt230303');
    }
  });

  it('lets only admins listen, and answers the plain HTTP route without registering anything', async () => {
    const c = await listener(users.tokens.cruise_manager!);
    const reply: Frame = await c.call({ type: 'request', id: 1, path: '/ws/execute_output' });
    expect(reply).toEqual({
      type: 'request',
      id: 1,
      statusCode: 403,
      payload: { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope' },
    });
    const http = await t.app.inject({ method: 'GET', url: '/ws/execute_output' });
    expect(http.statusCode).toBe(200);
    expect(http.body).toBe('connection request received');
  });
});
