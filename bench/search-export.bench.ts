/**
 * Search and export benchmark (docs/performance.md#search-at-10-million-events).
 *
 * Loads 1,000,000 synthetic events with aux data into a fresh SQLite file (and a fresh PostgreSQL
 * database when BENCH_DATABASE_URL is set), starts the real server on it in a child process, and
 * measures over HTTP:
 * - the event management page: fulltext filter with ASNAP hidden, newest first, 15 per page,
 *   plus its count (the two requests the page makes), for terms from frequent to rare;
 * - the same page with only ASNAP hidden (the page as it opens);
 * - the console history page: `fulltext=!ASNAP`, newest first, 20 per page (first and deeper pages);
 * - the export of a 100,000-event lowering with aux data, JSON and CSV: rows/s and the server's
 *   peak resident memory while streaming.
 * Writes bench/results/search-export.json and .md.
 *
 * BENCH_EVENTS=10000000 BENCH_RESULT_NAME=search-10m is the 10M mode: there the rows are
 * written by the bulk loader (synthetic-events.ts `loadSyntheticBulk`: the same rows into the bare
 * tables of migration 001, then the later migrations build the search tables and indexes, as they
 * do for a database that had events before them), since the trigger-by-trigger load would take
 * an hour on PostgreSQL. BENCH_LOADER=bulk|triggers chooses (default: bulk above 1M events).
 *
 * Env: BENCH_EVENTS (default 1000000), BENCH_DATABASE_URL (postgres://… to include PostgreSQL),
 * BENCH_ENGINES (default "sqlite,postgres"), BENCH_PORT (default 8500), BENCH_REPEAT (default 15),
 * BENCH_RESULT_NAME (default search-export), BENCH_EXPORT_ENCODING (default identity),
 * BENCH_REUSE=1 measures a database kept by an earlier run (BENCH_KEEP=1) instead of loading one:
 * BENCH_SQLITE_FILE names the SQLite file, BENCH_PG_NAME the PostgreSQL database; the server's
 * migrations run on it first (timed), and the load figures are carried over from the results file.
 * BENCH_PG_NAME (the PostgreSQL database to (re)create, default bathylog_bench_<pid>), BENCH_TMPDIR
 * (where the SQLite file goes, default the OS temp dir), BENCH_NOTE (a sentence for the results),
 * BENCH_KEEP=1 keeps the loaded databases (their location is printed) for a look with EXPLAIN.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type MigrationProvider } from 'kysely';
import { migrateToLatest, openDatabase, type Database } from '../apps/server/src/db/database.js';
import { migrationsFor } from '../apps/server/src/db/migrations/index.js';
import { EventSearch } from '../apps/server/src/modules/events/event-search.js';
import { buildEventFilter, globalWindow } from '../apps/server/src/modules/events/event-filter.js';
import { buildServer, serverBuild } from '../scripts/build-server.mjs';
import {
  analyze,
  defaultPlan,
  loadSynthetic,
  loadSyntheticBulk,
  searchTerms,
  syntheticPlan,
  type SyntheticPlan,
} from './synthetic-events.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const resultsDir = path.join(here, 'results');
const eventsWanted = Number(process.env.BENCH_EVENTS ?? defaultPlan.events);
const port = Number(process.env.BENCH_PORT ?? 8500);
const repeat = Number(process.env.BENCH_REPEAT ?? 15);
const adminPassword = 'bench-admin';
/** Results file name (bench/results/<name>.json|md); a smaller run can keep its own. */
const resultName = process.env.BENCH_RESULT_NAME ?? 'search-export';
/** How the rows are written: through the triggers, or bulk with the indexes built after (see above). */
const loader = process.env.BENCH_LOADER ?? (eventsWanted > 1_000_000 ? 'bulk' : 'triggers');
/** Measure a database an earlier run kept (see above). */
const reuse = process.env.BENCH_REUSE === '1';

type Engine = 'sqlite' | 'postgres';

interface Stats {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

interface PairStats extends Stats {
  perTerm: Record<string, { p50: number; count: number }>;
}

type ExportResult = Awaited<ReturnType<typeof timedExport>> & {
  rows: number;
  rowsPerSecond: number;
  /** Rows per second of the server's own CPU time (what a quiet machine would approach). */
  rowsPerCpuSecond?: number;
  megabytes: number;
};

/** What one engine's run measured (written to search-export.json). */
interface EngineResult {
  engine: Engine;
  events: number;
  /** When this engine was measured, and the machine's 1-minute load average around the queries. */
  date?: string;
  loadAverage?: { queries: number; exports: number };
  /** BENCH_REUSE: the database was loaded by an earlier run; the migrations then took this long on it. */
  reused?: { migrateSeconds: number };
  load?: {
    seconds: number;
    eventsPerSecond: number;
    auxRows: number;
    analyzeSeconds: number;
    loader?: string;
    /** Bulk loader: of `seconds`, the time the migrations took to build the search tables and indexes. */
    indexSeconds?: number;
  };
  plans?: Record<string, string>;
  managementPageFulltext?: PairStats;
  managementPageDefault?: PairStats;
  historyFirstPage?: Stats & { statuses: number[] };
  historyDeeperPages?: Stats & { statuses: number[] };
  loweringExport?: Record<'json' | 'csv', ExportResult>;
  serverPeakRssMb?: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  return { n: s.length, p50: round(at(0.5)), p95: round(at(0.95)), max: round(s[s.length - 1]!) };
}

const round = (x: number) => Math.round(x * 10) / 10;

function log(message: string) {
  process.stdout.write(`[bench] ${message}\n`);
}

/**
 * Resident memory of a process, from /proc (kB → MB). `anonMb` is the process's own memory (heap,
 * buffers); the rest of RSS is file pages it has mapped, e.g. SQLite's memory-mapped database,
 * which are the OS page cache and are reclaimed under pressure.
 */
function memoryOf(pid: number): { rssMb: number; anonMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: round(kb('VmRSS') / 1024), anonMb: round(kb('RssAnon') / 1024), hwmMb: round(kb('VmHWM') / 1024) };
}

/** CPU seconds a process has used (user + system), from /proc: a figure the machine's load does not inflate. */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Target {
  engine: Engine;
  env: Record<string, string>;
  /** SQLite: the database file (the bulk loader writes it through its own connection). */
  sqliteFile?: string;
  open(): Database;
  cleanup(): Promise<void>;
}

async function sqliteTarget(): Promise<Target> {
  if (reuse) {
    const file = process.env.BENCH_SQLITE_FILE!;
    return {
      engine: 'sqlite',
      env: { BATHYLOG_DATA: path.dirname(file) },
      sqliteFile: file,
      open: () => openDatabase({ url: null, sqlitePath: file }),
      cleanup: async () => {},
    };
  }
  const dir = mkdtempSync(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'bathylog-bench-'));
  const file = path.join(dir, 'bathylog.sqlite');
  return {
    engine: 'sqlite',
    env: { BATHYLOG_DATA: dir },
    sqliteFile: file,
    open: () => openDatabase({ url: null, sqlitePath: file }),
    cleanup: async () => {
      if (process.env.BENCH_KEEP) log(`kept ${file}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresTarget(baseUrl: string): Promise<Target> {
  const name = process.env.BENCH_PG_NAME ?? `bathylog_bench_${process.pid}`;
  if (!reuse) {
    const admin = openDatabase({ url: baseUrl, poolSize: 1 });
    await sql.raw(`DROP DATABASE IF EXISTS ${name}`).execute(admin.db);
    await sql.raw(`CREATE DATABASE ${name}`).execute(admin.db);
    // The index builds of a bulk load get the memory an operator would give them (default 64 MB:
    // the 10M GIN builds then spill to disk many times over). Queries are not affected.
    await sql.raw(`ALTER DATABASE ${name} SET maintenance_work_mem = '512MB'`).execute(admin.db);
    await admin.close();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'bathylog-bench-pg-'));
  return {
    engine: 'postgres',
    env: { BATHYLOG_DATA: dir, DATABASE_URL: url.toString() },
    open: () => openDatabase({ url: url.toString(), poolSize: 4 }),
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      if (process.env.BENCH_KEEP || reuse) return log(`kept database ${name}`);
      const a = openDatabase({ url: baseUrl, poolSize: 1 });
      await sql.raw(`DROP DATABASE IF EXISTS ${name}`).execute(a.db);
      await a.close();
    },
  };
}

/**
 * The server as `npm start` runs it: compiled (built once per run), so its memory and CPU are
 * those of the product, not of a transpiler loaded beside it (tsx added about 95 MB of its own).
 */
let built: Promise<void> | null = null;

async function startServer(target: Target): Promise<ChildProcess> {
  built ??= buildServer();
  await built;
  const child = spawn(process.execPath, ['--enable-source-maps', serverBuild.outfile], {
    cwd: root,
    env: {
      ...process.env,
      ...target.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BATHYLOG_MODE: 'production',
      BATHYLOG_ADMIN_PASSWORD: adminPassword,
      BATHYLOG_SECRET: 'bench-secret',
      BATHYLOG_ASNAP_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Generous: on a shared machine under load, transpiling and starting the server can take minutes.
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/sealog-server`);
      if (res.ok) return child;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM'); // not left running against a database the cleanup drops
      throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const api = `http://127.0.0.1:${port}/sealog-server/api/v1`;

async function login(): Promise<string> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ username: 'admin', password: adminPassword }),
    headers: { 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

async function timedGet(token: string, pathAndQuery: string): Promise<{ ms: number; status: number; body: string }> {
  const t0 = performance.now();
  const res = await fetch(`${api}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.text();
  return { ms: performance.now() - t0, status: res.status, body };
}

/** Streams a response, counting bytes, while sampling the server's memory. */
async function timedExport(token: string, pathAndQuery: string, serverPid: number) {
  const before = memoryOf(serverPid);
  let peakRss = before.rssMb;
  let peakAnon = before.anonMb;
  const sample = () => {
    const now = memoryOf(serverPid);
    peakRss = Math.max(peakRss, now.rssMb);
    peakAnon = Math.max(peakAnon, now.anonMb);
  };
  const sampler = setInterval(sample, 20);
  const cpu0 = cpuSecondsOf(serverPid);
  const t0 = performance.now();
  // Uncompressed, as on the ship's network and for scripts that do not ask for compression:
  // the figure is the server's own export rate (BENCH_EXPORT_ENCODING=gzip to measure compressed).
  const res = await fetch(`${api}${pathAndQuery}`, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': process.env.BENCH_EXPORT_ENCODING ?? 'identity' },
  });
  let bytes = 0;
  let firstByteMs = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) firstByteMs = performance.now() - t0;
    bytes += value.byteLength;
  }
  const ms = performance.now() - t0;
  const serverCpuSeconds = round(cpuSecondsOf(serverPid) - cpu0);
  clearInterval(sampler);
  sample();
  return {
    status: res.status,
    ms: round(ms),
    serverCpuSeconds,
    firstByteMs: round(firstByteMs),
    bytes,
    rssBeforeMb: before.rssMb,
    peakRssMb: peakRss,
    anonBeforeMb: before.anonMb,
    peakAnonMb: peakAnon,
  };
}

async function queryPlans(database: Database): Promise<Record<string, string>> {
  const search = new EventSearch(database.db, database.dialect);
  const plans: Record<string, string> = {};
  const resolve = (q: Parameters<typeof buildEventFilter>[0]) =>
    search.resolve(buildEventFilter(q, globalWindow(), 'substring'));
  const page = await resolve({ fulltext: ['octopus'], value: ['!ASNAP'] });
  plans['management page (fulltext=octopus, value=!ASNAP)'] = await search.explain(page, 'page', 'desc', 15);
  plans['management count (fulltext=octopus, value=!ASNAP)'] = await search.explain(page, 'count');
  const hidden = await resolve({ value: ['!ASNAP'] });
  plans['management page (value=!ASNAP)'] = await search.explain(hidden, 'page', 'desc', 15);
  plans['management count (value=!ASNAP)'] = await search.explain(hidden, 'count');
  const history = await resolve({ fulltext: ['!ASNAP'] });
  plans['history page (fulltext=!ASNAP)'] = await search.explain(history, 'page', 'desc', 20);
  return plans;
}

/**
 * Bulk-load settings. SQLite: a large page cache for the loading connection. PostgreSQL: the
 * secondary indexes of events and aux data are dropped and rebuilt after the load (the usual way
 * to bulk load; their definitions are read back from pg_indexes, so they are exactly the
 * migrations'). Returns what restores them.
 */
async function prepareBulkLoad(database: Database): Promise<() => Promise<void>> {
  if (database.dialect === 'sqlite') {
    await sql`PRAGMA cache_size = -262144`.execute(database.db);
    return async () => {};
  }
  const indexes = await sql<{ name: string; def: string }>`
    SELECT indexname AS name, indexdef AS def FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename IN ('events', 'event_aux_data', 'event_search')
      AND indexdef NOT LIKE 'CREATE UNIQUE INDEX%'`.execute(database.db);
  for (const index of indexes.rows) await sql.raw(`DROP INDEX ${index.name}`).execute(database.db);
  return async () => {
    const t = performance.now();
    for (const index of indexes.rows) await sql.raw(index.def).execute(database.db);
    log(`  rebuilt ${indexes.rows.length} indexes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
}

/** Runs the migrations up to and including `name` (the bulk loader writes before the search migrations). */
async function migrateTo(database: Database, name: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(database.dialect) };
  const { error } = await new Migrator({ db: database.db, provider }).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

async function benchEngine(target: Target): Promise<EngineResult> {
  const result: EngineResult = { engine: target.engine, events: eventsWanted, date: new Date().toISOString() };
  const database = target.open();
  if (reuse) {
    const t = performance.now();
    log(`${target.engine}: reusing a loaded database; running the migrations on it`);
    let plan: SyntheticPlan;
    try {
      await migrateToLatest(database);
      result.reused = { migrateSeconds: round((performance.now() - t) / 1000) };
      log(`${target.engine}: migrations took ${result.reused.migrateSeconds} s`);
      await analyze(database.db, database.dialect);
      plan = syntheticPlan({
        ...defaultPlan,
        events: eventsWanted,
        bigLoweringEvents: Math.min(defaultPlan.bigLoweringEvents, eventsWanted),
      });
      result.plans = await queryPlans(database);
    } finally {
      await database.close();
    }
    return measure(target, result, plan);
  }
  const bulk = loader === 'bulk';
  if (bulk) await migrateTo(database, '001-initial');
  else await migrateToLatest(database);
  log(`${target.engine}: loading ${eventsWanted.toLocaleString('en')} events with aux data (${loader} loader)`);
  const t0 = performance.now();
  let plan: SyntheticPlan;
  try {
    const restoreIndexes = await prepareBulkLoad(database);
    const options = {
      ...defaultPlan,
      events: eventsWanted,
      bigLoweringEvents: Math.min(defaultPlan.bigLoweringEvents, eventsWanted),
      onProgress: (n: number) => {
        if (n % 1_000_000 === 0 || (!bulk && n % 200_000 === 0))
          log(`  ${n.toLocaleString('en')} events (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      },
    };
    plan = bulk
      ? await loadSyntheticBulk(database, {
          ...options,
          ...(target.sqliteFile ? { sqliteFile: target.sqliteFile } : {}),
        })
      : await loadSynthetic(database.db, options);
    await restoreIndexes();
    let indexSeconds: number | undefined;
    if (bulk) {
      const t = performance.now();
      log(`${target.engine}: rows in after ${((t - t0) / 1000).toFixed(0)} s; the migrations build the search index`);
      await migrateToLatest(database);
      indexSeconds = round((performance.now() - t) / 1000);
      log(`${target.engine}: search index built in ${indexSeconds} s`);
    }
    const loadMs = performance.now() - t0;
    const t1 = performance.now();
    await analyze(database.db, database.dialect);
    const auxRows = Number(
      (await sql<{ n: number }>`SELECT count(*) AS n FROM event_aux_data`.execute(database.db)).rows[0]!.n,
    );
    result.load = {
      seconds: round(loadMs / 1000),
      eventsPerSecond: Math.round(eventsWanted / (loadMs / 1000)),
      auxRows,
      analyzeSeconds: round((performance.now() - t1) / 1000),
      loader,
      ...(indexSeconds !== undefined ? { indexSeconds } : {}),
    };
    log(`${target.engine}: loaded in ${(loadMs / 1000).toFixed(1)} s (${auxRows.toLocaleString('en')} aux rows)`);
    result.plans = await queryPlans(database);
  } finally {
    await database.close();
  }
  return measure(target, result, plan);
}

/** The queries and exports over HTTP, on the loaded database. */
async function measure(target: Target, result: EngineResult, plan: SyntheticPlan): Promise<EngineResult> {
  const server = await startServer(target);
  try {
    const token = await login();
    const runs = async (label: string, paths: string[]) => {
      for (const p of paths) await timedGet(token, p); // warm up each query once
      const samples: number[] = [];
      const statuses = new Set<number>();
      for (let i = 0; i < repeat; i++) {
        for (const p of paths) {
          const r = await timedGet(token, p);
          statuses.add(r.status);
          samples.push(r.ms);
        }
      }
      log(`${target.engine}: ${label}: p50 ${stats(samples).p50} ms, p95 ${stats(samples).p95} ms`);
      return { ...stats(samples), statuses: [...statuses] };
    };
    // The management page makes two requests; a sample is the pair.
    const pairs = async (
      label: string,
      make: (term: string | null) => [string, string],
      terms: Array<string | null>,
    ) => {
      for (const term of terms) for (const p of make(term)) await timedGet(token, p);
      const samples: number[] = [];
      const perTerm: Record<string, { p50: number; count: number }> = {};
      for (const term of terms) {
        const own: number[] = [];
        let count = 0;
        for (let i = 0; i < repeat; i++) {
          const [pagePath, countPath] = make(term);
          const a = await timedGet(token, pagePath);
          const b = await timedGet(token, countPath);
          count = (JSON.parse(b.body) as { events: number }).events;
          own.push(a.ms + b.ms);
        }
        samples.push(...own);
        perTerm[term ?? '(none)'] = { p50: stats(own).p50, count };
      }
      log(`${target.engine}: ${label}: p50 ${stats(samples).p50} ms, p95 ${stats(samples).p95} ms`);
      return { ...stats(samples), perTerm };
    };
    const q = (term: string) => encodeURIComponent(term);
    const queriesLoad = os.loadavg()[0]!;
    result.managementPageFulltext = await pairs(
      'management page + count (fulltext, ASNAP hidden)',
      (term) => [
        `/events?fulltext=${q(term!)}&value=!ASNAP&sort=newest&offset=0&limit=15`,
        `/events/count?fulltext=${q(term!)}&value=!ASNAP`,
      ],
      searchTerms,
    );
    result.managementPageDefault = await pairs(
      'management page + count (ASNAP hidden only)',
      () => ['/events?value=!ASNAP&sort=newest&offset=0&limit=15', '/events/count?value=!ASNAP'],
      [null],
    );
    result.historyFirstPage = await runs('history page (fulltext=!ASNAP, newest, 20)', [
      '/events?fulltext=!ASNAP&sort=newest&offset=0&limit=20',
    ]);
    result.historyDeeperPages = await runs(
      'history pages 2-50',
      [20, 200, 980].map((o) => `/events?fulltext=!ASNAP&sort=newest&offset=${o}&limit=20`),
    );

    const exportsLoad = os.loadavg()[0]!;
    result.loadAverage = { queries: round(queriesLoad), exports: round(exportsLoad) };
    const exports = {} as Record<'json' | 'csv', ExportResult>;
    for (const format of ['json', 'csv'] as const) {
      const r = await timedExport(
        token,
        `/event_exports/bylowering/${plan.bigLoweringId}?format=${format}&add_record_ids=true`,
        server.pid!,
      );
      const rowsPerSecond = Math.round(plan.bigLoweringEvents / (r.ms / 1000));
      const rowsPerCpuSecond = Math.round(plan.bigLoweringEvents / Math.max(r.serverCpuSeconds, 0.01));
      exports[format] = {
        ...r,
        rows: plan.bigLoweringEvents,
        rowsPerSecond,
        rowsPerCpuSecond,
        megabytes: round(r.bytes / 1e6),
      };
      log(
        `${target.engine}: export ${format}: ${plan.bigLoweringEvents.toLocaleString('en')} events in ${r.ms} ms = ${rowsPerSecond.toLocaleString('en')} rows/s ` +
          `(${rowsPerCpuSecond.toLocaleString('en')} rows per server CPU-second), ` +
          `${round(r.bytes / 1e6)} MB; server RSS ${r.rssBeforeMb} → peak ${r.peakRssMb} MB (own memory ${r.anonBeforeMb} → ${r.peakAnonMb} MB)`,
      );
    }
    result.loweringExport = exports;
    result.serverPeakRssMb = memoryOf(server.pid!).hwmMb;
  } finally {
    await stopServer(server);
  }
  return result;
}

/** Rows per server CPU-second, when measured. */
const cpuRate = (e: ExportResult) =>
  e.rowsPerCpuSecond ? `; ${e.rowsPerCpuSecond.toLocaleString('en')} per server CPU-second` : '';

function markdown(results: EngineResult[], meta: Record<string, unknown>): string {
  const lines = [
    '# Search and export benchmark',
    '',
    `Run ${meta.date} on ${meta.host} (${meta.cpus} cores, Node ${meta.node}). ${Number(meta.events).toLocaleString('en')} synthetic events shaped like the demo dive (75 % ASNAP), each with navigation aux data, a quarter with frame grabs; HTTP requests to the compiled server (what npm start runs) in a child process; ${repeat} repetitions after one warm-up. Times in ms (client wall time, including HTTP). The machine is shared: a load average above its 2 cores means other work competed with the measurement.`,
    ...(meta.note ? ['', String(meta.note)] : []),
    '',
    '| | ' + results.map((r) => r.engine).join(' | ') + ' |',
    '|---|' + results.map(() => '---|').join(''),
  ];
  const row = (label: string, f: (r: Required<EngineResult>) => string) =>
    lines.push(`| ${label} | ${results.map((r) => f(r as Required<EngineResult>)).join(' | ')} |`);
  row('measured at (UTC)', (r) => (r as EngineResult).date?.slice(0, 16).replace('T', ' ') ?? '');
  row('machine load average (queries / exports)', (r) => {
    const load = (r as EngineResult).loadAverage;
    return load ? `${load.queries} / ${load.exports}` : '';
  });
  row(`load ${Number(meta.events).toLocaleString('en')} events + aux (s)`, (r) =>
    r.load
      ? `${r.load.seconds} (${r.load.eventsPerSecond.toLocaleString('en')} ev/s` +
        (r.load.indexSeconds !== undefined ? `; bulk rows, then ${r.load.indexSeconds} s of index build` : '') +
        ')'
      : '',
  );
  if (results.some((r) => r.reused))
    row('database loaded by an earlier run; its migrations then (s)', (r) =>
      r.reused ? String(r.reused.migrateSeconds) : '',
    );
  row(
    'management page + count, fulltext (p50 / p95)',
    (r) => `${r.managementPageFulltext.p50} / ${r.managementPageFulltext.p95}`,
  );
  row(
    'management page + count, ASNAP hidden only (p50 / p95)',
    (r) => `${r.managementPageDefault.p50} / ${r.managementPageDefault.p95}`,
  );
  row('history page `!ASNAP`, first (p50 / p95)', (r) => `${r.historyFirstPage.p50} / ${r.historyFirstPage.p95}`);
  row('history pages 2-50 (p50 / p95)', (r) => `${r.historyDeeperPages.p50} / ${r.historyDeeperPages.p95}`);
  row(
    'export 100k events + aux, JSON (rows/s)',
    (r) =>
      `${r.loweringExport.json.rowsPerSecond.toLocaleString('en')} (${r.loweringExport.json.ms} ms, ${r.loweringExport.json.megabytes} MB)` +
      cpuRate(r.loweringExport.json),
  );
  row(
    'export 100k events + aux, CSV (rows/s)',
    (r) =>
      `${r.loweringExport.csv.rowsPerSecond.toLocaleString('en')} (${r.loweringExport.csv.ms} ms, ${r.loweringExport.csv.megabytes} MB)` +
      cpuRate(r.loweringExport.csv),
  );
  row(
    'server RSS during exports: before → peak (MB)',
    (r) =>
      `${r.loweringExport.json.rssBeforeMb} → ${Math.max(r.loweringExport.json.peakRssMb, r.loweringExport.csv.peakRssMb)}`,
  );
  row(
    '  of which its own memory (RssAnon, MB)',
    (r) =>
      `${r.loweringExport.json.anonBeforeMb} → ${Math.max(r.loweringExport.json.peakAnonMb, r.loweringExport.csv.peakAnonMb)}`,
  );
  lines.push(
    '',
    'RSS includes file pages the server has mapped (SQLite reads its database through mmap; they are the OS page cache). RssAnon is the memory the process itself holds: heap and buffers.',
  );
  lines.push('', 'Per fulltext term (p50 of page + count, matching events):', '');
  lines.push(
    '| term | ' + results.map((r) => r.engine).join(' | ') + ' |',
    '|---|' + results.map(() => '---|').join(''),
  );
  for (const term of Object.keys(results[0]?.managementPageFulltext?.perTerm ?? {})) {
    const cell = (r: EngineResult) => {
      const t = r.managementPageFulltext?.perTerm[term];
      return t ? `${t.p50} (${t.count.toLocaleString('en')})` : '';
    };
    lines.push(`| ${term} | ${results.map(cell).join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
  const targets: Array<() => Promise<Target>> = [];
  if (engines.includes('sqlite')) targets.push(sqliteTarget);
  if (process.env.BENCH_DATABASE_URL && engines.includes('postgres'))
    targets.push(() => postgresTarget(process.env.BENCH_DATABASE_URL!));
  const results: EngineResult[] = [];
  for (const make of targets) {
    const target = await make();
    try {
      results.push(await benchEngine(target));
    } finally {
      await target.cleanup();
    }
  }
  // Engines not measured in this run keep their earlier figures (BENCH_ENGINES runs a subset).
  const file = path.join(resultsDir, `${resultName}.json`);
  if (existsSync(file)) {
    const earlier = (JSON.parse(readFileSync(file, 'utf8')) as { results?: EngineResult[] }).results ?? [];
    for (const old of earlier) {
      const now = results.find((r) => r.engine === old.engine);
      if (!now && old.events === eventsWanted) results.push(old);
      if (now?.reused && !now.load && old.events === eventsWanted && old.load) now.load = old.load;
    }
    results.sort((a, b) => a.engine.localeCompare(b.engine));
  }
  const meta = {
    date: new Date().toISOString(),
    host: os.hostname(),
    cpus: os.cpus().length,
    node: process.version,
    events: eventsWanted,
    repeat,
    ...(process.env.BENCH_NOTE ? { note: process.env.BENCH_NOTE } : {}),
  };
  writeFileSync(file, JSON.stringify({ meta, results }, null, 2) + '\n');
  writeFileSync(path.join(resultsDir, `${resultName}.md`), markdown(results, meta));
  log(`results in ${path.relative(root, resultsDir)}/${resultName}.{json,md}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
