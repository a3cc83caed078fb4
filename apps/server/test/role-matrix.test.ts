import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeOutputEndPrefix } from '@bathylog/shared';
import { internalChannels } from '../src/realtime/internal-channels.js';
import { systemIds } from '../src/seed/system.js';
import { callerKinds, createRoleUsers, type RoleUsers } from './role-tokens.js';
import { createTestApp, engines, type TestApp } from './test-app.js';
import { routeOf, serverRoutes } from './route-match.js';
import { peer } from './peers.js';

/**
 * Every route called by every kind of caller, with the status each must get (the scopes and rules
 * of docs/roles-and-access.md):
 * cruise_manager edits but does not create, delete, hide or re-key cruises and lowerings;
 * event_manager changes and deletes any event, other writers only the ones they created (deleting
 * only fresh ones) and the comment of any; template_manager
 * edits non-system templates; event_watcher only reads; no token or a disabled user gets 401.
 *
 * Columns, in order: admin, cruise_manager, event_manager, template_manager, event_logger,
 * event_watcher, guest (event_manager + event_logger + event_watcher), no token, disabled user.
 */
type Statuses = readonly [number, number, number, number, number, number, number, number, number];

/** Everyone signed in may do it. */
const everyone = (ok: number): Statuses => [ok, ok, ok, ok, ok, ok, ok, 401, 401];
/** read_event_templates: all but event_watcher. */
const templateReaders = (ok: number): Statuses => [ok, ok, ok, ok, ok, 403, ok, 401, 401];
/** write_events: all but event_watcher. */
const eventWriters = (ok: number): Statuses => [ok, ok, ok, ok, ok, 403, ok, 401, 401];
/**
 * Aux data of someone else's event (docs/security.md#who-may-change-an-events-data): admins, event
 * managers (the demo guest is one) and aux-data inserters; other event writers only on their own events.
 */
const auxChangers = (ok: number): Statuses => [ok, 403, ok, 403, 403, 403, ok, 401, 401];
/** write_event_templates: admin, cruise_manager, template_manager. */
const templateWriters = (ok: number): Statuses => [ok, ok, 403, ok, 403, 403, 403, 401, 401];
/** write_cruises / write_lowerings: admin and cruise_manager. */
const recordEditors = (ok: number): Statuses => [ok, ok, 403, 403, 403, 403, 403, 401, 401];
/** Admin only. */
const adminOnly = (ok: number): Statuses => [ok, 403, 403, 403, 403, 403, 403, 401, 401];
/** No authentication at all (public images). */
const publicRoute = (ok: number): Statuses => [ok, ok, ok, ok, ok, ok, ok, ok, ok];

/** A disabled InfluxDB manager with a data source of its own (the matrix never reaches its source). */
const matrixManager = (n: string) => ({
  name: `matrix-${n}`,
  kind: 'influx',
  enabled: false,
  config_yaml: `data_source: matrix${n}\nquery_measurements: [m]\naux_record_lookup:\n  f:\n    name: f\nsource:\n  url: http://127.0.0.1:9\n  database: d\n`,
});

interface Request {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** Full path from the server root. */
  url: string;
  body?: unknown;
  /** A raw body with its content type (multipart uploads, revert ids). */
  raw?: { payload: string | Buffer; contentType: string };
  /** Send the token as `?token=` instead of the Authorization header. */
  tokenInQuery?: boolean;
  headers?: Record<string, string>;
  /** The caller's token for this call, when the row had to make a fresh one (null: none). */
  token?: string | null;
}

interface Fixture {
  t: TestApp;
  users: RoleUsers;
  admin: string;
  cruise: string;
  lowering: string;
  event: string;
  aux: string;
  template: string;
  systemTemplate: string;
  /** A unique suffix per call, so fresh records never collide. */
  next(): string;
  /** The device key (roles: event_logger) the matrix calls with. */
  keyToken: string;
  /** A user holding only Sealog 2.4's power_logger role. */
  powerToken: string;
}

function tokenOf(fx: Fixture, caller: MatrixCaller): string | undefined {
  if (caller === 'power_logger') return fx.powerToken;
  return caller === 'device_key' ? fx.keyToken : fx.users.tokens[caller];
}

const passwords: Partial<Record<MatrixCaller, string>> = { admin: 'demo', guest: '' };

/**
 * A token for the caller that does not depend on the shared role users (for rows that delete
 * users or sign callers out): a freshly made user with the same role, or a fresh login.
 */
async function freshToken(fx: Fixture, caller: MatrixCaller): Promise<string | null> {
  if (caller === 'none') return null;
  if (caller === 'disabled' || caller === 'device_key') return tokenOf(fx, caller)!;
  if (caller in passwords) return fx.t.login(caller, passwords[caller]!);
  const name = `f${fx.next()}`.slice(0, 15);
  const made = await fx.t.api('POST', '/users', {
    token: await fx.t.login('admin', 'demo'),
    body: { username: name, fullname: name, email: `${name}@example.org`, password: 'secret-pw', roles: [caller] },
  });
  if (made.statusCode !== 201) throw new Error(`fresh ${caller}: ${made.statusCode} ${made.body}`);
  return fx.t.login(name, 'secret-pw');
}

const newUser = (fx: Fixture) => {
  const name = `v${fx.next()}`.slice(0, 15);
  return newId(fx, '/users', {
    username: name,
    fullname: name,
    email: `${name}@example.org`,
    password: 'secret-pw',
    roles: ['event_logger'],
  });
};

/** The smallest PNG (1×1), for event attachments. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function deletedEventSeq(fx: Fixture): Promise<number> {
  const id = await newEvent(fx);
  const del = await fx.t.api('DELETE', `/events/${id}`, { token: fx.admin });
  if (del.statusCode !== 204) throw new Error(`fixture delete: ${del.statusCode}`);
  const audit = (await adminCall(fx, 'GET', `/audit?record_id=${id}`)) as {
    entries: Array<{ seq: number; action: string }>;
  };
  return audit.entries.find((e) => e.action === 'delete')!.seq;
}

interface Row {
  name: string;
  expect: Statuses;
  /** The device key (roles: event_logger) gets the event_logger column unless this says otherwise. */
  key?: number;
  /** A power_logger gets the event_logger column unless this says otherwise (admin-only templates). */
  power?: number;
  /** Builds the request for one caller, creating (as admin) any record the call consumes. */
  request(fx: Fixture, caller: MatrixCaller): Promise<Request> | Request;
  /** After a 202 external call: wait for the command to end so the next one can start. */
  waitForCommand?: boolean;
}

/** The taxon the taxa rows read and map to (Ophiuroidea, a real AphiaID), stored once as admin. */
async function matrixTaxon(fx: Fixture): Promise<void> {
  await adminCall(fx, 'POST', '/taxa/imports?kind=json', [{ aphia_id: 123084, scientific_name: 'Ophiuroidea' }]);
}

const api = '/sealog-server/api/v1';
const files = '/sealog-server/files';
const hour = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function adminCall(
  fx: Fixture,
  method: Request['method'],
  url: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fx.t.api(method, url, { token: fx.admin, ...(body !== undefined ? { body } : {}) });
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.body ? (res.json() as Record<string, unknown>) : {};
}

/** A checklist of two manual items (ticking one never completes it). */
const checklistBody = (fx: Fixture) => ({
  name: `Checks ${fx.next()}`,
  phase: 'pre_dive',
  items: [
    { id: 'first', label: 'First', kind: 'manual' },
    { id: 'second', label: 'Second', kind: 'manual' },
  ],
});

async function newChecklist(fx: Fixture): Promise<string> {
  return (await adminCall(fx, 'POST', '/checklists', checklistBody(fx))).id as string;
}

/** A one-second video made by ffmpeg once per run, copied under a fresh name per call (URIs are registered once). */
let videoTemplate: string | null = null;
function videoFile(fx: Fixture): string {
  const dir = path.join(fx.t.dataDir, 'video');
  mkdirSync(dir, { recursive: true });
  // Made again when the engine's fixture (and its data folder) that made it has gone.
  if (!videoTemplate || !existsSync(videoTemplate)) {
    videoTemplate = path.join(fx.t.dataDir, 'matrix-template.mp4');
    execFileSync(peer('ffmpeg') ?? 'ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=64x48:rate=5:duration=1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', videoTemplate],
    ]);
  }
  const name = `m${fx.next()}_20010101T000000Z.mp4`;
  copyFileSync(videoTemplate, path.join(dir, name));
  return `video/${name}`;
}
const recordingBody = (fx: Fixture) => ({
  camera: 'matrixcam',
  start_ts: iso(Date.now() - 2 * hour),
  copies: [{ uri: videoFile(fx), role: 'master' }],
});
async function newRecording(fx: Fixture): Promise<{ lowering: string; id: string; copy: string; name: string }> {
  const lowering = await newLowering(fx);
  const made = await adminCall(fx, 'POST', `/lowerings/${lowering}/recordings`, recordingBody(fx));
  const copy = (made.copies as Array<{ id: string; uri: string }>)[0]!;
  return { lowering, id: made.id as string, copy: copy.id, name: path.basename(copy.uri) };
}

let pastCruises = 0;

/**
 * The shared cruise covers now; every other cruise gets its own two days in 2001, so hiding one
 * (which cascades to the lowerings inside it) never touches the shared lowering.
 */
const cruiseBody = (fx: Fixture, opts: { current?: boolean } = {}) => {
  const start = opts.current ? Date.now() - 20 * 24 * hour : Date.UTC(2001, 0, 1) + pastCruises++ * 48 * hour;
  const stop = opts.current ? Date.now() + 20 * 24 * hour : start + 24 * hour;
  return { ...cruiseFields(fx), start_ts: iso(start), stop_ts: iso(stop) };
};

const cruiseFields = (fx: Fixture) => ({
  cruise_id: `C${fx.next()}`,
  cruise_location: 'Kane FZ',
  cruise_tags: [],
  cruise_additional_meta: {
    cruise_name: 'Matrix',
    cruise_vessel: 'R/V Falkor (too)',
    cruise_pi: 'Someone',
    cruise_departure_location: 'Ponta Delgada',
    cruise_arrival_location: 'Ponta Delgada',
  },
});

const loweringBody = (fx: Fixture, n = fx.next()) => ({
  lowering_id: `L${n}`,
  start_ts: iso(Date.now() - 2 * hour),
  stop_ts: iso(Date.now() + 2 * hour),
  lowering_location: 'Kane FZ',
  lowering_tags: [],
  lowering_additional_meta: { lowering_description: 'matrix' },
});

const templateBody = (fx: Fixture, extra: Record<string, unknown> = {}) => ({
  event_name: `T${fx.next()}`,
  event_value: 'MATRIX',
  event_free_text_required: false,
  system_template: false,
  event_options: [],
  ...extra,
});

const newId = async (fx: Fixture, url: string, body: unknown) =>
  (await adminCall(fx, 'POST', url, body)).insertedId as string;
const newCruise = (fx: Fixture) => newId(fx, '/cruises', cruiseBody(fx));
const newLowering = (fx: Fixture) => newId(fx, '/lowerings', loweringBody(fx));
const newEvent = (fx: Fixture, extra: Record<string, unknown> = {}) =>
  newId(fx, '/events', { event_value: 'MATRIX', ts: iso(Date.now() - hour), publish: false, ...extra });
/** An event the caller logged itself (callers who cannot log get one of the admin's). */
async function ownEvent(fx: Fixture, caller: MatrixCaller): Promise<string> {
  const token = tokenOf(fx, caller);
  const mayLog = token && !['event_watcher', 'disabled'].includes(caller);
  const res = await fx.t.api('POST', '/events', {
    token: mayLog ? token : fx.admin,
    body: { event_value: 'MINE', publish: false },
  });
  if (res.statusCode !== 201) throw new Error(`fixture own event: ${res.statusCode} ${res.body}`);
  return (res.json() as { insertedId: string }).insertedId;
}
const newAux = async (fx: Fixture) =>
  newId(fx, '/event_aux_data', {
    event_id: await newEvent(fx),
    data_source: 'matrixSource',
    data_array: [{ data_name: 'depth', data_value: '12' }],
  });

/** A multipart body: FilePond sends its metadata field and then the file under the same name. */
function multipart(parts: Array<{ name: string; value: string; filename?: string }>): {
  payload: Buffer;
  contentType: string;
} {
  const boundary = '----bathylogMatrix';
  const chunks = parts.map((p) =>
    [
      `--${boundary}`,
      p.filename
        ? `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: text/plain`
        : `Content-Disposition: form-data; name="${p.name}"`,
      '',
      p.value,
    ].join('\r\n'),
  );
  return {
    payload: Buffer.from(`${chunks.join('\r\n')}\r\n--${boundary}--\r\n`, 'latin1'),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const pngUpload = () =>
  multipart([
    { name: 'filepond', value: '{}' },
    { name: 'filepond', value: tinyPng.toString('latin1'), filename: 'matrix.png' },
  ]);

/**
 * A picture uploaded to a new event of the caller's (the admin's, for a caller who may not log), for
 * the routes that remove one's own upload: the event id and the stored file name.
 */
async function ownUpload(fx: Fixture, caller: MatrixCaller): Promise<{ eventId: string; stored: string }> {
  const token = tokenOf(fx, caller);
  const mayLog = token && !['event_watcher', 'disabled'].includes(caller);
  const as = mayLog ? token : fx.admin;
  const id = (
    (await fx.t.api('POST', '/events', { token: as, body: { event_value: 'PIC', publish: false } })).json() as {
      insertedId: string;
    }
  ).insertedId;
  const up = pngUpload();
  const res = await fx.t.app.inject({
    method: 'POST',
    url: `${files}/images/filepond/process/${id}`,
    headers: { authorization: `Bearer ${as}`, 'content-type': up.contentType },
    payload: up.payload,
  });
  if (res.statusCode !== 201) throw new Error(`fixture picture: ${res.statusCode} ${res.body}`);
  return { eventId: id, stored: res.body };
}

const filepondUpload = (fx: Fixture) =>
  multipart([
    { name: 'filepond', value: '{}' },
    { name: 'filepond', value: `notes ${fx.next()}`, filename: `notes-${fx.next()}.txt` },
  ]);

/** Puts a file straight into a record's folder, as an earlier upload would have. */
function placeFile(fx: Fixture, kind: 'cruises' | 'lowerings', id: string, name: string): void {
  const dir = path.join(kind === 'cruises' ? fx.t.ctx.paths.cruises : fx.t.ctx.paths.lowerings, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), 'matrix file\n');
}

async function uploadId(fx: Fixture, kind: 'cruises' | 'lowerings', id: string): Promise<string> {
  const body = filepondUpload(fx);
  const res = await fx.t.app.inject({
    method: 'POST',
    url: `${files}/${kind}/filepond/process/${id}`,
    headers: { authorization: `Bearer ${fx.admin}`, 'content-type': body.contentType },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`fixture upload: ${res.statusCode} ${res.body}`);
  return res.body;
}

const rows: Row[] = [
  // Cruises (docs/wire.md#cruises)
  { name: 'GET /cruises', expect: everyone(200), request: () => ({ method: 'GET', url: `${api}/cruises` }) },
  {
    name: 'GET /cruises csv',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/cruises?format=csv` }),
  },
  {
    name: 'GET /cruises/bylowering/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/cruises/bylowering/${fx.lowering}` }),
  },
  {
    name: 'GET /cruises/byevent/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/cruises/byevent/${fx.event}` }),
  },
  {
    name: 'GET /cruises/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/cruises/${fx.cruise}` }),
  },
  {
    name: 'GET /cruises/bycruiseid/{cruise_id}',
    expect: everyone(200),
    request: async (fx) => ({
      method: 'GET',
      url: `${api}/cruises/bycruiseid/${(await adminCall(fx, 'GET', `/cruises/${fx.cruise}`)).cruise_id as string}`,
    }),
  },
  {
    name: 'GET /cruises/{id}/bump',
    expect: recordEditors(200),
    request: (fx) => ({ method: 'GET', url: `${api}/cruises/${fx.cruise}/bump` }),
  },
  {
    name: 'POST /cruises',
    expect: adminOnly(201),
    request: (fx) => ({ method: 'POST', url: `${api}/cruises`, body: cruiseBody(fx) }),
  },
  {
    name: 'PATCH /cruises/{id} (location, description)',
    expect: recordEditors(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/cruises/${await newCruise(fx)}`,
      body: {
        cruise_location: 'Atlantis Massif',
        cruise_additional_meta: { ...cruiseBody(fx).cruise_additional_meta, cruise_description: 'new' },
      },
    }),
  },
  {
    name: 'PATCH /cruises/{id} (cruise_id)',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/cruises/${await newCruise(fx)}`,
      body: { cruise_id: `X${fx.next()}` },
    }),
  },
  {
    name: 'PATCH /cruises/{id} (start_ts)',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/cruises/${await newCruise(fx)}`,
      body: { start_ts: '2000-06-01T00:00:00.000Z' },
    }),
  },
  {
    name: 'PATCH /cruises/{id} (vessel)',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/cruises/${await newCruise(fx)}`,
      body: { cruise_additional_meta: { ...cruiseBody(fx).cruise_additional_meta, cruise_vessel: 'R/V Other' } },
    }),
  },
  {
    name: 'PATCH /cruises/{id} (hide)',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/cruises/${await newCruise(fx)}`,
      body: { cruise_hidden: true },
    }),
  },
  {
    name: 'PATCH /cruises/{id}/permissions',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/cruises/${await newCruise(fx)}/permissions`,
      body: { add: [systemIds.guest] },
    }),
  },
  {
    name: 'DELETE /cruises/{id}',
    expect: adminOnly(204),
    request: async (fx) => ({ method: 'DELETE', url: `${api}/cruises/${await newCruise(fx)}` }),
  },

  // Lowerings (docs/wire.md#lowerings)
  { name: 'GET /lowerings', expect: everyone(200), request: () => ({ method: 'GET', url: `${api}/lowerings` }) },
  {
    name: 'GET /lowerings csv',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/lowerings?format=csv` }),
  },
  {
    name: 'GET /lowerings/bycruise/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/lowerings/bycruise/${fx.cruise}` }),
  },
  {
    name: 'GET /lowerings/byevent/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/lowerings/byevent/${fx.event}` }),
  },
  {
    name: 'GET /lowerings/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/lowerings/${fx.lowering}` }),
  },
  {
    name: 'GET /lowerings/byloweringid/{lowering_id}',
    expect: everyone(200),
    request: async (fx) => {
      const lowering = await adminCall(fx, 'GET', `/lowerings/${fx.lowering}`);
      return { method: 'GET', url: `${api}/lowerings/byloweringid/${lowering.lowering_id as string}` };
    },
  },
  {
    name: 'GET /lowerings/{id}/bump',
    expect: recordEditors(200),
    request: (fx) => ({ method: 'GET', url: `${api}/lowerings/${fx.lowering}/bump` }),
  },
  {
    name: 'POST /lowerings',
    expect: adminOnly(201),
    request: (fx) => ({ method: 'POST', url: `${api}/lowerings`, body: loweringBody(fx) }),
  },
  {
    name: 'PATCH /lowerings/{id} (location, milestones)',
    expect: recordEditors(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/lowerings/${await newLowering(fx)}`,
      body: {
        lowering_location: 'Atlantis Massif',
        lowering_additional_meta: {
          lowering_description: 'edited',
          milestones: { lowering_on_bottom: iso(Date.now() - hour) },
        },
      },
    }),
  },
  {
    name: 'PATCH /lowerings/{id} (lowering_id)',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/lowerings/${await newLowering(fx)}`,
      body: { lowering_id: `X${fx.next()}` },
    }),
  },
  {
    name: 'PATCH /lowerings/{id} (stop_ts)',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/lowerings/${await newLowering(fx)}`,
      body: { stop_ts: iso(Date.now() + 3 * hour) },
    }),
  },
  {
    name: 'PATCH /lowerings/{id} (hide)',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/lowerings/${await newLowering(fx)}`,
      body: { lowering_hidden: true },
    }),
  },
  {
    name: 'PATCH /lowerings/{id}/permissions',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/lowerings/${await newLowering(fx)}/permissions`,
      body: { add: [systemIds.guest] },
    }),
  },
  {
    name: 'DELETE /lowerings/{id}',
    expect: adminOnly(204),
    request: async (fx) => ({ method: 'DELETE', url: `${api}/lowerings/${await newLowering(fx)}` }),
  },

  // Events (docs/wire.md#events)
  { name: 'GET /events', expect: everyone(200), request: () => ({ method: 'GET', url: `${api}/events` }) },
  {
    name: 'GET /events csv',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/events?format=csv` }),
  },
  { name: 'GET /events/count', expect: everyone(200), request: () => ({ method: 'GET', url: `${api}/events/count` }) },
  {
    name: 'GET /events/bycruise/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/events/bycruise/${fx.cruise}` }),
  },
  {
    name: 'GET /events/bycruise/{id}/count',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/events/bycruise/${fx.cruise}/count` }),
  },
  {
    name: 'GET /events/bylowering/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/events/bylowering/${fx.lowering}` }),
  },
  {
    name: 'GET /events/bylowering/{id}/count',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/events/bylowering/${fx.lowering}/count` }),
  },
  {
    name: 'GET /events/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/events/${fx.event}` }),
  },
  {
    name: 'GET /events/{id}?aux_data=true',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/events/${fx.event}?aux_data=true` }),
  },
  {
    name: 'POST /events',
    expect: eventWriters(201),
    request: () => ({
      method: 'POST',
      url: `${api}/events`,
      body: { event_value: 'FISH', event_options: [{ event_option_name: 'kind', event_option_value: 'eel' }] },
    }),
  },
  {
    name: "PATCH /events/{id} (someone else's event)",
    expect: [204, 403, 204, 403, 403, 403, 204, 401, 401],
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/events/${await newEvent(fx)}`,
      body: { event_free_text: 'a comment' },
    }),
  },
  {
    name: "PATCH /events/{id} (a comment on someone else's event)",
    expect: eventWriters(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/events/${await newEvent(fx)}`,
      body: { event_options: [{ event_option_name: 'event_comment', event_option_value: 'nice' }] },
    }),
  },
  {
    name: 'PATCH /events/{id} (own event)',
    expect: eventWriters(204),
    request: async (fx, caller) => {
      const token = tokenOf(fx, caller);
      const mayLog = token && !['event_watcher', 'disabled'].includes(caller);
      // Callers who cannot log get an event logged by the admin.
      const res = await fx.t.api('POST', '/events', {
        token: mayLog ? token : fx.admin,
        body: { event_value: 'MINE', publish: false },
      });
      if (res.statusCode !== 201) throw new Error(`fixture own event: ${res.statusCode} ${res.body}`);
      const url = `${api}/events/${(res.json() as { insertedId: string }).insertedId}`;
      return { method: 'PATCH', url, body: { event_value: 'MINE, EDITED', event_author: 'someone' } };
    },
  },
  {
    name: "DELETE /events/{id} (someone else's event)",
    expect: [204, 403, 204, 403, 403, 403, 204, 401, 401],
    request: async (fx) => ({ method: 'DELETE', url: `${api}/events/${await newEvent(fx)}` }),
  },
  {
    name: 'DELETE /events/{id} (own event just logged)',
    expect: eventWriters(204),
    request: async (fx, caller) => {
      const token = tokenOf(fx, caller);
      const mayLog = token && !['event_watcher', 'disabled'].includes(caller);
      // Callers who cannot log get an event in their name, logged by the admin.
      const author = caller === 'guest' ? 'guest' : caller === 'admin' ? 'admin' : `u_${caller}`;
      const res = mayLog
        ? await fx.t.api('POST', '/events', { token, body: { event_value: 'MINE', publish: false } })
        : await fx.t.api('POST', '/events', {
            token: fx.admin,
            body: { event_value: 'MINE', event_author: author, publish: false },
          });
      if (res.statusCode !== 201) throw new Error(`fixture own event: ${res.statusCode} ${res.body}`);
      return { method: 'DELETE', url: `${api}/events/${(res.json() as { insertedId: string }).insertedId}` };
    },
  },
  {
    name: 'DELETE /events?value=… (filtered bulk delete)',
    expect: adminOnly(200),
    request: async (fx) => {
      const value = `BULK${fx.next()}`;
      await newEvent(fx, { event_value: value });
      return { method: 'DELETE', url: `${api}/events?value=${value}` };
    },
  },

  // Event aux data (docs/wire.md#event-aux-data)
  {
    name: 'GET /event_aux_data',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/event_aux_data` }),
  },
  {
    name: 'GET /event_aux_data/bycruise/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/event_aux_data/bycruise/${fx.cruise}` }),
  },
  {
    name: 'GET /event_aux_data/bylowering/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/event_aux_data/bylowering/${fx.lowering}` }),
  },
  {
    name: 'GET /event_aux_data/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/event_aux_data/${fx.aux}` }),
  },
  {
    name: "POST /event_aux_data (someone else's event)",
    expect: auxChangers(201),
    request: async (fx) => ({
      method: 'POST',
      url: `${api}/event_aux_data`,
      body: {
        event_id: await newEvent(fx),
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: 1012.5, data_uom: 'm' }],
      },
    }),
  },
  {
    name: 'POST /event_aux_data (own event)',
    expect: eventWriters(201),
    request: async (fx, caller) => ({
      method: 'POST',
      url: `${api}/event_aux_data`,
      body: {
        event_id: await ownEvent(fx, caller),
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: 1012.5, data_uom: 'm' }],
      },
    }),
  },
  {
    name: "PATCH /event_aux_data/{id} (someone else's event)",
    expect: auxChangers(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/event_aux_data/${await newAux(fx)}`,
      body: { data_array: [{ data_name: 'depth', data_value: '13' }] },
    }),
  },
  {
    name: "DELETE /event_aux_data/{id} (someone else's event)",
    expect: auxChangers(204),
    request: async (fx) => ({ method: 'DELETE', url: `${api}/event_aux_data/${await newAux(fx)}` }),
  },

  // Event exports (docs/wire.md#event-exports)
  {
    name: 'GET /event_exports',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/event_exports` }),
  },
  {
    name: 'GET /event_exports csv',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/event_exports?format=csv` }),
  },
  {
    name: 'GET /event_exports/bycruise/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/event_exports/bycruise/${fx.cruise}` }),
  },
  {
    name: 'GET /event_exports/bylowering/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/event_exports/bylowering/${fx.lowering}` }),
  },
  {
    name: 'GET /event_exports/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/event_exports/${fx.event}` }),
  },

  // Event templates (docs/wire.md#event-templates)
  {
    name: 'GET /event_templates',
    expect: templateReaders(200),
    request: () => ({ method: 'GET', url: `${api}/event_templates` }),
  },
  {
    name: 'GET /event_templates/{id}',
    expect: templateReaders(200),
    request: (fx) => ({ method: 'GET', url: `${api}/event_templates/${fx.template}` }),
  },
  {
    name: 'GET /event_templates/{id} (admin-only system template)',
    expect: [200, 404, 404, 404, 404, 403, 404, 401, 401],
    power: 200,
    request: (fx) => ({ method: 'GET', url: `${api}/event_templates/${fx.systemTemplate}` }),
  },
  {
    name: 'POST /event_templates',
    expect: templateWriters(201),
    request: (fx) => ({ method: 'POST', url: `${api}/event_templates`, body: templateBody(fx) }),
  },
  {
    name: 'POST /event_templates (system)',
    expect: adminOnly(201),
    request: (fx) => ({
      method: 'POST',
      url: `${api}/event_templates`,
      body: templateBody(fx, { system_template: true }),
    }),
  },
  {
    name: 'PATCH /event_templates/{id}',
    expect: templateWriters(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/event_templates/${await newId(fx, '/event_templates', templateBody(fx))}`,
      body: { event_value: 'EDITED' },
    }),
  },
  {
    name: 'PATCH /event_templates/{id} (system)',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/event_templates/${await newId(fx, '/event_templates', templateBody(fx, { system_template: true }))}`,
      body: { event_value: 'EDITED' },
    }),
  },
  {
    name: 'DELETE /event_templates/{id}',
    expect: templateWriters(204),
    request: async (fx) => ({
      method: 'DELETE',
      url: `${api}/event_templates/${await newId(fx, '/event_templates', templateBody(fx))}`,
    }),
  },
  {
    name: 'DELETE /event_templates/{id} (system)',
    // Sealog's own refusal of this one is a 401 with a message; the scope check comes first.
    expect: [204, 401, 403, 401, 403, 403, 403, 401, 401],
    request: async (fx) => ({
      method: 'DELETE',
      url: `${api}/event_templates/${await newId(fx, '/event_templates', templateBody(fx, { system_template: true }))}`,
    }),
  },

  // Custom vars (docs/wire.md#custom-vars)
  {
    name: 'GET /custom_vars',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/custom_vars?name=asnapStatus` }),
  },
  {
    name: 'GET /custom_vars/{id}',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/custom_vars/${systemIds.asnapStatus}` }),
  },
  {
    name: 'PATCH /custom_vars/{id} (asnapStatus)',
    expect: eventWriters(204),
    request: () => ({
      method: 'PATCH',
      url: `${api}/custom_vars/${systemIds.asnapStatus}`,
      body: { custom_var_name: 'asnapStatus', custom_var_value: 'Off' },
    }),
  },
  {
    name: 'PATCH /custom_vars/{id} (freeSpaceInBytes, server-owned)',
    expect: [403, 403, 403, 403, 403, 403, 403, 401, 401],
    request: () => ({
      method: 'PATCH',
      url: `${api}/custom_vars/${systemIds.freeSpaceInBytes}`,
      body: { custom_var_value: '1' },
    }),
  },

  // Files (docs/wire.md#files)
  {
    name: 'GET /files/cruises/{id}/{file}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${files}/cruises/${fx.cruise}/matrix.txt` }),
  },
  {
    name: 'GET /files/cruises/{id}/{file}?token=',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${files}/cruises/${fx.cruise}/matrix.txt`, tokenInQuery: true }),
  },
  {
    name: 'GET /files/lowerings/{id}/{file}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${files}/lowerings/${fx.lowering}/matrix.txt` }),
  },
  {
    name: 'GET /files/images/{file}',
    expect: publicRoute(200),
    request: () => ({ method: 'GET', url: `${files}/images/matrix.jpg` }),
  },
  {
    name: 'POST /files/cruises/filepond/process/{id}',
    expect: recordEditors(201),
    request: (fx) => ({
      method: 'POST',
      url: `${files}/cruises/filepond/process/${fx.cruise}`,
      raw: filepondUpload(fx),
    }),
  },
  {
    name: 'POST /files/lowerings/filepond/process/{id}',
    expect: recordEditors(201),
    request: (fx) => ({
      method: 'POST',
      url: `${files}/lowerings/filepond/process/${fx.lowering}`,
      raw: filepondUpload(fx),
    }),
  },
  {
    name: 'DELETE /files/cruises/filepond/revert',
    expect: recordEditors(204),
    request: async (fx) => ({
      method: 'DELETE',
      url: `${files}/cruises/filepond/revert`,
      raw: { payload: await uploadId(fx, 'cruises', fx.cruise), contentType: 'text/plain' },
    }),
  },
  {
    name: 'DELETE /files/lowerings/filepond/revert',
    expect: recordEditors(204),
    request: async (fx) => ({
      method: 'DELETE',
      url: `${files}/lowerings/filepond/revert`,
      raw: { payload: await uploadId(fx, 'lowerings', fx.lowering), contentType: 'text/plain' },
    }),
  },
  {
    name: 'POST /files/cruises/{id} (direct upload)',
    expect: recordEditors(201),
    request: (fx) => ({
      method: 'POST',
      url: `${files}/cruises/${fx.cruise}`,
      raw: multipart([{ name: 'file', value: 'direct', filename: `direct-${fx.next()}.txt` }]),
    }),
  },
  {
    name: 'POST /files/lowerings/{id} (direct upload)',
    expect: recordEditors(201),
    request: (fx) => ({
      method: 'POST',
      url: `${files}/lowerings/${fx.lowering}`,
      raw: multipart([{ name: 'file', value: 'direct', filename: `direct-${fx.next()}.txt` }]),
    }),
  },
  {
    name: 'DELETE /files/cruises/{id}/{file}',
    expect: recordEditors(204),
    request: (fx) => {
      const name = `gone-${fx.next()}.txt`;
      placeFile(fx, 'cruises', fx.cruise, name);
      return { method: 'DELETE', url: `${files}/cruises/${fx.cruise}/${name}` };
    },
  },
  {
    name: 'DELETE /files/lowerings/{id}/{file}',
    expect: recordEditors(204),
    request: (fx) => {
      const name = `gone-${fx.next()}.txt`;
      placeFile(fx, 'lowerings', fx.lowering, name);
      return { method: 'DELETE', url: `${files}/lowerings/${fx.lowering}/${name}` };
    },
  },

  // External calls (docs/wire.md#external-calls)
  {
    name: 'GET /external_calls/export_cruise/{id}',
    expect: adminOnly(202),
    waitForCommand: true,
    request: (fx) => ({ method: 'GET', url: `${api}/external_calls/export_cruise/${fx.cruise}` }),
  },
  {
    name: 'GET /external_calls/export_lowering/{id}',
    expect: adminOnly(202),
    waitForCommand: true,
    request: (fx) => ({ method: 'GET', url: `${api}/external_calls/export_lowering/${fx.lowering}` }),
  },

  // Server root, documentation, settings: public.
  { name: 'GET /sealog-server', expect: publicRoute(200), request: () => ({ method: 'GET', url: '/sealog-server' }) },
  {
    name: 'GET /sealog-server/server_time',
    expect: publicRoute(200),
    request: () => ({ method: 'GET', url: '/sealog-server/server_time' }),
  },
  {
    name: 'GET /sealog-server/restricted',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: '/sealog-server/restricted' }),
  },
  {
    name: 'GET /sealog-server/client_settings',
    expect: publicRoute(200),
    request: () => ({ method: 'GET', url: '/sealog-server/client_settings' }),
  },
  {
    name: 'GET /sealog-server/swagger.json',
    expect: publicRoute(200),
    request: () => ({ method: 'GET', url: '/sealog-server/swagger.json' }),
  },
  {
    name: 'GET /sealog-server/documentation',
    expect: publicRoute(200),
    request: () => ({ method: 'GET', url: '/sealog-server/documentation' }),
  },
  {
    name: 'HEAD /sealog-server/documentation/',
    expect: publicRoute(200),
    request: () => ({ method: 'HEAD', url: '/sealog-server/documentation/' }),
  },
  {
    name: 'GET /sealog-server/documentation/static/index.html (to the documentation)',
    expect: publicRoute(302),
    request: () => ({ method: 'GET', url: '/sealog-server/documentation/static/index.html' }),
  },
  ...['static/swagger-initializer.js', 'json', 'yaml', 'static/swagger-ui.css'].map((file): Row => ({
    name: `GET /sealog-server/documentation/${file}`,
    expect: publicRoute(200),
    request: () => ({ method: 'GET', url: `/sealog-server/documentation/${file}` }),
  })),
  {
    name: 'GET /ws/execute_output (over plain HTTP)',
    expect: publicRoute(200),
    request: () => ({ method: 'GET', url: '/ws/execute_output' }),
  },
  {
    name: 'OPTIONS * (CORS preflight)',
    expect: publicRoute(204),
    request: () => ({
      method: 'OPTIONS',
      url: `${api}/events`,
      headers: { origin: 'https://client.example', 'access-control-request-method': 'POST' },
    }),
  },

  // Auth (docs/wire.md#auth)
  {
    name: 'POST /auth/login',
    expect: publicRoute(200),
    request: () => ({ method: 'POST', url: `${api}/auth/login`, body: { username: 'admin', password: 'demo' } }),
  },
  {
    name: 'POST /auth/logout (clears the browser session cookies)',
    expect: publicRoute(204),
    request: () => ({ method: 'POST', url: `${api}/auth/logout` }),
  },
  {
    name: 'POST /auth/register',
    expect: publicRoute(201),
    request: (fx) => {
      const name = `r${fx.next()}`.slice(0, 15);
      return {
        method: 'POST',
        url: `${api}/auth/register`,
        body: { username: name, fullname: name, email: `${name}@example.org`, password: 'secret-pw' },
      };
    },
  },
  {
    name: 'POST /auth/forgotPassword',
    expect: publicRoute(200),
    request: () => ({
      method: 'POST',
      url: `${api}/auth/forgotPassword`,
      body: { email: 'u_event_logger@example.org', resetURL: 'http://localhost:8000/resetPassword/' },
    }),
  },
  {
    name: 'PATCH /auth/resetPassword (unknown reset token)',
    expect: publicRoute(401),
    request: () => ({
      method: 'PATCH',
      url: `${api}/auth/resetPassword`,
      body: { token: 'not-a-reset-token', password: 'new-secret-pw' },
    }),
  },
  {
    name: 'GET /auth/validate',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/auth/validate` }),
  },
  {
    name: 'GET /auth/profile',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/auth/profile` }),
  },
  {
    name: 'PATCH /auth/profile',
    expect: everyone(204),
    key: 403,
    request: () => ({ method: 'PATCH', url: `${api}/auth/profile`, body: { fullname: 'Matrix Person' } }),
  },
  {
    name: 'GET /auth/profile/token',
    expect: everyone(200),
    key: 403,
    request: () => ({ method: 'GET', url: `${api}/auth/profile/token` }),
  },

  // Users (docs/wire.md#users)
  {
    name: 'GET /users',
    expect: [200, 200, 403, 403, 403, 403, 403, 401, 401],
    request: () => ({ method: 'GET', url: `${api}/users` }),
  },
  {
    // The WHOI login page lists the guest accounts before anyone signs in.
    name: 'GET /users/guests',
    expect: publicRoute(200),
    request: () => ({ method: 'GET', url: `${api}/users/guests` }),
  },
  {
    name: 'GET /users/{id}',
    expect: [200, 200, 403, 403, 403, 403, 403, 401, 401],
    request: async (fx) => ({ method: 'GET', url: `${api}/users/${await newUser(fx)}` }),
  },
  {
    name: 'POST /users',
    expect: [201, 201, 403, 403, 403, 403, 403, 401, 401],
    request: (fx) => {
      const name = `n${fx.next()}`.slice(0, 15);
      return {
        method: 'POST',
        url: `${api}/users`,
        body: {
          username: name,
          fullname: name,
          email: `${name}@example.org`,
          password: 'secret-pw',
          roles: ['event_logger'],
        },
      };
    },
  },
  {
    name: "PATCH /users/{id} (another user's name)",
    // Sealog answers 400 here (its first check of PATCH users); cruise managers hold write_users.
    expect: [204, 204, 400, 400, 400, 400, 400, 401, 401],
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/users/${await newUser(fx)}`,
      body: { fullname: 'Renamed' },
    }),
  },
  {
    name: 'DELETE /users/{id}',
    expect: [204, 204, 403, 403, 403, 403, 403, 401, 401],
    request: async (fx) => ({ method: 'DELETE', url: `${api}/users/${await newUser(fx)}` }),
  },
  {
    name: "GET /users/{id}/token (another user's API token)",
    // Owner or admin only; Sealog's refusal is a 401 with its message (docs/wire.md#users).
    expect: [200, 401, 401, 401, 401, 401, 401, 401, 401],
    key: 403,
    request: async (fx) => ({ method: 'GET', url: `${api}/users/${await newUser(fx)}/token` }),
  },
  {
    name: "GET /users/{id}/loginToken (another user's login token)",
    expect: [200, 401, 401, 401, 401, 401, 401, 401, 401],
    request: async (fx) => ({ method: 'GET', url: `${api}/users/${await newUser(fx)}/loginToken` }),
  },

  // GIS exports (docs/review-and-gis.md)
  {
    name: 'GET /gis_exports/bycruise/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/gis_exports/bycruise/${fx.cruise}` }),
  },
  {
    name: 'GET /gis_exports/bylowering/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/gis_exports/bylowering/${fx.lowering}` }),
  },

  // Standard publication (docs/publication.md): exports read as the record's other exports; admins set the mapping.
  ...(['cruise', 'lowering'] as const).flatMap((kind) =>
    (['dwca', 'dwca_report'] as const).map((route) => ({
      name: `GET /publication/${route}/by${kind}/{id}`,
      expect: everyone(200),
      request: (fx: Fixture) => ({ method: 'GET' as const, url: `${api}/publication/${route}/by${kind}/${fx[kind]}` }),
    })),
  ),
  {
    name: 'GET /publication/event_list/bycruise/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/publication/event_list/bycruise/${fx.cruise}` }),
  },
  {
    name: 'GET /publication/settings',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/publication/settings` }),
  },
  {
    name: 'PUT /publication/settings',
    expect: adminOnly(200),
    request: () => ({ method: 'PUT', url: `${api}/publication/settings`, body: { event_lists: [] } }),
  },

  {
    name: 'GET /tracks/bylowering/{id}',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/tracks/bylowering/${fx.lowering}` }),
  },
  {
    name: 'GET /lowerings/{id}/completeness',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/lowerings/${fx.lowering}/completeness?events=true` }),
  },
  {
    name: 'GET /completeness/newest',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/completeness/newest` }),
  },

  // Dive metrics (docs/review-and-gis.md#dive-metrics)
  {
    name: 'GET /lowerings/{id}/metrics',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/lowerings/${fx.lowering}/metrics` }),
  },
  {
    name: 'GET /cruises/{id}/metrics',
    expect: everyone(200),
    request: (fx) => ({ method: 'GET', url: `${api}/cruises/${fx.cruise}/metrics?format=csv` }),
  },

  // Audit trail (docs/security.md#the-audit-trail)
  { name: 'GET /audit', expect: adminOnly(200), request: () => ({ method: 'GET', url: `${api}/audit` }) },
  {
    name: 'POST /audit/{seq}/restore',
    expect: adminOnly(201),
    request: async (fx) => ({ method: 'POST', url: `${api}/audit/${await deletedEventSeq(fx)}/restore` }),
  },

  // Event attachments (Sealog 2.4)
  {
    name: 'POST /files/images/filepond/process/{id} (own event)',
    expect: eventWriters(201),
    request: async (fx, caller) => {
      const token = tokenOf(fx, caller);
      const mayLog = token && !['event_watcher', 'disabled'].includes(caller);
      const id = mayLog
        ? (
            (await fx.t.api('POST', '/events', { token, body: { event_value: 'PIC', publish: false } })).json() as {
              insertedId: string;
            }
          ).insertedId
        : await newEvent(fx);
      return { method: 'POST', url: `${files}/images/filepond/process/${id}`, raw: pngUpload() };
    },
  },
  {
    name: 'DELETE /files/images/filepond/revert (own upload)',
    expect: eventWriters(204),
    request: async (fx, caller) => {
      const { stored } = await ownUpload(fx, caller);
      return {
        method: 'DELETE',
        url: `${files}/images/filepond/revert`,
        raw: { payload: stored, contentType: 'text/plain' },
      };
    },
  },

  {
    name: 'DELETE /files/images/{event id}/{name} (own upload, Sealog 2.4 clients)',
    expect: eventWriters(204),
    request: async (fx, caller) => {
      const { eventId, stored } = await ownUpload(fx, caller);
      return { method: 'DELETE', url: `${files}/images/${eventId}/${stored}` };
    },
  },

  // Wipes last: they take the shared records with them.
  {
    name: 'DELETE /event_templates/all',
    expect: adminOnly(204),
    request: () => ({ method: 'DELETE', url: `${api}/event_templates/all` }),
  },
  {
    name: 'DELETE /events/all',
    expect: adminOnly(204),
    request: () => ({ method: 'DELETE', url: `${api}/events/all` }),
  },
  // Checklists (docs/checklists.md): admins define; readers of lowerings read; event writers tick.
  { name: 'GET /checklists', expect: everyone(200), request: () => ({ method: 'GET', url: `${api}/checklists` }) },
  {
    name: 'GET /checklists/{id}',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/checklists/${await newChecklist(fx)}` }),
  },
  {
    name: 'POST /checklists',
    expect: adminOnly(201),
    request: (fx) => ({ method: 'POST', url: `${api}/checklists`, body: checklistBody(fx) }),
  },
  {
    name: 'PATCH /checklists/{id}',
    expect: adminOnly(204),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/checklists/${await newChecklist(fx)}`,
      body: { name: `Renamed ${fx.next()}` },
    }),
  },
  {
    name: 'DELETE /checklists/{id}',
    expect: adminOnly(204),
    request: async (fx) => ({ method: 'DELETE', url: `${api}/checklists/${await newChecklist(fx)}` }),
  },
  {
    name: 'GET /lowerings/{id}/checklists',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/lowerings/${await newLowering(fx)}/checklists` }),
  },
  {
    name: 'POST /lowerings/{id}/checklists',
    expect: eventWriters(201),
    request: async (fx) => ({
      method: 'POST',
      url: `${api}/lowerings/${await newLowering(fx)}/checklists`,
      body: { checklist_id: await newChecklist(fx) },
    }),
  },
  {
    name: 'PATCH /lowerings/{id}/checklists/{run_id}/items/{item_id}',
    expect: eventWriters(200),
    request: async (fx) => {
      const lowering = await newLowering(fx);
      const run = await adminCall(fx, 'POST', `/lowerings/${lowering}/checklists`, {
        checklist_id: await newChecklist(fx),
      });
      return {
        method: 'PATCH',
        url: `${api}/lowerings/${lowering}/checklists/${run.id as string}/items/first`,
        body: { state: 'done' },
      };
    },
  },
  // Video recordings (docs/video.md#api): admins and cruise managers register; lowering readers read
  // and play; event writers grab an event's frame under the aux-data rule.
  {
    name: 'GET /lowerings/{id}/recordings',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/lowerings/${(await newRecording(fx)).lowering}/recordings` }),
  },
  {
    name: 'POST /lowerings/{id}/recordings',
    expect: recordEditors(201),
    request: async (fx) => ({
      method: 'POST',
      url: `${api}/lowerings/${await newLowering(fx)}/recordings`,
      body: recordingBody(fx),
    }),
  },
  {
    name: 'POST /lowerings/{id}/recordings/import',
    expect: recordEditors(201),
    request: async (fx) => ({
      method: 'POST',
      url: `${api}/lowerings/${await newLowering(fx)}/recordings/import`,
      body: { recordings: [recordingBody(fx)] },
    }),
  },
  {
    name: 'GET /recordings/{id}',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/recordings/${(await newRecording(fx)).id}` }),
  },
  {
    name: 'PATCH /recordings/{id}',
    expect: recordEditors(200),
    request: async (fx) => ({
      method: 'PATCH',
      url: `${api}/recordings/${(await newRecording(fx)).id}`,
      body: { camera: 'renamedcam' },
    }),
  },
  {
    name: 'DELETE /recordings/{id}',
    expect: recordEditors(204),
    request: async (fx) => ({ method: 'DELETE', url: `${api}/recordings/${(await newRecording(fx)).id}` }),
  },
  {
    name: 'POST /recordings/{id}/proxy',
    expect: recordEditors(202),
    request: async (fx) => ({ method: 'POST', url: `${api}/recordings/${(await newRecording(fx)).id}/proxy` }),
  },
  {
    name: 'GET /lowerings/{id}/camera_offsets',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/lowerings/${await newLowering(fx)}/camera_offsets` }),
  },
  {
    name: 'PUT /lowerings/{id}/camera_offsets/{camera}',
    expect: recordEditors(200),
    request: async (fx) => ({
      method: 'PUT',
      url: `${api}/lowerings/${await newLowering(fx)}/camera_offsets/matrixcam`,
      body: { offset_ms: 1500 },
    }),
  },
  {
    name: 'GET /lowerings/{id}/video',
    expect: everyone(200),
    request: async (fx) => ({
      method: 'GET',
      url: `${api}/lowerings/${(await newRecording(fx)).lowering}/video?ts=${iso(Date.now() - 2 * hour + 500)}`,
    }),
  },
  {
    name: 'GET /events/{id}/video',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/events/${await newEvent(fx)}/video` }),
  },
  {
    name: 'POST /events/{id}/framegrab',
    expect: auxChangers(200),
    request: async (fx) => ({ method: 'POST', url: `${api}/events/${await newEvent(fx)}/framegrab` }),
  },
  {
    name: 'POST /lowerings/{id}/framegrabs',
    expect: recordEditors(202),
    request: async (fx) => ({ method: 'POST', url: `${api}/lowerings/${await newLowering(fx)}/framegrabs` }),
  },
  {
    name: 'GET /lowerings/{id}/framegrabs',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/lowerings/${await newLowering(fx)}/framegrabs` }),
  },
  {
    name: 'GET /recordings/{id}/media',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/recordings/${(await newRecording(fx)).id}/media` }),
  },
  {
    name: 'GET /recordings/{id}/copies/{copy}/{name}',
    expect: everyone(200),
    request: async (fx) => {
      const r = await newRecording(fx);
      return { method: 'GET', url: `${api}/recordings/${r.id}/copies/${r.copy}/${r.name}` };
    },
  },
  {
    name: 'DELETE /lowerings/all',
    expect: adminOnly(204),
    request: () => ({ method: 'DELETE', url: `${api}/lowerings/all` }),
  },
  {
    name: 'DELETE /cruises/all',
    expect: adminOnly(204),
    request: () => ({ method: 'DELETE', url: `${api}/cruises/all` }),
  },
  // Device keys and sign out everywhere (admin only; a user may sign only themselves out).
  { name: 'GET /device_keys', expect: adminOnly(200), request: () => ({ method: 'GET', url: `${api}/device_keys` }) },
  {
    name: 'GET /backups/status',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: `${api}/backups/status` }),
  },
  {
    name: 'GET /storage/status',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: `${api}/storage/status` }),
  },
  // Health, for balancers: no token needed, and it names nothing but what works.
  { name: 'GET /health', expect: publicRoute(200), request: () => ({ method: 'GET', url: `${api}/health` }) },
  {
    name: 'POST /device_keys',
    expect: adminOnly(201),
    request: (fx) => ({
      method: 'POST',
      url: `${api}/device_keys`,
      body: { name: `K${fx.next()}`, roles: ['event_logger'] },
    }),
  },
  {
    name: 'DELETE /device_keys/{id} (revoke)',
    expect: adminOnly(204),
    request: async (fx) => {
      const key = await adminCall(fx, 'POST', '/device_keys', { name: `K${fx.next()}`, roles: ['event_logger'] });
      return { method: 'DELETE', url: `${api}/device_keys/${key.id as string}` };
    },
  },
  // Built-in aux-data managers (docs/aux-managers.md#rest): admins; the footer's status and an event's
  // provenance for whoever reads events.
  { name: 'GET /aux_managers', expect: adminOnly(200), request: () => ({ method: 'GET', url: `${api}/aux_managers` }) },
  {
    name: 'GET /aux_managers/status',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/aux_managers/status` }),
  },
  {
    name: 'GET /aux_managers/provenance',
    expect: everyone(200),
    request: async (fx) => {
      const event = await adminCall(fx, 'POST', '/events', { event_value: `PROV${fx.next()}` });
      return { method: 'GET', url: `${api}/aux_managers/provenance?event_id=${event.insertedId as string}` };
    },
  },
  {
    name: 'GET /aux_managers/{id}',
    expect: adminOnly(200),
    request: async (fx) => {
      const m = await adminCall(fx, 'POST', '/aux_managers', matrixManager(fx.next()));
      return { method: 'GET', url: `${api}/aux_managers/${m.id as string}` };
    },
  },
  {
    name: 'POST /aux_managers',
    expect: adminOnly(201),
    request: (fx) => ({ method: 'POST', url: `${api}/aux_managers`, body: matrixManager(fx.next()) }),
  },
  {
    name: 'PATCH /aux_managers/{id}',
    expect: adminOnly(200),
    request: async (fx) => {
      const m = await adminCall(fx, 'POST', '/aux_managers', matrixManager(fx.next()));
      return { method: 'PATCH', url: `${api}/aux_managers/${m.id as string}`, body: { enabled: false } };
    },
  },
  {
    name: 'DELETE /aux_managers/{id}',
    expect: adminOnly(204),
    request: async (fx) => {
      const m = await adminCall(fx, 'POST', '/aux_managers', matrixManager(fx.next()));
      return { method: 'DELETE', url: `${api}/aux_managers/${m.id as string}` };
    },
  },
  {
    name: 'POST /aux_managers/backfill',
    expect: adminOnly(200),
    request: (fx) => ({ method: 'POST', url: `${api}/aux_managers/backfill`, body: { event_ids: [fx.event] } }),
  },
  // Ship-to-shore (docs/ship-to-shore.md#access): the feed serves admins and device keys given a
  // shore follower right (the matrix's event_logger key has none); the ships a shore follows are
  // for admins.
  {
    name: 'GET /sync/changes',
    expect: adminOnly(200),
    key: 403,
    request: () => ({ method: 'GET', url: `${api}/sync/changes?max_bytes=4096` }),
  },
  {
    name: 'GET /sync/files/{sha256} (unknown checksum)',
    expect: adminOnly(404),
    key: 403,
    request: () => ({ method: 'GET', url: `${api}/sync/files/${'0'.repeat(64)}` }),
  },
  {
    name: 'POST /sync/comments',
    expect: adminOnly(201),
    key: 403,
    request: async (fx) => ({
      method: 'POST',
      url: `${api}/sync/comments`,
      body: { event_id: await newEvent(fx), text: `c${fx.next()}`, author: 'shore user' },
    }),
  },
  { name: 'GET /sync/status', expect: adminOnly(200), request: () => ({ method: 'GET', url: `${api}/sync/status` }) },
  { name: 'GET /ships', expect: adminOnly(200), request: () => ({ method: 'GET', url: `${api}/ships` }) },
  {
    name: 'POST /ships',
    expect: adminOnly(201),
    request: (fx) => ({
      method: 'POST',
      url: `${api}/ships`,
      body: { name: `S${fx.next()}`, url: 'http://192.0.2.9:9', key: 'k', bandwidth_kbps: 1 },
    }),
  },
  {
    name: 'PATCH /ships/{id}',
    expect: adminOnly(200),
    request: async (fx) => {
      const ship = await adminCall(fx, 'POST', '/ships', {
        name: `S${fx.next()}`,
        url: 'http://192.0.2.9:9',
        key: 'k',
      });
      return { method: 'PATCH', url: `${api}/ships/${ship.id as string}`, body: { enabled: false } };
    },
  },
  {
    name: 'DELETE /ships/{id}',
    expect: adminOnly(204),
    request: async (fx) => {
      const ship = await adminCall(fx, 'POST', '/ships', {
        name: `S${fx.next()}`,
        url: 'http://192.0.2.9:9',
        key: 'k',
      });
      return { method: 'DELETE', url: `${api}/ships/${ship.id as string}` };
    },
  },
  {
    name: 'POST /users/{id}/signOutEverywhere (another user)',
    expect: adminOnly(204),
    request: async (fx) => {
      const name = `so${fx.next()}`.slice(0, 15);
      const id = await newId(fx, '/users', {
        username: name,
        fullname: name,
        email: `${name}@example.org`,
        password: 'secret-pw',
        roles: ['event_logger'],
      });
      return { method: 'POST', url: `${api}/users/${id}/signOutEverywhere` };
    },
  },
  // Taxa (docs/taxa.md#api): everyone signed in searches and reads mappings; admins import, fetch
  // and map; the synonym report reads events (the event rule applies).
  { name: 'GET /taxa', expect: everyone(200), request: () => ({ method: 'GET', url: `${api}/taxa?q=oph` }) },
  { name: 'GET /taxa/status', expect: adminOnly(200), request: () => ({ method: 'GET', url: `${api}/taxa/status` }) },
  {
    name: 'GET /taxa/{aphia_id}',
    expect: everyone(200),
    request: async (fx) => {
      await matrixTaxon(fx);
      return { method: 'GET', url: `${api}/taxa/123084` };
    },
  },
  {
    name: 'GET /taxa/legacy_mappings',
    expect: everyone(200),
    request: () => ({ method: 'GET', url: `${api}/taxa/legacy_mappings` }),
  },
  {
    name: 'PUT /taxa/legacy_mappings',
    expect: adminOnly(200),
    request: async (fx) => {
      await matrixTaxon(fx);
      return {
        method: 'PUT',
        url: `${api}/taxa/legacy_mappings`,
        body: { scope: 'morphotype', value: `Brittle star ${fx.next()}`, aphia_id: 123084 },
      };
    },
  },
  {
    name: 'DELETE /taxa/legacy_mappings/{id}',
    expect: adminOnly(204),
    request: async (fx) => {
      await matrixTaxon(fx);
      const mapping = await adminCall(fx, 'PUT', '/taxa/legacy_mappings', {
        scope: 'morphotype',
        value: `Bamboo ${fx.next()}`,
        aphia_id: 123084,
      });
      return { method: 'DELETE', url: `${api}/taxa/legacy_mappings/${mapping.id as string}` };
    },
  },
  {
    name: 'GET /taxa/legacy_values',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: `${api}/taxa/legacy_values` }),
  },
  {
    name: 'GET /taxa/synonyms',
    expect: everyone(200),
    request: async (fx) => ({ method: 'GET', url: `${api}/taxa/synonyms?cruise_id=${await newCruise(fx)}` }),
  },
  {
    name: 'POST /taxa/imports',
    expect: adminOnly(201),
    request: () => ({
      method: 'POST',
      url: `${api}/taxa/imports?kind=csv`,
      raw: { payload: `aphia_id,scientific_name\n123084,Ophiuroidea\n`, contentType: 'text/csv' },
    }),
  },
  {
    // An empty list is refused after the role check: no call leaves for WoRMS.
    name: 'POST /taxa/fetch',
    expect: adminOnly(400),
    request: () => ({ method: 'POST', url: `${api}/taxa/fetch`, body: { names: [] } }),
  },
  // Last: these end the shared callers' users and sessions; each call brings its own fresh caller.
  {
    name: 'DELETE /users/all',
    expect: adminOnly(204),
    request: async (fx, caller) => ({ method: 'DELETE', url: `${api}/users/all`, token: await freshToken(fx, caller) }),
  },
  {
    name: 'POST /auth/signOutEverywhere (oneself)',
    expect: everyone(204),
    key: 403,
    request: async (fx, caller) => ({
      method: 'POST',
      url: `${api}/auth/signOutEverywhere`,
      token: await freshToken(fx, caller),
    }),
  },
];

/** `METHOD /pattern` of every route the server registers (read up front: the tests below are made from it). */
const tableRoutes = await serverRoutes();

/**
 * The callers of the matrix: those of role-tokens.ts plus a device key holding only event_logger
 * and a user holding only power_logger (an event_logger who uses admin-only templates).
 */
const matrixCallers = [...callerKinds, 'device_key', 'power_logger'] as const;
type MatrixCaller = (typeof matrixCallers)[number];
const loggerColumn = callerKinds.indexOf('event_logger');

describe.each(engines)('role matrix on %s', (engine) => {
  let fx: Fixture;
  let counter = 0;
  /** Routes (`METHOD /pattern`) the rows reached, by the server's own router rules. */
  const reached = new Set<string>();

  beforeAll(async () => {
    // A command that exits at once, so each export call can start.
    const command = `${JSON.stringify(process.execPath)} -e 0 {id}`;
    const t = await createTestApp(engine, { externalCalls: { exportCruise: command, exportLowering: command } });
    const users = await createRoleUsers(t);
    const partial = {
      t,
      users,
      admin: users.tokens.admin!,
      next: () => `${Date.now().toString(36)}${counter++}`,
    } as Fixture;
    partial.cruise = await newId(partial, '/cruises', cruiseBody(partial, { current: true }));
    partial.lowering = await newLowering(partial);
    partial.event = await newEvent(partial);
    partial.aux = await newId(partial, '/event_aux_data', {
      event_id: partial.event,
      data_source: 'vehicleRealtimeNavData',
      data_array: [{ data_name: 'latitude', data_value: '41.3', data_uom: 'ddeg' }],
    });
    partial.template = await newId(partial, '/event_templates', templateBody(partial));
    partial.systemTemplate = await newId(
      partial,
      '/event_templates',
      templateBody(partial, { system_template: true, admin_only: true }),
    );
    placeFile(partial, 'cruises', partial.cruise, 'matrix.txt');
    placeFile(partial, 'lowerings', partial.lowering, 'matrix.txt');
    writeFileSync(path.join(t.ctx.paths.images, 'matrix.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    const key = await adminCall(partial, 'POST', '/device_keys', { name: 'matrix-logger', roles: ['event_logger'] });
    partial.keyToken = key.key as string;
    await adminCall(partial, 'POST', '/users', {
      username: 'u_power',
      fullname: 'Power Logger',
      email: 'u_power@example.org',
      password: 'secret-pw',
      roles: ['power_logger'],
    });
    partial.powerToken = await t.login('u_power', 'secret-pw');
    fx = partial;
  });
  afterAll(() => fx?.t.close());

  describe.each(rows)('$name', (row) => {
    it.each(matrixCallers.map((caller, i) => [caller, i] as const))('as %s', async (caller, i) => {
      const req = await row.request(fx, caller);
      const token = req.token !== undefined ? (req.token ?? undefined) : tokenOf(fx, caller);
      const route = routeOf(fx.t.routes, req.method, req.url);
      expect(route, `${row.name}: ${req.method} ${req.url} reaches no route`).not.toBeNull();
      reached.add(route!);
      const expected =
        caller === 'device_key'
          ? (row.key ?? row.expect[loggerColumn]!)
          : caller === 'power_logger'
            ? (row.power ?? row.expect[loggerColumn]!)
            : row.expect[i]!;
      const headers: Record<string, string> = { ...req.headers };
      if (token && !req.tokenInQuery) headers.authorization = `Bearer ${token}`;
      if (req.raw) headers['content-type'] = req.raw.contentType;
      const url = req.tokenInQuery && token ? `${req.url}${req.url.includes('?') ? '&' : '?'}token=${token}` : req.url;

      let ended: Promise<void> | undefined;
      let stop = () => {};
      if (row.waitForCommand) {
        ended = new Promise((resolve) => {
          stop = fx.t.ctx.bus.subscribe(internalChannels.executeOutput, (message) => {
            if (typeof message === 'string' && message.startsWith(executeOutputEndPrefix)) resolve();
          });
        });
      }
      const res = await fx.t.app.inject({
        method: req.method,
        url,
        headers,
        ...(req.raw ? { payload: req.raw.payload } : req.body !== undefined ? { payload: req.body as object } : {}),
      });
      if (res.statusCode === 202 && ended) await ended;
      stop();

      expect(res.statusCode, `${row.name} as ${caller}: ${res.body.slice(0, 300)}`).toBe(expected);
      // (A public route's own 401, as for an unknown reset token, has its own message.)
      const guarded = row.expect[0] !== 401;
      if (guarded && res.statusCode === 401 && caller === 'none')
        expect(res.json()).toMatchObject({ message: 'Missing authentication' });
      if (guarded && res.statusCode === 401 && caller === 'disabled')
        expect(res.json()).toMatchObject({ message: 'Invalid credentials' });
      if (res.statusCode >= 400 && req.method !== 'HEAD')
        expect(res.json()).toMatchObject({
          statusCode: res.statusCode,
          error: expect.any(String),
          message: expect.any(String),
        });
    });
  });

  // Generated from the server's own route table: a route nobody wrote a row for fails here.
  // (HEAD routes are Fastify's copies of GET routes: same handler, same guard.)
  describe('every route of the route table has a row', () => {
    it.each(tableRoutes)('%s', (route) => {
      const covered = reached.has(route) || (route.startsWith('HEAD ') && reached.has(`GET ${route.slice(5)}`));
      expect(covered, `${route} has no row in the role matrix`).toBe(true);
    });
  });
});
