import SQLite from 'better-sqlite3';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB } from '../apps/server/src/db/schema.js';

/**
 * Deterministic synthetic dive logs shaped like the demo dive S0492: three in four events are
 * ASNAP, the rest come from the demo templates' values with their options, some free text and
 * comments; every event has vehicle navigation, a quarter have frame grabs, some CTD data.
 * Events follow each other about every 10 s; lowerings of 3,600 events, one of 100,000 (the
 * export benchmark), cruises of 30 lowerings.
 */

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const animals = [
  'octopus',
  'squid',
  'eel',
  'rattail',
  'chimaera',
  'anemone',
  'sea star',
  'brittle star',
  'holothurian',
  'crab',
  'shrimp',
  'sponge',
  'black coral',
  'bamboo coral',
  'sea pen',
  'crinoid',
  'urchin',
  'siphonophore',
  'jellyfish',
  'grenadier',
];
const geology = [
  'basalt',
  'pillow lava',
  'sheet flow',
  'talus',
  'sediment',
  'chimney',
  'carbonate',
  'serpentinite',
  'gabbro',
  'breccia',
  'fault scarp',
  'fissure',
  'hydrothermal deposit',
  'manganese crust',
  'ooze',
];
const words = [
  ...animals,
  ...geology,
  'near',
  'the',
  'vehicle',
  'slope',
  'ledge',
  'small',
  'large',
  'white',
  'orange',
  'colony',
  'patch',
  'field',
  'seep',
  'vent',
  'outcrop',
  'survey',
  'transect',
  'waypoint',
  'heading',
  'north',
  'south',
  'east',
  'west',
  'sample',
  'core',
  'bag',
  'manipulator',
  'arm',
  'camera',
  'zoom',
  'lights',
  'pilot',
  'notes',
  'possible',
  'many',
  'few',
  'dead',
  'alive',
  'moving',
];
const authors = [
  'admin',
  'mt',
  'kim',
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'mallory',
  'oscar',
  'peggy',
  'sybil',
  'trent',
  'victor',
  'walter',
];

interface ValueSpec {
  value: string;
  weight: number;
  options: (r: () => number, n: number) => Array<{ event_option_name: string; event_option_value: string }>;
  freeText?: number;
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const opt = (name: string, value: string) => ({ event_option_name: name, event_option_value: value });

const valueSpecs: ValueSpec[] = [
  { value: 'ASNAP', weight: 750, options: () => [] },
  {
    value: 'OBSERVATION',
    weight: 80,
    options: (r) => [
      opt('type', pick(r, animals)),
      opt('quantity_of_animals', pick(r, ['1', '2-10', '11-100', '>100'])),
    ],
    freeText: 0.2,
  },
  {
    value: 'Photo - General',
    weight: 30,
    options: (r) => [opt('general_photo_type', pick(r, ['geology', 'biology', 'vehicle', 'context']))],
  },
  { value: 'FREE_FORM', weight: 40, options: () => [], freeText: 1 },
  {
    value: 'FISH',
    weight: 20,
    options: (r) => [opt('fish_type', pick(r, ['rattail', 'eel', 'chimaera', 'grenadier', 'cusk eel', 'lizardfish']))],
  },
  {
    value: 'CORAL',
    weight: 15,
    options: (r) => [
      opt('coral_group', pick(r, ['black coral', 'bamboo coral', 'octocoral', 'stony coral'])),
      opt('status', pick(r, ['alive', 'dead'])),
    ],
  },
  {
    value: 'SAMPLE',
    weight: 10,
    options: (r, n) => [
      opt('sample_id', `S-${String(n % 10000).padStart(4, '0')}`),
      opt('sample_type', pick(r, ['push core', 'rock', 'biology', 'niskin'])),
    ],
    freeText: 0.5,
  },
  {
    value: 'GEOLOGY',
    weight: 20,
    options: (r) => [
      opt('igneous_rock_type', pick(r, geology)),
      opt('sediment_cover', pick(r, ['0%', '<25%', '25-75%', '>75%'])),
    ],
  },
  { value: 'PROBLEM', weight: 5, options: () => [], freeText: 1 },
  { value: 'FRAMEGRAB', weight: 5, options: () => [] },
  {
    value: 'VEHICLE',
    weight: 2,
    options: (r) => [opt('milestone', pick(r, ['Off deck', 'On bottom', 'Off bottom', 'On deck']))],
  },
  {
    value: 'WATCH CHANGE',
    weight: 3,
    options: (r) => [opt('pilot', pick(r, authors)), opt('co-pilot', pick(r, authors))],
  },
  { value: 'Beauty Shot', weight: 8, options: () => [] },
  { value: 'MMC Video Highlight', weight: 6, options: () => [], freeText: 0.5 },
  { value: 'Methane Spec Start/End', weight: 3, options: (r) => [opt('start/end', pick(r, ['start', 'end']))] },
  { value: 'FLOAT ON', weight: 3, options: () => [] },
];
const totalWeight = valueSpecs.reduce((s, v) => s + v.weight, 0);

function pickValue(r: () => number): ValueSpec {
  let x = r() * totalWeight;
  for (const spec of valueSpecs) {
    x -= spec.weight;
    if (x < 0) return spec;
  }
  return valueSpecs[0]!;
}

function sentence(r: () => number): string {
  const n = 3 + Math.floor(r() * 8);
  return Array.from({ length: n }, () => pick(r, words)).join(' ');
}

/** A 24-hex id whose first 4 bytes are the event's second, like the server's ObjectIds. */
function objectId(seconds: number, n: number): string {
  return seconds.toString(16).padStart(8, '0') + 'b0' + n.toString(16).padStart(14, '0');
}

export interface SyntheticPlan {
  events: number;
  /** The id of the lowering with `bigLoweringEvents` events. */
  bigLoweringId: string;
  bigLoweringEvents: number;
}

export const defaultPlan = {
  events: 1_000_000,
  bigLoweringEvents: 100_000,
  loweringEvents: 3_600,
  loweringsPerCruise: 30,
};

const startMs = Date.UTC(2023, 0, 1);
const stepMs = 10_000;
const tsOf = (n: number) => startMs + n * stepMs + (n % 7) * 13;

/** Terms of the event-management benchmark, from frequent to rare. */
export const searchTerms = [
  'sample',
  'octopus',
  'basalt',
  'push core',
  'chimaera',
  'manganese crust',
  'S-0042',
  'mallory',
];

type SyntheticOptions = {
  events: number;
  bigLoweringEvents: number;
  loweringEvents: number;
  loweringsPerCruise: number;
  onProgress?: (n: number) => void;
};

/** The cruises and lowerings of a plan (the big lowering first). */
function syntheticWindows(opts: SyntheticOptions) {
  // Lowering boundaries: the big one first, then regular ones.
  const lowerings: Array<{ first: number; last: number }> = [];
  let at = 0;
  const bigCount = Math.min(opts.bigLoweringEvents, opts.events);
  lowerings.push({ first: 0, last: bigCount - 1 });
  at = bigCount;
  while (at < opts.events) {
    const last = Math.min(opts.events - 1, at + opts.loweringEvents - 1);
    lowerings.push({ first: at, last });
    at = last + 1;
  }
  const loweringRows = lowerings.map((l, i) => ({
    id: objectId(Math.floor(tsOf(l.first) / 1000), 0xf00000 + i),
    lowering_id: i === 0 ? 'BIG-100K' : `L${String(i).padStart(4, '0')}`,
    start_ts: tsOf(l.first) - 1000,
    stop_ts: tsOf(l.last) + 1000,
    lowering_location: 'Synthetic Ridge',
    lowering_tags: '[]',
    lowering_hidden: 0,
    lowering_access_list: '[]',
    lowering_additional_meta: JSON.stringify({ lowering_description: 'synthetic' }),
  }));
  const cruiseRows: Array<Insertable<DB['cruises']>> = [];
  for (let i = 0; i < loweringRows.length; i += opts.loweringsPerCruise) {
    const group = loweringRows.slice(i, i + opts.loweringsPerCruise);
    cruiseRows.push({
      id: objectId(Math.floor(group[0]!.start_ts / 1000), 0xe00000 + i),
      cruise_id: `SYN${String(cruiseRows.length + 1).padStart(3, '0')}`,
      start_ts: group[0]!.start_ts - 60_000,
      stop_ts: group[group.length - 1]!.stop_ts + 60_000,
      cruise_location: 'Synthetic Ocean',
      cruise_tags: '[]',
      cruise_hidden: 0,
      cruise_access_list: '[]',
      cruise_additional_meta: JSON.stringify({ cruise_name: 'synthetic', cruise_description: 'synthetic' }),
    });
  }
  return { loweringRows, cruiseRows, bigCount };
}

/**
 * The events (and their aux data) of a plan in batches of `batch` events, in order: every loader
 * writes the same rows.
 */
function* syntheticBatches(
  opts: SyntheticOptions,
  batch: number,
): Generator<{ end: number; events: Array<DB['events']>; aux: Array<DB['event_aux_data']> }> {
  const r = mulberry32(20230303);
  for (let b = 0; b < opts.events; b += batch) {
    const events: Array<DB['events']> = [];
    const aux: Array<DB['event_aux_data']> = [];
    const end = Math.min(opts.events, b + batch);
    for (let n = b; n < end; n++) {
      const ts = tsOf(n);
      const id = objectId(Math.floor(ts / 1000), n);
      const spec = pickValue(r);
      const options = spec.options(r, n);
      if (spec.value !== 'ASNAP' && r() < 0.03) options.push(opt('event_comment', sentence(r)));
      events.push({
        id,
        ts,
        event_author: spec.value === 'ASNAP' ? 'admin' : pick(r, authors),
        event_value: spec.value,
        event_options: JSON.stringify(options),
        event_free_text: spec.freeText && r() < spec.freeText ? sentence(r) : '',
      });
      const depth = 1500 + 500 * Math.sin(n / 5000);
      aux.push({
        id: objectId(Math.floor(ts / 1000), 0x100000000 + n),
        event_id: id,
        data_source: 'vehicleRealtimeNavData',
        data_array: JSON.stringify([
          { data_name: 'latitude', data_value: (23.5 + n * 1e-7).toFixed(6), data_uom: 'ddeg' },
          { data_name: 'longitude', data_value: (-45.1 - n * 1e-7).toFixed(6), data_uom: 'ddeg' },
          { data_name: 'depth', data_value: depth.toFixed(2), data_uom: 'meters' },
          { data_name: 'heading', data_value: String(n % 360), data_uom: 'deg' },
          { data_name: 'pitch', data_value: (r() * 4 - 2).toFixed(1), data_uom: 'deg' },
          { data_name: 'roll', data_value: (r() * 4 - 2).toFixed(1), data_uom: 'deg' },
        ]),
      });
      if (n % 4 === 0) {
        aux.push({
          id: objectId(Math.floor(ts / 1000), 0x200000000 + n),
          event_id: id,
          data_source: 'framegrabber',
          data_array: JSON.stringify([
            { data_name: 'camera_name', data_value: 'Main Camera' },
            { data_name: 'filename', data_value: `/data/images/${id}_main.jpg` },
            { data_name: 'camera_name', data_value: 'Down Camera' },
            { data_name: 'filename', data_value: `/data/images/${id}_down.jpg` },
          ]),
        });
      }
      if (n % 10 === 3) {
        aux.push({
          id: objectId(Math.floor(ts / 1000), 0x300000000 + n),
          event_id: id,
          data_source: 'vehicleRealtimeCTDData',
          data_array: JSON.stringify([
            { data_name: 'temperature', data_value: (2 + r()).toFixed(3), data_uom: 'degC' },
            { data_name: 'salinity', data_value: (34.9 + r() * 0.1).toFixed(3), data_uom: 'psu' },
            { data_name: 'oxygen', data_value: (250 + r() * 10).toFixed(1), data_uom: 'umol/kg' },
          ]),
        });
      }
    }
    yield { end, events, aux };
  }
}

/** The plan of a database loaded earlier with these options (the bench's BENCH_REUSE). */
export function syntheticPlan(opts: SyntheticOptions): SyntheticPlan {
  const windows = syntheticWindows(opts);
  return { events: opts.events, bigLoweringId: windows.loweringRows[0]!.id, bigLoweringEvents: windows.bigCount };
}

async function insertWindows(db: Kysely<DB>, opts: SyntheticOptions, batch: number) {
  const windows = syntheticWindows(opts);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < windows.loweringRows.length; i += batch)
      await trx
        .insertInto('lowerings')
        .values(windows.loweringRows.slice(i, i + batch))
        .execute();
    for (let i = 0; i < windows.cruiseRows.length; i += batch)
      await trx
        .insertInto('cruises')
        .values(windows.cruiseRows.slice(i, i + batch))
        .execute();
  });
  return windows;
}

/**
 * Writes cruises, lowerings, events and aux data in large transactions (multi-row inserts), so
 * the search index is kept by the triggers as for any write. Returns the plan with the big
 * lowering's id.
 */
export async function loadSynthetic(db: Kysely<DB>, opts: SyntheticOptions): Promise<SyntheticPlan> {
  const batch = 1000;
  const txEvents = 50_000;
  const windows = await insertWindows(db, opts, batch);
  const batches = syntheticBatches(opts, batch);
  for (let start = 0; start < opts.events; start += txEvents) {
    const end = Math.min(opts.events, start + txEvents);
    await db.transaction().execute(async (trx) => {
      for (let b = start; b < end; b += batch) {
        const { events, aux } = batches.next().value!;
        await trx.insertInto('events').values(events).execute();
        for (let i = 0; i < aux.length; i += batch)
          await trx
            .insertInto('event_aux_data')
            .values(aux.slice(i, i + batch))
            .execute();
      }
    });
    opts.onProgress?.(end);
  }
  return { events: opts.events, bigLoweringId: windows.loweringRows[0]!.id, bigLoweringEvents: windows.bigCount };
}

/**
 * The bulk loader (10M events): the same rows, written to the bare tables of the first migration
 * without per-row trigger work. The caller then runs the later migrations, whose backfills build
 * the search tables and indexes over the loaded rows: the index is the one the server maintains,
 * built by the server's own migration code. SQLite: one prepared single-row insert per table in
 * transactions of `txEvents` events. PostgreSQL: `INSERT … SELECT FROM unnest(arrays)` of
 * `batch` rows a statement.
 */
export async function loadSyntheticBulk(
  database: { db: Kysely<DB>; dialect: 'sqlite' | 'postgres' },
  opts: SyntheticOptions & { sqliteFile?: string },
): Promise<SyntheticPlan> {
  const batch = 5000;
  const windows = await insertWindows(database.db, opts, 1000);
  const plan = { events: opts.events, bigLoweringId: windows.loweringRows[0]!.id, bigLoweringEvents: windows.bigCount };
  if (database.dialect === 'sqlite') {
    const txEvents = 200_000;
    const raw = new SQLite(opts.sqliteFile!);
    try {
      raw.pragma('synchronous = OFF');
      raw.pragma('cache_size = -262144');
      const insertEvent = raw.prepare(
        'INSERT INTO events (id, ts, event_author, event_value, event_options, event_free_text) VALUES (?, ?, ?, ?, ?, ?)',
      );
      const insertAux = raw.prepare(
        'INSERT INTO event_aux_data (id, event_id, data_source, data_array) VALUES (?, ?, ?, ?)',
      );
      const write = raw.transaction((events: Array<DB['events']>, aux: Array<DB['event_aux_data']>) => {
        for (const e of events)
          insertEvent.run(e.id, e.ts, e.event_author, e.event_value, e.event_options, e.event_free_text);
        for (const a of aux) insertAux.run(a.id, a.event_id, a.data_source, a.data_array);
      });
      let events: Array<DB['events']> = [];
      let aux: Array<DB['event_aux_data']> = [];
      for (const chunk of syntheticBatches(opts, batch)) {
        events.push(...chunk.events);
        aux.push(...chunk.aux);
        if (events.length >= txEvents || chunk.end === opts.events) {
          write(events, aux);
          events = [];
          aux = [];
          opts.onProgress?.(chunk.end);
        }
      }
    } finally {
      raw.close();
    }
    return plan;
  }
  for (const chunk of syntheticBatches(opts, batch)) {
    const e = chunk.events;
    await sql`INSERT INTO events (id, ts, event_author, event_value, event_options, event_free_text)
      SELECT * FROM unnest(${e.map((x) => x.id)}::text[], ${e.map((x) => x.ts)}::bigint[],
        ${e.map((x) => x.event_author)}::text[], ${e.map((x) => x.event_value)}::text[],
        ${e.map((x) => x.event_options)}::text[], ${e.map((x) => x.event_free_text)}::text[])`.execute(database.db);
    const a = chunk.aux;
    await sql`INSERT INTO event_aux_data (id, event_id, data_source, data_array)
      SELECT * FROM unnest(${a.map((x) => x.id)}::text[], ${a.map((x) => x.event_id)}::text[],
        ${a.map((x) => x.data_source)}::text[], ${a.map((x) => x.data_array)}::text[])`.execute(database.db);
    if (chunk.end % 200_000 === 0 || chunk.end === opts.events) opts.onProgress?.(chunk.end);
  }
  return plan;
}

/** Refreshes planner statistics after the bulk load (PostgreSQL plans need them; SQLite's ANALYZE helps too). */
export async function analyze(db: Kysely<DB>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(db);
  else await sql`PRAGMA optimize`.execute(db);
}
