import { insertDemoChecklists } from './demo-checklists.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Insertable, Transaction } from 'kysely';
import { isObjectId, parseIsoTimestamp } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { UsersRepository, type UserRecord } from '../modules/users/users.repository.js';
import { buildUserRecord } from '../modules/users/users.service.js';
import { hashPassword } from '../lib/passwords.js';
import { FramegrabRenderer } from './demo-images.js';
import { boundingBoxFromStats, diveTimeline, DiveTrack, navDataArray, type NavFix } from './demo-navigation.js';
import { serverRoot } from '../lib/paths.js';
import { claimImages } from '../db/sql/image-owners.js';
import { storeKey } from '../storage/index.js';

/**
 * Demo mode: the real cruise FKt230303 of R/V Falkor (too) and its dive S0492 (apps/server/demo,
 * see its README), plus generated vehicle navigation and frame grabs. Runs at every demo start
 * and only inserts records whose id is absent, so a restart duplicates nothing and keeps the
 * edits users made.
 */

export const defaultDemoDir = path.join(serverRoot, 'demo');

export const demoFiles = {
  users: 'demo_users.json',
  cruise: 'FKt230303_cruiseRecord.json',
  lowering: 'FKt230303_S0492_loweringRecord.json',
  diveEvents: 'FKt230303_S0492_eventOnlyExport.json',
  cruiseEvents: 'FKt230303_eventOnlyExport.json',
  cruiseAuxData: 'FKt230303_auxDataExport.json',
  vehicleTemplates: 'FKt230303_S0492_eventTemplates.json',
  vesselTemplates: 'FKt230303_eventTemplates.json',
} as const;

export const navDataSource = 'vehicleRealtimeNavData';
export const framegrabDataSource = 'vehicleRealtimeFramegrabberData';
export const demoCameras = ['Main Cam', 'Science Cam'] as const;
export const framegrabSize = { width: 640, height: 360 } as const;

/** Events that get frame grabs: the dive's photo, frame-grab and sample events. */
export function isFramegrabEvent(eventValue: string): boolean {
  return /^(photo\b|beauty shot$|framegrab$|sample$)/i.test(eventValue.trim());
}

/** Stable ids for generated records: the event id's time part, then a hash, so reloads match. */
export function derivedId(eventId: string, kind: string): string {
  return eventId.slice(0, 8) + createHash('sha1').update(`${kind}:${eventId}`).digest('hex').slice(0, 16);
}

export interface DemoLoadCounts {
  users: number;
  cruises: number;
  lowerings: number;
  events: number;
  auxData: number;
  templates: number;
  images: number;
}

// ---- the files ---------------------------------------------------------------------------

interface DemoUser {
  id: string;
  username: string;
  fullname: string;
  email: string;
  password: string;
  roles: string[];
  system_user?: boolean;
  disabled?: boolean;
}
interface DemoOption {
  event_option_name: string;
  event_option_value: string;
}
interface DemoEvent {
  id: string;
  ts: string;
  event_author: string;
  event_value: string;
  event_options?: DemoOption[];
  event_free_text?: string;
}
interface DemoAux {
  id: string;
  event_id: string;
  data_source: string;
  data_array: unknown[];
}
interface DemoTemplate {
  id: string;
  event_name: string;
  event_value: string;
  event_free_text_required?: boolean;
  system_template?: boolean;
  template_categories?: string[];
  template_style?: unknown;
  disabled?: boolean;
  admin_only?: boolean;
  event_options?: unknown[];
}
/** A cruise or lowering record: `<kind>_id`, `<kind>_location`, … keyed by its kind. */
type DemoRecord = { id: string; start_ts: string; stop_ts: string } & Record<string, unknown>;

function readArray<T extends { id: string }>(dir: string, file: string): T[] {
  const full = path.join(dir, file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(full, 'utf8'));
  } catch (err) {
    throw new Error(`demo data ${full}: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`demo data ${full}: expected a JSON array`);
  for (const [i, item] of parsed.entries()) {
    if (typeof item !== 'object' || item === null || !isObjectId((item as { id?: unknown }).id)) {
      throw new Error(`demo data ${full}: record ${i} has no valid 24-hex id`);
    }
  }
  return parsed as T[];
}

function epoch(value: string, where: string): number {
  const ms = typeof value === 'string' ? parseIsoTimestamp(value) : null;
  if (ms === null) throw new Error(`demo data ${where}: bad timestamp ${JSON.stringify(value)}`);
  return ms;
}

const flag = (v: unknown) => (v === true ? 1 : 0);

/** The stored row of a cruise or lowering record. File lists are read from disk, so not stored. */
function recordRow(kind: 'cruise' | 'lowering', r: DemoRecord) {
  const meta = { ...((r[`${kind}_additional_meta`] as Record<string, unknown> | undefined) ?? {}) };
  delete meta[`${kind}_files`];
  return {
    id: r.id,
    [`${kind}_id`]: String(r[`${kind}_id`] ?? ''),
    start_ts: epoch(r.start_ts, `${kind} ${r.id}`),
    stop_ts: epoch(r.stop_ts, `${kind} ${r.id}`),
    [`${kind}_location`]: String(r[`${kind}_location`] ?? ''),
    [`${kind}_tags`]: JSON.stringify(r[`${kind}_tags`] ?? []),
    [`${kind}_hidden`]: flag(r[`${kind}_hidden`]),
    [`${kind}_access_list`]: JSON.stringify(r[`${kind}_access_list`] ?? []),
    [`${kind}_additional_meta`]: JSON.stringify(meta),
  };
}

function eventRow(e: DemoEvent): Insertable<DB['events']> {
  return {
    id: e.id,
    ts: epoch(e.ts, `event ${e.id}`),
    event_author: e.event_author,
    event_value: e.event_value,
    event_options: JSON.stringify(e.event_options ?? []),
    event_free_text: e.event_free_text ?? '',
  };
}

function templateRow(t: DemoTemplate): Insertable<DB['event_templates']> {
  return {
    id: t.id,
    event_name: t.event_name,
    event_value: t.event_value,
    event_free_text_required: flag(t.event_free_text_required),
    system_template: flag(t.system_template),
    template_categories: JSON.stringify(t.template_categories ?? []),
    template_style:
      t.template_style === undefined || t.template_style === null ? null : JSON.stringify(t.template_style),
    disabled: flag(t.disabled),
    admin_only: flag(t.admin_only),
    event_options: JSON.stringify(t.event_options ?? []),
  };
}

// ---- inserting ---------------------------------------------------------------------------

const batchSize = 500;

/** Inserts rows whose keys are all free; rows clashing with an existing one are skipped. */
async function insertAbsent<T extends 'cruises' | 'lowerings' | 'events' | 'event_aux_data' | 'event_templates'>(
  trx: Transaction<DB>,
  table: T,
  rows: Array<Insertable<DB[T]>>,
): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += batchSize) {
    const result = await trx
      .insertInto(table as 'events')
      .values(rows.slice(i, i + batchSize) as Array<Insertable<DB['events']>>)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/**
 * The demo users. seedSystem() has already created admin, guest and pi with the same fixed ids;
 * on the first demo load their records take the demo file's values (roles, password, pi
 * enabled). Later loads only add demo users that are missing, so edits stick.
 */
async function prepareUsers(
  ctx: AppContext,
  users: DemoUser[],
  firstLoad: boolean,
): Promise<{ inserts: UserRecord[]; updates: Array<{ id: string; patch: Partial<UserRecord> }> }> {
  const repo = new UsersRepository(ctx.database.db);
  const inserts: UserRecord[] = [];
  const updates: Array<{ id: string; patch: Partial<UserRecord> }> = [];
  for (const u of users) {
    const existing = await repo.findById(u.id);
    if (!existing) {
      if (await repo.findByUsername(u.username)) continue; // the name is taken by someone else: leave it
      inserts.push(
        await buildUserRecord({
          id: u.id,
          username: u.username,
          fullname: u.fullname,
          email: u.email,
          password: u.password,
          roles: u.roles,
          system_user: u.system_user === true,
          disabled: u.disabled === true,
          last_login: Date.now(),
        }),
      );
    } else if (firstLoad) {
      updates.push({
        id: u.id,
        patch: {
          username: u.username,
          fullname: u.fullname,
          email: u.email,
          password: await hashPassword(u.password),
          roles: u.roles,
          system_user: u.system_user === true,
          disabled: u.disabled === true,
        },
      });
    }
  }
  return { inserts, updates };
}

// ---- loading -----------------------------------------------------------------------------

export interface LoadDemoOptions {
  /** Folder holding the demo files; default apps/server/demo. */
  dir?: string;
}

/** Loads the demo cruise (see the file comment). Returns how many records and images were new. */
export async function loadDemo(ctx: AppContext, opts: LoadDemoOptions = {}): Promise<DemoLoadCounts> {
  const dir = opts.dir ?? defaultDemoDir;
  const startedAt = Date.now();
  const users = readArray<DemoUser>(dir, demoFiles.users);
  const [cruise] = readArray<DemoRecord>(dir, demoFiles.cruise);
  const [lowering] = readArray<DemoRecord>(dir, demoFiles.lowering);
  if (!cruise || !lowering)
    throw new Error(`demo data ${dir}: the cruise and lowering files must each hold one record`);
  const diveEvents = readArray<DemoEvent>(dir, demoFiles.diveEvents);
  const cruiseEvents = readArray<DemoEvent>(dir, demoFiles.cruiseEvents);
  const cruiseAux = readArray<DemoAux>(dir, demoFiles.cruiseAuxData);
  const templates = new Map<string, DemoTemplate>();
  for (const file of [demoFiles.vehicleTemplates, demoFiles.vesselTemplates]) {
    for (const t of readArray<DemoTemplate>(dir, file)) if (!templates.has(t.id)) templates.set(t.id, t);
  }

  const db = ctx.database.db;
  const firstLoad = !(await db.selectFrom('cruises').select('id').where('id', '=', cruise.id).executeTakeFirst());

  // Generated navigation for every dive event, and frame grabs for the photo and sample events.
  const loweringRow = recordRow('lowering', lowering);
  const meta = (lowering.lowering_additional_meta ?? {}) as {
    milestones?: Record<string, string | null>;
    stats?: { max_depth?: number; bounding_box?: number[] };
  };
  const diveRows = diveEvents.map(eventRow);
  const timeline = diveTimeline(
    { start_ts: loweringRow.start_ts, stop_ts: loweringRow.stop_ts, milestones: meta.milestones ?? {} },
    diveRows.map((e, i) => ({ ts: e.ts as number, event_options: diveEvents[i]!.event_options ?? [] })),
  );
  // The shipped record says off-bottom 01:39:44, but the pilots logged "Off bottom" at 07:35:21 and
  // 262 photo/sample events lie between. Store the milestones the dive's own events give, so the
  // milestones shown agree with the depth profile and the images.
  const milestoneKeys = {
    lowering_descending: timeline.descending,
    lowering_on_bottom: timeline.onBottom,
    lowering_off_bottom: timeline.offBottom,
    lowering_on_surface: timeline.onSurface,
  };
  const storedMeta = JSON.parse(String(loweringRow.lowering_additional_meta ?? '{}')) as Record<string, unknown>;
  storedMeta.milestones = {
    ...(meta.milestones ?? {}),
    ...Object.fromEntries(Object.entries(milestoneKeys).map(([k, t]) => [k, new Date(t).toISOString()])),
  };
  loweringRow.lowering_additional_meta = JSON.stringify(storedMeta);
  const maxDepth = Number(meta.stats?.max_depth);
  if (!Number.isFinite(maxDepth) || maxDepth <= 0)
    throw new Error(`demo data: lowering ${lowering.id} has no stats.max_depth`);
  const track = new DiveTrack(
    timeline,
    boundingBoxFromStats(meta.stats?.bounding_box ?? []),
    maxDepth,
    `${cruise.cruise_id}/${lowering.lowering_id}`,
  );
  const fixes = new Map<string, NavFix>();
  const auxRows: Array<Insertable<DB['event_aux_data']>> = cruiseAux.map((a) => ({
    id: a.id,
    event_id: a.event_id,
    data_source: a.data_source,
    data_array: JSON.stringify(a.data_array ?? []),
  }));
  const pictures: Array<{ file: string; camera: string; eventId: string; ts: number }> = [];
  for (const e of diveRows) {
    const ts = e.ts as number;
    const fix = track.at(ts);
    fixes.set(e.id, fix);
    auxRows.push({
      id: derivedId(e.id, navDataSource),
      event_id: e.id,
      data_source: navDataSource,
      data_array: JSON.stringify(navDataArray(fix)),
    });
    if (!isFramegrabEvent(e.event_value)) continue;
    const stamp = new Date(ts).toISOString().replace(/[-:]/g, '').replace('T', '_').replace('.', '').replace('Z', '');
    const dataArray: Array<{ data_name: string; data_value: string }> = [];
    for (const camera of demoCameras) {
      const file = `${lowering.lowering_id}_${camera.replace(/\s+/g, '')}_${stamp}.jpg`;
      // Relative to the images folder, as the Sealog inserters store them: the stock and WHOI
      // clients ask for `files/images/<data_value>` as it stands (docs/sealog-clients.md#frame-grab-paths).
      dataArray.push({ data_name: 'camera_name', data_value: camera }, { data_name: 'filename', data_value: file });
      pictures.push({ file, camera, eventId: e.id, ts });
    }
    auxRows.push({
      id: derivedId(e.id, framegrabDataSource),
      event_id: e.id,
      data_source: framegrabDataSource,
      data_array: JSON.stringify(dataArray),
    });
  }

  const userChanges = await prepareUsers(ctx, users, firstLoad);
  const counts: DemoLoadCounts = { users: 0, cruises: 0, lowerings: 0, events: 0, auxData: 0, templates: 0, images: 0 };
  await db.transaction().execute(async (trx) => {
    const repo = new UsersRepository(trx);
    for (const { id, patch } of userChanges.updates) await repo.update(id, patch);
    for (const u of userChanges.inserts) await repo.insert(u);
    counts.users = userChanges.inserts.length;
    // With the public archive on, the demo cruise (and so S0492) is published when first loaded;
    // an admin's later change stays (docs/public-archive.md#configuration).
    const published = ctx.config.publicArchive ? { cruise_public: 1 } : {};
    counts.cruises = await insertAbsent(trx, 'cruises', [
      { ...recordRow('cruise', cruise), ...published } as Insertable<DB['cruises']>,
    ]);
    counts.lowerings = await insertAbsent(trx, 'lowerings', [loweringRow as Insertable<DB['lowerings']>]);
    counts.events = await insertAbsent(trx, 'events', [...diveRows, ...cruiseEvents.map(eventRow)]);
    counts.auxData = await insertAbsent(trx, 'event_aux_data', auxRows);
    // The dive's frame grabs belong to the events whose records name them (db/sql/image-owners.ts).
    for (const a of auxRows) await claimImages(trx, a.event_id, a.data_array);
    counts.templates = await insertAbsent(trx, 'event_templates', [...templates.values()].map(templateRow));
    if (firstLoad) await insertDemoChecklists(trx, startedAt);
  });

  // Pictures last: they are files, not records, and a restart only writes the missing ones.
  const renderer = new FramegrabRenderer(framegrabSize.width, framegrabSize.height);
  for (const p of pictures) {
    const target = storeKey('images', p.file);
    if (await ctx.store.stat(target)) continue;
    const fix = fixes.get(p.eventId)!;
    const jpeg = await renderer.render(
      p.camera,
      `${p.eventId}:${p.camera}`,
      {
        title: p.camera,
        time: `${new Date(p.ts).toISOString().replace('T', ' ').replace('Z', '')} UTC`,
        detail: `${String(lowering.lowering_id)}  DEPTH ${fix.depth.toFixed(1)} M  ALT ${fix.altitude.toFixed(1)} M  HDG ${String(Math.round(fix.heading) % 360).padStart(3, '0')}`,
      },
      fix.altitude > 25 ? 'midwater' : 'seafloor',
    );
    await ctx.store.put(target, jpeg, { contentType: 'image/jpeg' });
    counts.images++;
  }

  const added = Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  ctx.log.info(
    `demo data ${cruise.cruise_id}/${lowering.lowering_id} ${firstLoad ? 'loaded' : 'checked'} in ${Date.now() - startedAt} ms: added ${added}`,
  );
  return counts;
}
