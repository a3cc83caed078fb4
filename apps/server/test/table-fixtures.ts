import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { newObjectId, parseIsoTimestamp } from '@bathylog/shared';
import type { DB } from '../src/db/schema.js';
import { claimImages } from '../src/db/sql/image-owners.js';
import type { TestApp } from './test-app.js';

/**
 * Rows written straight into their tables (no API, no publish) for the events, aux-data, export and
 * access suites: cruises and lowerings (the events module only reads their time windows), events
 * and aux data when a test needs many. Each insert is checked against the table's row type
 * (db/schema.ts). The API is used where the behaviour under test is the write itself
 * (api-fixtures.ts).
 */

const iso = (value: string | number) => (typeof value === 'number' ? value : parseIsoTimestamp(value)!);

export interface CruiseFixture {
  id?: string;
  cruise_id?: string;
  start_ts: string | number;
  stop_ts: string | number;
  hidden?: boolean;
  accessList?: string[];
}

export async function insertCruise(db: Kysely<DB>, c: CruiseFixture): Promise<string> {
  const id = c.id ?? newObjectId();
  await db
    .insertInto('cruises')
    .values({
      id,
      cruise_id: c.cruise_id ?? `C-${id.slice(-4)}`,
      start_ts: iso(c.start_ts),
      stop_ts: iso(c.stop_ts),
      cruise_location: '',
      cruise_tags: '[]',
      cruise_hidden: c.hidden ? 1 : 0,
      cruise_access_list: JSON.stringify(c.accessList ?? []),
      cruise_additional_meta: '{}',
    })
    .execute();
  return id;
}

export interface LoweringFixture {
  id?: string;
  lowering_id?: string;
  start_ts: string | number;
  stop_ts: string | number;
  hidden?: boolean;
  accessList?: string[];
}

export async function insertLowering(db: Kysely<DB>, l: LoweringFixture): Promise<string> {
  const id = l.id ?? newObjectId();
  await db
    .insertInto('lowerings')
    .values({
      id,
      lowering_id: l.lowering_id ?? `L-${id.slice(-4)}`,
      start_ts: iso(l.start_ts),
      stop_ts: iso(l.stop_ts),
      lowering_location: '',
      lowering_tags: '[]',
      lowering_hidden: l.hidden ? 1 : 0,
      lowering_access_list: JSON.stringify(l.accessList ?? []),
      lowering_additional_meta: '{}',
    })
    .execute();
  return id;
}

export interface EventFixture {
  id?: string;
  ts: string | number;
  event_value: string;
  event_author?: string;
  event_free_text?: string;
  event_options?: ReadonlyArray<{ event_option_name: string; event_option_value: string }>;
}

export interface AuxFixture {
  id?: string;
  event_id: string;
  data_source: string;
  data_array: Array<{ data_name: string; data_value: string | number; data_uom?: string }>;
}

async function inChunks<T>(items: readonly T[], size: number, write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await write(items.slice(i, i + size));
}

/** Stores events as given (no normalisation, no publish) and returns their ids in order. */
export async function insertEvents(db: Kysely<DB>, events: readonly EventFixture[]): Promise<string[]> {
  const rows = events.map((e) => ({
    id: e.id ?? newObjectId(),
    ts: iso(e.ts),
    event_author: e.event_author ?? 'tester',
    event_value: e.event_value,
    event_options: JSON.stringify(e.event_options ?? []),
    event_free_text: e.event_free_text ?? '',
  }));
  await inChunks(rows, 500, (chunk) => db.insertInto('events').values(chunk).execute());
  return rows.map((r) => r.id);
}

/** `owners: false` for a schema older than the image owners' table (the migration tests). */
export async function insertAux(
  db: Kysely<DB>,
  aux: readonly AuxFixture[],
  { owners = true }: { owners?: boolean } = {},
): Promise<string[]> {
  const rows = aux.map((a) => ({
    id: a.id ?? newObjectId(),
    event_id: a.event_id,
    data_source: a.data_source,
    data_array: JSON.stringify(a.data_array),
  }));
  await inChunks(rows, 500, (chunk) => db.insertInto('event_aux_data').values(chunk).execute());
  // As the server's writes do: the images a record names first are its event's.
  if (owners) for (const r of rows) await claimImages(db, r.event_id, r.data_array);
  return rows.map((r) => r.id);
}

/** Plausible vehicle navigation for the n-th event of a dive (deterministic). */
export function navData(eventId: string, n: number): AuxFixture {
  return {
    event_id: eventId,
    data_source: 'vehicleRealtimeNavData',
    data_array: [
      { data_name: 'latitude', data_value: (23.55 + n * 1e-5).toFixed(6), data_uom: 'ddeg' },
      { data_name: 'longitude', data_value: (-45.14 - n * 1e-5).toFixed(6), data_uom: 'ddeg' },
      { data_name: 'depth', data_value: (1000 + (n % 1000)).toFixed(2), data_uom: 'meters' },
      { data_name: 'heading', data_value: String(n % 360), data_uom: 'deg' },
    ],
  };
}

/** Two cameras in name/path pairs, as the frame-grab inserter writes them. */
export function framegrabData(eventId: string, n: number): AuxFixture {
  return {
    event_id: eventId,
    data_source: 'framegrabber',
    data_array: [
      { data_name: 'camera_name', data_value: 'Main Camera' },
      { data_name: 'filename', data_value: `/images/main_${n}.jpg` },
      { data_name: 'camera_name', data_value: 'Down Camera' },
      { data_name: 'filename', data_value: `/images/down_${n}.jpg` },
    ],
  };
}

const demoFile = (name: string) => new URL(`../demo/${name}`, import.meta.url);

export interface DemoLowering {
  loweringId: string;
  events: Array<EventFixture & { id: string }>;
  auxCount: number;
}

/**
 * The demo dive S0492 of cruise FKt230303 (apps/server/demo): its lowering record and its 4540
 * events, each with synthetic vehicle navigation (the real aux file is not distributed) and a
 * frame grab on every SAMPLE and FRAMEGRAB event.
 */
export async function loadDemoLowering(db: Kysely<DB>): Promise<DemoLowering> {
  const record = JSON.parse(readFileSync(demoFile('FKt230303_S0492_loweringRecord.json'), 'utf8')) as unknown;
  const lowering = (Array.isArray(record) ? record[0] : record) as Record<string, string>;
  const loweringId = await insertLowering(db, {
    id: lowering.id!,
    lowering_id: lowering.lowering_id!,
    start_ts: lowering.start_ts!,
    stop_ts: lowering.stop_ts!,
  });
  const events = JSON.parse(readFileSync(demoFile('FKt230303_S0492_eventOnlyExport.json'), 'utf8')) as Array<
    EventFixture & { id: string }
  >;
  await insertEvents(db, events);
  const aux: AuxFixture[] = [];
  events.forEach((e, n) => {
    aux.push(navData(e.id, n));
    if (e.event_value === 'SAMPLE' || e.event_value === 'FRAMEGRAB') aux.push(framegrabData(e.id, n));
  });
  await insertAux(db, aux);
  return { loweringId, events, auxCount: aux.length };
}

/** Stores one event row (tests of other modules than events). */
export async function insertEvent(
  t: Pick<TestApp, 'ctx'>,
  ts: string,
  overrides: { id?: string; event_value?: string } = {},
): Promise<string> {
  const id = overrides.id ?? newObjectId();
  await t.ctx.database.db
    .insertInto('events')
    .values({
      id,
      ts: Date.parse(ts),
      event_author: 'admin',
      event_value: overrides.event_value ?? 'FISH',
      event_options: '[]',
      event_free_text: '',
    })
    .execute();
  return id;
}

/** How many rows a table of a server holds. */
export async function tableCount(app: Pick<TestApp, 'ctx'>, table: keyof DB): Promise<number> {
  const row = await app.ctx.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
