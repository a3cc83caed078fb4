/**
 * Bulk import (docs/performance.md#bulk-import): N events with aux data (BENCH_EVENTS, default 1,000,000) through
 * `importEvents` (the service the command line and routes call: validation, duplicate-id check,
 * multi-row inserts, search index maintained by the schema) beside raw multi-row inserts of the
 * same rows into the same schema on the same engine, in one run. Target: the import takes at most
 * 3 times the raw inserts. SQLite with `synchronous = FULL` on both sides; PostgreSQL when
 * BENCH_DATABASE_URL is set (BENCH_PG_EVENTS, default 200,000, a smaller scale to fit the time).
 * Writes bench/results/import.json and .md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { newObjectId, type ImportedEventInput } from '@bathylog/shared';
import { migrateToLatest, openDatabase, type Database } from '../apps/server/src/db/database.js';
import { importEvents } from '../apps/server/src/modules/event-imports/event-imports.service.js';
import { log, resultsDir } from './support.js';

type Engine = 'sqlite' | 'postgres';
const sqliteEvents = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const pgEvents = Number(process.env.BENCH_PG_EVENTS ?? 200_000);
const batch = 5000;

const values = ['OBSERVATION', 'SAMPLE', 'FISH', 'CORAL', 'GEOLOGY', 'FREE_FORM'];
const animals = ['octopus', 'squid', 'eel', 'rattail', 'sponge', 'crab', 'sea star'];

/** Deterministic export-shaped events: 1 in 4 ASNAP, nav data on every event, frame grabs, CTD. */
function* exportedEvents(n: number): Generator<ImportedEventInput> {
  const t0 = Date.UTC(2025, 0, 1);
  for (let i = 0; i < n; i++) {
    const asnap = i % 4 !== 0;
    const aux: ImportedEventInput['aux_data'] = [
      {
        data_source: 'vehicleRealtimeNavData',
        data_array: [
          { data_name: 'latitude', data_value: (23.5 + i * 1e-7).toFixed(6), data_uom: 'ddeg' },
          { data_name: 'longitude', data_value: (-45.1 - i * 1e-7).toFixed(6), data_uom: 'ddeg' },
          { data_name: 'depth', data_value: (1500 + (i % 500)).toFixed(2), data_uom: 'meters' },
          { data_name: 'heading', data_value: String(i % 360), data_uom: 'deg' },
          { data_name: 'pitch', data_value: ((i % 40) / 10 - 2).toFixed(1), data_uom: 'deg' },
          { data_name: 'roll', data_value: ((i % 30) / 10 - 1.5).toFixed(1), data_uom: 'deg' },
        ],
      },
    ];
    if (i % 4 === 0)
      aux.push({
        data_source: 'framegrabber',
        data_array: [
          { data_name: 'camera_name', data_value: 'Main Camera' },
          { data_name: 'filename', data_value: `/data/images/${i}_main.jpg` },
        ],
      });
    if (i % 10 === 3)
      aux.push({
        data_source: 'vehicleRealtimeCTDData',
        data_array: [
          { data_name: 'temperature', data_value: (2 + (i % 100) / 100).toFixed(3), data_uom: 'degC' },
          { data_name: 'salinity', data_value: '34.95', data_uom: 'psu' },
        ],
      });
    yield {
      id: newObjectId(),
      ts: new Date(t0 + i * 10_000).toISOString(),
      event_author: asnap ? 'admin' : 'pilot',
      event_value: asnap ? 'ASNAP' : values[i % values.length]!,
      event_options: asnap ? [] : [{ event_option_name: 'type', event_option_value: animals[i % animals.length]! }],
      event_free_text: asnap ? '' : `${animals[(i * 7) % animals.length]} near the vehicle ${i}`,
      aux_data: aux,
    };
  }
}

/** The same rows, inserted as plainly as the engine allows: multi-row INSERTs, one transaction per batch. */
async function rawInsert(database: Database, n: number): Promise<void> {
  let events: Array<Record<string, unknown>> = [];
  let aux: Array<Record<string, unknown>> = [];
  const flush = async () => {
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < events.length; i += 500)
        await trx
          .insertInto('events')
          .values(events.slice(i, i + 500) as never)
          .execute();
      for (let i = 0; i < aux.length; i += 1000)
        await trx
          .insertInto('event_aux_data')
          .values(aux.slice(i, i + 1000) as never)
          .execute();
    });
    events = [];
    aux = [];
  };
  for (const e of exportedEvents(n)) {
    events.push({
      id: e.id,
      ts: Date.parse(e.ts),
      event_author: e.event_author,
      event_value: e.event_value,
      event_options: JSON.stringify(e.event_options ?? []),
      event_free_text: e.event_free_text ?? '',
    });
    for (const a of e.aux_data ?? [])
      aux.push({
        id: newObjectId(),
        event_id: e.id,
        data_source: a.data_source,
        data_array: JSON.stringify(a.data_array),
      });
    if (events.length >= batch) await flush();
  }
  if (events.length > 0) await flush();
}

interface Target {
  open(): Promise<Database>;
  cleanup(): Promise<void>;
}

function sqliteTarget(): Target {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-import-'));
  let n = 0;
  return {
    async open() {
      const database = openDatabase({ url: null, sqlitePath: path.join(dir, `db${n++}.sqlite`) });
      await sql`PRAGMA synchronous = FULL`.execute(database.db);
      return database;
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function pgTarget(base: string): Target {
  const names: string[] = [];
  return {
    async open() {
      const name = `h_13s_import_${names.length}`;
      names.push(name);
      const admin = openDatabase({ url: base, poolSize: 1 });
      await sql.raw(`DROP DATABASE IF EXISTS ${name}`).execute(admin.db);
      await sql.raw(`CREATE DATABASE ${name}`).execute(admin.db);
      await admin.close();
      const url = new URL(base);
      url.pathname = `/${name}`;
      return openDatabase({ url: url.toString(), poolSize: 4 });
    },
    async cleanup() {
      const admin = openDatabase({ url: base, poolSize: 1 });
      for (const name of names) await sql.raw(`DROP DATABASE IF EXISTS ${name}`).execute(admin.db);
      await admin.close();
    },
  };
}

async function timed(label: string, run: () => Promise<void>): Promise<{ seconds: number; load: number }> {
  const t0 = performance.now();
  await run();
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  const load = Math.round(os.loadavg()[0]! * 100) / 100;
  log(`  ${label}: ${seconds} s (load ${load})`);
  return { seconds, load };
}

async function benchEngine(engine: Engine, target: Target, n: number) {
  log(`${engine}: ${n.toLocaleString('en')} events with aux data`);
  const raw = await target.open();
  const imp = await target.open();
  try {
    await migrateToLatest(raw);
    await migrateToLatest(imp);
    const rawRun = await timed('raw inserts', () => rawInsert(raw, n));
    let lastLogged = 0;
    const importRun = await timed('importEvents', async () => {
      const result = await importEvents(imp, exportedEvents(n), {
        onProgress: (p) => {
          if (p.imported - lastLogged >= 200_000) {
            lastLogged = p.imported;
            log(`    imported ${p.imported.toLocaleString('en')}`);
          }
        },
      });
      if (result.imported !== n) throw new Error(`imported ${result.imported} of ${n}`);
    });
    const counts = async (d: Database) =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM event_aux_data`.execute(d.db)).rows[0]!.n);
    const auxRows = await counts(imp);
    if (auxRows !== (await counts(raw))) throw new Error('aux rows differ between raw and import');
    return {
      engine,
      events: n,
      auxRows,
      date: new Date().toISOString(),
      raw: { ...rawRun, eventsPerSecond: Math.round(n / rawRun.seconds) },
      import: { ...importRun, eventsPerSecond: Math.round(n / importRun.seconds) },
      ratio: Math.round((importRun.seconds / rawRun.seconds) * 100) / 100,
    };
  } finally {
    await raw.close();
    await imp.close();
  }
}

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
  type Result = Awaited<ReturnType<typeof benchEngine>>;
  const results: Result[] = [];
  for (const engine of engines) {
    if (engine === 'postgres' && !process.env.BENCH_DATABASE_URL) continue;
    const target = engine === 'sqlite' ? sqliteTarget() : pgTarget(process.env.BENCH_DATABASE_URL!);
    try {
      results.push(await benchEngine(engine, target, engine === 'sqlite' ? sqliteEvents : pgEvents));
    } finally {
      await target.cleanup();
    }
  }
  const file = path.join(resultsDir, 'import.json');
  if (existsSync(file)) {
    const earlier = (JSON.parse(readFileSync(file, 'utf8')) as { results?: Result[] }).results ?? [];
    for (const old of earlier) if (!results.some((r) => r.engine === old.engine)) results.push(old);
  }
  const meta = { date: new Date().toISOString(), cpus: os.cpus().length, node: process.version, batch };
  writeFileSync(file, JSON.stringify({ meta, results }, null, 2) + '\n');
  const lines = [
    '# Bulk import vs raw inserts of the same rows',
    '',
    `Run ${meta.date}, ${meta.cpus} cores, Node ${meta.node}. Both sides write the same export-shaped events (nav data on every event, frame grabs on 1 in 4, CTD on 1 in 10) into a freshly migrated database (search index triggers included) in transactions of ${batch} events; SQLite with \`synchronous = FULL\`. Target: import ≤ 3 × raw. Load = the machine's 1-minute load average when each side finished (a shared 2-core machine).`,
    '',
    '| engine | events | aux rows | raw inserts (s) | load | importEvents (s) | load | ratio |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.events.toLocaleString('en')} | ${r.auxRows.toLocaleString('en')} | ${r.raw.seconds} | ${r.raw.load} | ${r.import.seconds} | ${r.import.load} | **${r.ratio}** |`,
    ),
    '',
  ];
  writeFileSync(path.join(resultsDir, 'import.md'), lines.join('\n'));
  log('results in bench/results/import.{json,md}');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
