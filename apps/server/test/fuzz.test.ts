import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../src/plugins/session-tokens.js';
import { UsersRepository, type UserRecord } from '../src/modules/users/users.repository.js';
import { hashPassword } from '../src/lib/passwords.js';
import { newObjectId } from '@bathylog/shared';
import { DeviceKeysRepository } from '../src/modules/device-keys/device-keys.repository.js';
import { systemIds } from '../src/seed/system.js';
import {
  fixtureKinds,
  requestFor,
  requestsForTable,
  type FixtureKind,
  type FuzzCaller,
  type FuzzPayload,
  type FuzzRequest,
} from './fuzz-requests.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/**
 * Bad input (docs/bad-input.md): thousands of generated requests over every route of the server's own
 * route table. Whatever is sent, the answer is never a 5xx, every 4xx is `{statusCode, error,
 * message}` with a message, and a request that did not succeed leaves no record and no file behind.
 *
 * `npm run test:soak` (BATHYLOG_FUZZ_FULL=1, as scripts/soak.mjs sets it; CI runs it) sends 10,000
 * requests on SQLite and 2,000 on PostgreSQL; `npm test` a fifth of that. FUZZ_RUNS sets the number,
 * FUZZ_SEED replays a run (the seed is printed with the status distribution), FUZZ_ROUTES narrows it
 * to some routes.
 */
const fullRuns = process.env.BATHYLOG_FUZZ_FULL === '1';
const runsFor = (engine: string) =>
  Number(process.env.FUZZ_RUNS ?? (engine === 'sqlite' ? 10_000 : 2_000) / (fullRuns ? 1 : 5));
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const chunk = 250;

const roleUsers = {
  cruise_manager: ['cruise_manager'],
  event_manager: ['event_manager'],
  event_logger: ['event_logger'],
  event_watcher: ['event_watcher'],
} as const;

interface World {
  t: TestApp;
  tokens: Partial<Record<FuzzCaller, string>>;
  ids: Record<FixtureKind, string>;
  /** The device key callers use (never in the fixture pool, so the fuzz cannot revoke it). */
  keyCallerId: string;
  tables: string[];
}

const iso = (ms: number) => new Date(ms).toISOString();

async function adminCall(w: World, method: InjectOptions['method'], url: string, body?: unknown) {
  const res = await w.t.api(method, url, { token: w.tokens.admin!, ...(body !== undefined ? { body } : {}) });
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

let serial = 0;
const unique = () => `${Date.now().toString(36)}${serial++}`;

let passwordHash: string | undefined;

/** A user stored directly (one bcrypt hash for all of them: the harness recreates users often). */
async function insertUser(w: World, username: string, roles: string[]): Promise<UserRecord> {
  passwordHash ??= await hashPassword('secret-pw');
  const user: UserRecord = {
    id: newObjectId(),
    username,
    fullname: username,
    email: `${username}@example.org`,
    password: passwordHash,
    roles,
    system_user: false,
    disabled: false,
    last_login: 0,
    login_token: randomBytes(24).toString('base64url'),
    reset_password_token: null,
    reset_password_expires: null,
    sessions_valid_after: 0,
    api_tokens_valid_after: 0,
  };
  await new UsersRepository(w.t.ctx.database.db).insert(user);
  return user;
}

/** Puts back whatever a successful request removed: callers, their tokens, and one record of each kind. */
async function ensureWorld(w: World): Promise<void> {
  const db = w.t.ctx.database.db;
  const users = new UsersRepository(db);
  const admin = await users.findById(systemIds.admin);
  if (!admin || admin.disabled || admin.roles.join() !== 'admin') {
    await users.update(systemIds.admin, { roles: ['admin'], disabled: false });
  }
  w.tokens.admin = await issueSession(w.t.ctx, (await users.findById(systemIds.admin))!);
  const guest = await users.findById(systemIds.guest);
  w.tokens.guest = guest && !guest.disabled ? await issueSession(w.t.ctx, guest) : undefined;
  for (const [caller, roles] of Object.entries(roleUsers)) {
    const username = `fz_${caller}`.slice(0, 15);
    let user = await users.findByUsername(username);
    if (user && (user.disabled || user.roles.join() !== roles.join())) {
      await users.update(user.id, { roles: [...roles], disabled: false });
      user = await users.findById(user.id);
    }
    if (!user) user = await insertUser(w, username, [...roles]);
    w.tokens[caller as FuzzCaller] = await issueSession(w.t.ctx, user!);
  }
  const keys = new DeviceKeysRepository(db);
  const keyCaller = w.keyCallerId ? await keys.findById(w.keyCallerId) : undefined;
  if (!keyCaller || keyCaller.revoked_at !== null) {
    const made = await adminCall(w, 'POST', '/device_keys', { name: `fz-caller-${unique()}`, roles: ['event_logger'] });
    w.keyCallerId = made.id as string;
    w.tokens.device_key = made.key as string;
  }

  const exists = async (table: string, id: string) =>
    id !== '' &&
    (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where id = ${id}`.execute(db)).rows[0]!.n >
      0;
  const hour = 3600_000;
  if (!(await exists('cruises', w.ids.cruise))) {
    w.ids.cruise = (await adminCall(w, 'POST', '/cruises', {
      cruise_id: `FZ${unique()}`,
      start_ts: iso(Date.now() - 20 * 24 * hour),
      stop_ts: iso(Date.now() + 20 * 24 * hour),
      cruise_location: 'Fuzz',
      cruise_tags: [],
      cruise_additional_meta: { cruise_name: 'Fuzz', cruise_vessel: 'R/V Fuzz', cruise_pi: 'Someone' },
    }).then((r) => r.insertedId)) as string;
  }
  if (!(await exists('lowerings', w.ids.lowering))) {
    w.ids.lowering = (await adminCall(w, 'POST', '/lowerings', {
      lowering_id: `FZL${unique()}`,
      start_ts: iso(Date.now() - 2 * hour),
      stop_ts: iso(Date.now() + 2 * hour),
      lowering_location: 'Fuzz',
      lowering_tags: [],
      lowering_additional_meta: { lowering_description: 'fuzz' },
    }).then((r) => r.insertedId)) as string;
  }
  if (!(await exists('events', w.ids.event))) {
    w.ids.event = (await adminCall(w, 'POST', '/events', { event_value: 'FUZZ', ts: iso(Date.now() - hour) }).then(
      (r) => r.insertedId,
    )) as string;
  }
  if (!(await exists('event_aux_data', w.ids.aux))) {
    w.ids.aux = (await adminCall(w, 'POST', '/event_aux_data', {
      event_id: w.ids.event,
      data_source: 'vehicleRealtimeNavData',
      data_array: [{ data_name: 'depth', data_value: '12', data_uom: 'm' }],
    }).then((r) => r.insertedId)) as string;
  }
  if (!(await exists('event_templates', w.ids.template))) {
    w.ids.template = (await adminCall(w, 'POST', '/event_templates', {
      event_name: `FZ${unique()}`,
      event_value: 'FUZZ',
      event_free_text_required: false,
      system_template: false,
      event_options: [],
    }).then((r) => r.insertedId)) as string;
  }
  const victim = w.ids.user ? await users.findById(w.ids.user) : undefined;
  if (!victim) w.ids.user = (await insertUser(w, `fzv${unique()}`.slice(0, 15), ['event_logger'])).id;
  if (!(await keys.findById(w.ids.key))) {
    w.ids.key = (await adminCall(w, 'POST', '/device_keys', { name: `fz-${unique()}`, roles: ['event_watcher'] }).then(
      (r) => r.id,
    )) as string;
  }
  w.ids.customVar = systemIds.asnapStatus;
  const seq = await sql<{ seq: number | null }>`select max(seq) as seq from audit_log`.execute(db);
  w.ids.auditSeq = String(seq.rows[0]?.seq ?? 1);
}

/** Row counts of every table, in one query. */
async function countRows(w: World): Promise<string> {
  const parts = w.tables.map((t) => sql`(select count(*) from ${sql.table(t)}) as ${sql.ref(t)}`);
  const res = await sql<Record<string, unknown>>`select ${sql.join(parts)}`.execute(w.t.ctx.database.db);
  return JSON.stringify(res.rows[0]);
}

/** Every file and folder under the data folder. */
function listFiles(dir: string): string {
  return (readdirSync(dir, { recursive: true }) as string[]).sort().join('\n');
}

function resolvePlaceholders(text: string, w: World): string {
  return text.replace(/\$fx:([a-zA-Z]+)\$/g, (_, kind: string) => w.ids[kind as FixtureKind] ?? '');
}

function payloadOf(p: FuzzPayload, w: World): { payload?: string | Buffer; contentType?: string | null } {
  switch (p.kind) {
    case 'none':
      return {};
    case 'json':
      return { payload: resolvePlaceholders(JSON.stringify(p.value) ?? 'null', w), contentType: p.contentType };
    case 'text':
      return { payload: p.text, contentType: p.contentType };
    case 'bytes':
      return { payload: Buffer.from(p.bytes), contentType: p.contentType };
    case 'huge':
      return { payload: Buffer.alloc(p.bytes, 0x61), contentType: p.contentType };
    case 'multipart': {
      const b = p.boundary ?? 'fuzzBoundary';
      const body = p.parts
        .map(
          (part) =>
            `--${b}\r\nContent-Disposition: form-data; name="${part.name}"` +
            (part.filename !== null ? `; filename="${part.filename}"` : '') +
            (part.contentType ? `\r\nContent-Type: ${part.contentType}` : '') +
            `\r\n\r\n${resolvePlaceholders(part.content, w)}\r\n`,
        )
        .join('');
      return {
        payload: Buffer.from(`${body}--${b}--\r\n`),
        contentType: p.boundary ? `multipart/form-data; boundary=${p.boundary}` : 'multipart/form-data',
      };
    }
  }
}

function describeRequest(r: FuzzRequest, url: string, body: string | Buffer | undefined): string {
  const shown = body === undefined ? '' : JSON.stringify(String(body).slice(0, 500));
  return `${r.method} ${url.slice(0, 300)} as ${r.caller} ${JSON.stringify(r.headers)} [${r.payload.kind}] ${shown}`;
}

/** The body as the caller reads it, after any content encoding the caller accepted. */
function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  const raw = res.rawPayload;
  if (encoding === 'br') return zlib.brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(raw).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(raw).toString('utf8');
  return raw.toString('utf8');
}

function decodedSafe(res: LightMyRequestResponse): string {
  try {
    return decoded(res);
  } catch {
    return res.body;
  }
}

const isCreate = (status: number) => status >= 200 && status < 300;

/** The difference of two row counts is only in `table`, which grew by at most `most` rows. */
function onlyGrew(table: string, before: string, after: string, most = Infinity): boolean {
  const [a, b] = [JSON.parse(before) as Record<string, number>, JSON.parse(after) as Record<string, number>];
  return Object.keys(b).every((t) => (t === table ? b[t]! >= a[t]! && b[t]! - a[t]! <= most : b[t] === a[t]));
}

/**
 * A failed login with a known username is recorded in the audit trail (`login_failed`,
 * docs/security.md#audit-trail): one row, whatever the answer.
 */
function auditsLogin(route: string, before: string, after: string): boolean {
  return route === 'POST /sealog-server/api/v1/auth/login' && onlyGrew('audit_log', before, after, 1);
}

/**
 * The one read that may add rows: reading a lowering's checklists starts the runs it does not have
 * yet, one per checklist (docs/checklists.md#runs). Nothing else may change.
 */
function startsRuns(route: string, status: number, before: string, after: string): boolean {
  const [method, pattern] = route.split(' ');
  if ((method !== 'GET' && method !== 'HEAD') || pattern !== '/sealog-server/api/v1/lowerings/:id/checklists')
    return false;
  return status === 200 && onlyGrew('checklist_runs', before, after);
}

describe.each(engines)('fuzz on %s', (engine) => {
  let w: World;
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let sent = 0;

  // The WoRMS service a fetch by name asks: a local one that finds nothing (WoRMS's 204), since an upstream that
  // cannot be reached is a 503 by design, not an answer to bad input.
  let worms: Server;

  beforeAll(async () => {
    worms = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => worms.listen(0, '127.0.0.1', resolve));
    const command = `${JSON.stringify(process.execPath)} -e 0 {id}`;
    // A change feed asked to wait for a change answers at once here: thousands of requests, no waits.
    const t = await createTestApp(engine, {
      externalCalls: { exportCruise: command, exportLowering: command },
      sync: { maxWaitSeconds: 0 },
      worms: { url: `http://127.0.0.1:${(worms.address() as AddressInfo).port}/rest`, timeoutMs: 5000 },
    });
    // Bookkeeping a read may write (docs/ship-to-shore.md): a ship notes when a shore follower last
    // read its change feed (its status page shows it), and caches the checksums of the files the
    // feed names (a cache, computed again when missing, as thumbnails are).
    const readBookkeeping = new Set(['sync_followers', 'sync_file_hashes']);
    // This server's own tables: on PostgreSQL the introspection lists every schema of the database,
    // and other suites (running beside this one, or left over from a run that was killed) have theirs.
    const ownSchema = t.ctx.database.dialect === 'postgres' ? (t.ctx.database.schema ?? 'public') : undefined;
    const tables = (await t.ctx.database.db.introspection.getTables())
      .filter((tb) => ownSchema === undefined || tb.schema === ownSchema)
      .map((tb) => tb.name)
      .filter((name) => !readBookkeeping.has(name))
      .sort();
    w = {
      t,
      tokens: {},
      ids: Object.fromEntries(fixtureKinds.map((k) => [k, ''])) as World['ids'],
      keyCallerId: '',
      tables,
    };
    await ensureWorld(w);
  });
  afterAll(async () => {
    const dist = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(
      `fuzz on ${engine}: ${sent} requests over ${w?.t.routes.length} routes, seed ${seed}; ${dist.join(', ')}`,
    );
    await w?.t.close();
    await new Promise((resolve) => worms?.close(resolve));
  });

  it('every route of the route table is fuzzed', () => {
    // The arbitrary is built from this list; an empty or tiny table would make the suite hollow.
    expect(w.t.routes.length).toBeGreaterThan(100);
    expect(w.t.routes.map((r) => `${r.method} ${r.url}`)).toContain('POST /sealog-server/api/v1/events');
    // And "nothing left behind" looks at this server's tables.
    expect(w.tables).toEqual(expect.arrayContaining(['events', 'event_aux_data', 'users', 'audit_log']));
  });

  it(`answers ${runsFor(engine)} generated bad requests without a 5xx, with a message on every 4xx, leaving nothing behind`, async () => {
    // FUZZ_ROUTES=<text> narrows a run to the routes whose `METHOD /pattern` contains it (to replay a failure).
    const only = process.env.FUZZ_ROUTES;
    const table = only ? w.t.routes.filter((r) => `${r.method} ${r.url}`.includes(only)) : w.t.routes;
    const arb = requestsForTable(table);
    // One request per route first, so every route is reached however short the run; then random ones.
    const first = table.map((route, i) => fc.sample(requestFor(route), { numRuns: 1, seed: seed + i })[0]!);
    const runs = Math.max(runsFor(engine), first.length);
    const hit = new Set<string>();
    let before = await countRows(w);
    for (let done = 0; done < runs;) {
      const batch = done === 0 ? first : fc.sample(arb, { numRuns: Math.min(chunk, runs - done), seed: seed + done });
      done += batch.length;
      for (const r of batch) {
        hit.add(r.route);
        const token = r.caller === 'garbage' ? 'Bearer abc.def.ghi' : w.tokens[r.caller];
        const query = resolvePlaceholders(
          [r.query, r.tokenInQuery && token ? `token=${encodeURIComponent(token)}` : ''].filter(Boolean).join('&'),
          w,
        );
        const url = resolvePlaceholders(r.path, w) + (query ? `?${query}` : '');
        const { payload, contentType } = payloadOf(r.payload, w);
        const headers: Record<string, string> = { ...r.headers };
        if (token && !r.tokenInQuery) headers.authorization = r.caller === 'garbage' ? token : `Bearer ${token}`;
        if (contentType) headers['content-type'] = contentType;
        const reads = r.method === 'GET' || r.method === 'HEAD' || r.method === 'OPTIONS';
        // Reads store nothing but thumbnails (on success); only writes can leave a file behind.
        const filesBefore = reads ? '' : listFiles(w.t.dataDir);

        let res: LightMyRequestResponse;
        try {
          res = await w.t.app.inject({
            method: r.method as InjectOptions['method'],
            url,
            headers,
            ...(payload !== undefined ? { payload } : {}),
          });
        } catch (err) {
          failures.push(`threw ${(err as Error).message}: ${describeRequest(r, url, payload)}`);
          continue;
        }
        sent++;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const where = `${res.statusCode} ${decodedSafe(res).slice(0, 200)} ← ${describeRequest(r, url, payload)}`;
        if (res.statusCode >= 500) failures.push(`5xx: ${where}`);
        if (res.statusCode >= 400 && res.statusCode < 500 && r.method !== 'HEAD') {
          let body: unknown;
          try {
            body = JSON.parse(decoded(res));
          } catch {
            body = undefined;
          }
          const b = body as { statusCode?: unknown; error?: unknown; message?: unknown } | undefined;
          if (
            !b ||
            b.statusCode !== res.statusCode ||
            typeof b.error !== 'string' ||
            !b.error ||
            typeof b.message !== 'string' ||
            !b.message.trim()
          ) {
            failures.push(`4xx without {statusCode, error, message}: ${where}`);
          }
        }
        const after = await countRows(w);
        const changed = after !== before;
        const allowed = startsRuns(r.route, res.statusCode, before, after) || auditsLogin(r.route, before, after);
        if (changed && !allowed && (!isCreate(res.statusCode) || reads)) {
          failures.push(`records changed (${before} → ${after}): ${where}`);
        }
        if (!reads && !isCreate(res.statusCode) && listFiles(w.t.dataDir) !== filesBefore) {
          failures.push(`files changed: ${where}`);
        }
        if (isCreate(res.statusCode) && !reads) await ensureWorld(w);
        before = changed || isCreate(res.statusCode) ? await countRows(w) : after;
        if (failures.length >= 40) break;
      }
      if (failures.length >= 40) break;
    }
    expect(failures, `seed ${seed}:\n${failures.join('\n')}`).toEqual([]);
    expect(sent).toBe(runs);
    // Every route got requests (a route the arbitrary cannot reach would go untested).
    expect([...hit].length).toBe(new Set(table.map((r) => `${r.method} ${r.url}`)).size);
  }, 600_000);
});
