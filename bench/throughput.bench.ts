/**
 * Request overhead and durable event writes
 * (docs/performance.md#durable-event-writes-group-commit), each beside its anchor in one run, with
 * autocannon at 50 connections against servers in child processes (throughput-server.ts):
 * - an authenticated `GET /custom_vars` of the real server vs a bare Fastify JSON echo route
 *   (target: at least 75%), and, where the server has a cruise (demo mode), an authenticated
 *   `GET /cruises/<id>` against the same echo;
 * - `POST /events` of the real server (auth, validation, audit, search indexing, realtime
 *   publish) vs a bare Fastify route doing one durable insert of the same row per request with the
 *   same database settings (target: at least 60%, p99 under 20 ms).
 * SQLite runs with `synchronous = FULL` on both sides; PostgreSQL with its defaults
 * (`synchronous_commit = on`) when BENCH_DATABASE_URL is set. Each pair runs BENCH_ROUNDS times
 * (default 2), alternating, and the figures of every round are kept; after the write runs the
 * events stored are counted against the 2xx answers (nothing acknowledged may be missing).
 * Each run also records the server process's CPU time per answered request (/proc, all threads),
 * which the load of other work on the machine disturbs far less than the rates.
 * Writes bench/results/throughput.json and .md.
 *
 * Env: BENCH_DATABASE_URL, BENCH_ENGINES (default "sqlite,postgres"), BENCH_DURATION (s, default 8),
 * BENCH_CONNECTIONS (default 50), BENCH_PORT (default 8600), BENCH_PARTS (default "overhead,writes").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { benchDir, cannonWithCpu, log, repoRoot, resultsDir, sleep, type CannonFigures } from './support.js';

const duration = Number(process.env.BENCH_DURATION ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const basePort = Number(process.env.BENCH_PORT ?? 8600);
const parts = new Set((process.env.BENCH_PARTS ?? 'overhead,writes').split(','));
const adminPassword = 'bench-admin';
const benchMode = process.env.BENCH_MODE === 'demo' ? 'demo' : 'production';
const api = '/sealog-server/api/v1';

type Engine = 'sqlite' | 'postgres';

/** A run's figures; `cpuPerRequest` is steadier than the rates when other work shares the cores. */
interface Run extends CannonFigures {
  label: string;
  loadAverage: number;
}

const eventBody = JSON.stringify({
  event_value: 'OBSERVATION',
  event_options: [
    { event_option_name: 'type', event_option_value: 'octopus' },
    { event_option_name: 'quantity_of_animals', event_option_value: '2-10' },
  ],
  event_free_text: 'small octopus near the vehicle on a basalt ledge',
});

/** Where the servers' log lines go (a file in the run's folder, as a service's journal would). */
let logFd: number | null = null;

/**
 * BENCH_BASELINE_ROOT: a checkout of the code before a change (its own throughput-server.ts, this
 * checkout's node_modules): its server runs beside this one and is measured in the same rounds
 * (`… (before)` rows), an A/B on the same machine load.
 */
const baselineRoot = process.env.BENCH_BASELINE_ROOT ?? null;

function startChild(kind: string, port: number, env: Record<string, string>, root = repoRoot): ChildProcess {
  // BENCH_NODE_ARGS: node flags for the servers (e.g. `--cpu-prof --cpu-prof-dir=…` to profile them).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const script =
    root === repoRoot ? path.join(benchDir, 'throughput-server.ts') : path.join(root, 'bench/throughput-server.ts');
  return spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, kind], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BATHYLOG_MODE: benchMode,
      BATHYLOG_ADMIN_PASSWORD: adminPassword,
      BATHYLOG_SECRET: 'bench-secret',
      BATHYLOG_ASNAP_ENABLED: 'false',
      BATHYLOG_RATE_LIMIT_PER_ADDRESS: '0',
      BATHYLOG_RATE_LIMIT_PER_KEY: '0',
      // The server's default level: a request's log line is part of what it costs.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', logFd ?? 'inherit', 'inherit'],
  });
}

async function waitUp(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`server at ${url} did not start`);
    await sleep(200);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function cannon(
  label: string,
  url: string,
  opts: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; server?: ChildProcess },
): Promise<Run> {
  const figures = await cannonWithCpu(
    {
      url,
      connections,
      duration,
      method: opts.method ?? 'GET',
      headers: opts.headers ?? {},
      ...(opts.body ? { body: opts.body } : {}),
    },
    opts.server?.pid,
  );
  const run: Run = { label, ...figures, loadAverage: Math.round(os.loadavg()[0]! * 100) / 100 };
  log(
    `  ${label}: ${run.requestsPerSecond} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, server CPU ${run.cpuPerRequest ?? '?'} µs/request (non-2xx ${run.non2xx}, errors ${run.errors}, load ${run.loadAverage})`,
  );
  return run;
}

interface EngineResult {
  engine: Engine;
  date: string;
  loadAverageBefore: number[];
  overhead: Array<{
    echo: Run;
    customVars: Run;
    ratio: number;
    before?: Run;
    beforeRatio?: number;
    cruise?: Run;
    cruiseRatio?: number;
    cruiseBefore?: Run;
    cruiseBeforeRatio?: number;
  }>;
  writes: Array<{
    insert: Run;
    events: Run;
    ratio: number;
    echoRatio: number | null;
    before?: Run;
    beforeEchoRatio?: number | null;
  }>;
  eventsAcknowledged: number;
  eventsStored: number;
}

async function benchEngine(engine: Engine): Promise<EngineResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-throughput-'));
  logFd = openSync(path.join(dir, 'server.log'), 'a');
  const children: ChildProcess[] = [];
  let pgCleanup: (() => Promise<void>) | null = null;
  const env: Record<string, string> = { BATHYLOG_DATA: path.join(dir, 'app') };
  const insertEnv: Record<string, string> = { BENCH_KIND_DB: path.join(dir, 'insert.sqlite') };
  if (engine === 'postgres') {
    const base = process.env.BENCH_DATABASE_URL!;
    const names = [`bathylog_tp_app_${process.pid}`, `bathylog_tp_raw_${process.pid}`];
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    for (const n of names) {
      await admin.query(`DROP DATABASE IF EXISTS ${n}`);
      await admin.query(`CREATE DATABASE ${n}`);
    }
    await admin.end();
    const urlOf = (n: string) => {
      const u = new URL(base);
      u.pathname = `/${n}`;
      return u.toString();
    };
    env.DATABASE_URL = urlOf(names[0]!);
    insertEnv.DATABASE_URL = urlOf(names[1]!);
    pgCleanup = async () => {
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      for (const n of names) await a.query(`DROP DATABASE IF EXISTS ${n}`);
      await a.end();
    };
  }
  const ports = { echo: basePort, app: basePort + 1, insert: basePort + 2, before: basePort + 3 };
  const result: EngineResult = {
    engine,
    date: new Date().toISOString(),
    loadAverageBefore: os.loadavg().map((x) => Math.round(x * 100) / 100),
    overhead: [],
    writes: [],
    eventsAcknowledged: 0,
    eventsStored: 0,
  };
  try {
    const echo = startChild('echo', ports.echo, {});
    const app = startChild('app', ports.app, env);
    const insert = startChild('insert', ports.insert, insertEnv);
    children.push(echo, app, insert);
    await waitUp(echo, `http://127.0.0.1:${ports.echo}/echo`);
    await waitUp(app, `http://127.0.0.1:${ports.app}/sealog-server`);
    await waitUp(insert, `http://127.0.0.1:${ports.insert}/echo`);
    let before: ChildProcess | undefined;
    if (baselineRoot) {
      before = startChild('app', ports.before, { ...env, BATHYLOG_DATA: path.join(dir, 'before') }, baselineRoot);
      children.push(before);
      await waitUp(before, `http://127.0.0.1:${ports.before}/sealog-server`);
    }
    // A demo server (BENCH_MODE=demo: the demo cruise, the completeness watcher) keeps its demo admin.
    const loginTo = async (port: number) => {
      const login = await fetch(`http://127.0.0.1:${port}${api}/auth/login`, {
        method: 'POST',
        body: JSON.stringify({ username: 'admin', password: benchMode === 'demo' ? 'demo' : adminPassword }),
        headers: { 'content-type': 'application/json' },
      });
      if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
      return ((await login.json()) as { token: string }).token;
    };
    const token = await loginTo(ports.app);
    const auth = { authorization: `Bearer ${token}` };
    const beforeAuth = baselineRoot ? { authorization: `Bearer ${await loginTo(ports.before)}` } : null;
    const json = { 'content-type': 'application/json' };
    // A single-record read (the demo cruise): access rule, ship-record marks, its files listed.
    const firstCruise = async (port: number, headers: Record<string, string>) => {
      const res = await fetch(`http://127.0.0.1:${port}${api}/cruises`, { headers });
      return res.ok ? (((await res.json()) as Array<{ id: string }>)[0]?.id ?? null) : null;
    };
    const cruiseId = await firstCruise(ports.app, auth);
    const beforeCruiseId = beforeAuth ? await firstCruise(ports.before, beforeAuth) : null;
    const storedBefore = await countEvents(engine, env);
    log(`${engine}: ${connections} connections, ${duration} s per run, ${rounds} rounds`);
    for (let i = 0; i < (parts.has('overhead') ? rounds : 0); i++) {
      const e = await cannon('bare echo GET', `http://127.0.0.1:${ports.echo}/echo`, { server: echo });
      const c = await cannon('GET /custom_vars (authenticated)', `http://127.0.0.1:${ports.app}${api}/custom_vars`, {
        headers: auth,
        server: app,
      });
      const b = beforeAuth
        ? await cannon('GET /custom_vars (before)', `http://127.0.0.1:${ports.before}${api}/custom_vars`, {
            headers: beforeAuth,
            server: before,
          })
        : undefined;
      const r = cruiseId
        ? await cannon('GET /cruises/<id> (authenticated)', `http://127.0.0.1:${ports.app}${api}/cruises/${cruiseId}`, {
            headers: auth,
            server: app,
          })
        : undefined;
      const rb =
        beforeAuth && beforeCruiseId
          ? await cannon(
              'GET /cruises/<id> (before)',
              `http://127.0.0.1:${ports.before}${api}/cruises/${beforeCruiseId}`,
              { headers: beforeAuth, server: before },
            )
          : undefined;
      result.overhead.push({
        echo: e,
        customVars: c,
        ratio: round2(c.requestsPerSecond / e.requestsPerSecond),
        ...(b ? { before: b, beforeRatio: round2(b.requestsPerSecond / e.requestsPerSecond) } : {}),
        ...(r ? { cruise: r, cruiseRatio: round2(r.requestsPerSecond / e.requestsPerSecond) } : {}),
        ...(rb ? { cruiseBefore: rb, cruiseBeforeRatio: round2(rb.requestsPerSecond / e.requestsPerSecond) } : {}),
      });
    }
    for (let i = 0; i < (parts.has('writes') ? rounds : 0); i++) {
      const b = await cannon('bare durable insert POST', `http://127.0.0.1:${ports.insert}/events`, {
        method: 'POST',
        headers: json,
        body: eventBody,
        server: insert,
      });
      const p = await cannon('POST /events (authenticated)', `http://127.0.0.1:${ports.app}${api}/events`, {
        method: 'POST',
        headers: { ...auth, ...json },
        body: eventBody,
        server: app,
      });
      result.eventsAcknowledged += p.total;
      const pb = beforeAuth
        ? await cannon('POST /events (before)', `http://127.0.0.1:${ports.before}${api}/events`, {
            method: 'POST',
            headers: { ...beforeAuth, ...json },
            body: eventBody,
            server: before,
          })
        : undefined;
      // Against the bare echo of the same round too: what a write costs beyond any request.
      const echo = result.overhead[i]?.echo;
      result.writes.push({
        insert: b,
        events: p,
        ratio: round2(p.requestsPerSecond / b.requestsPerSecond),
        echoRatio: echo ? round2(p.requestsPerSecond / echo.requestsPerSecond) : null,
        ...(pb
          ? { before: pb, beforeEchoRatio: echo ? round2(pb.requestsPerSecond / echo.requestsPerSecond) : null }
          : {}),
      });
    }
    for (const child of children) await stop(child);
    result.eventsStored = (await countEvents(engine, env)) - storedBefore;
    log(`${engine}: ${result.eventsAcknowledged} events acknowledged, ${result.eventsStored} stored`);
  } finally {
    for (const child of children) await stop(child);
    if (logFd !== null) closeSync(logFd);
    logFd = null;
    rmSync(dir, { recursive: true, force: true });
    if (pgCleanup) await pgCleanup();
  }
  return result;
}

async function countEvents(engine: Engine, env: Record<string, string>): Promise<number> {
  if (engine === 'postgres') {
    const c = new pg.Client({ connectionString: env.DATABASE_URL });
    await c.connect();
    const r = await c.query<{ n: string }>('SELECT count(*) AS n FROM events');
    await c.end();
    return Number(r.rows[0]!.n);
  }
  const db = new SQLite(path.join(env.BATHYLOG_DATA!, 'bathylog.sqlite'), { readonly: true });
  const n = (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  db.close();
  return n;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function markdown(results: EngineResult[], meta: Record<string, unknown>): string {
  const lines = [
    '# Request overhead and durable event writes',
    '',
    `Run ${String(meta.date)} on ${String(meta.cpus)} cores, Node ${String(meta.node)}: autocannon, ${connections} connections, ${duration} s per run, runs alternating; server mode ${benchMode}, log level ${process.env.BENCH_LOG_LEVEL ?? 'info'} (lines to a file). SQLite with \`synchronous = FULL\` on both sides of each pair; PostgreSQL with its defaults (\`synchronous_commit = on\`). Load average = the machine's 1-minute load when each run ended (other engineers share this 2-core machine). Server CPU = the server process's CPU time (all threads, from /proc) per answered request during the run.`,
    '',
  ];
  for (const r of results) {
    lines.push(`## ${r.engine}`, '', `Load average before: ${r.loadAverageBefore.join(', ')}`, '');
    lines.push(
      '| run | req/s | p50 ms | p99 ms | non-2xx | load | server CPU µs/request |',
      '|---|---|---|---|---|---|---|',
    );
    const row = (x: Run) =>
      `| ${x.label} | ${x.requestsPerSecond} | ${x.p50} | ${x.p99} | ${x.non2xx + x.errors} | ${x.loadAverage} | ${x.cpuPerRequest ?? ''} |`;
    for (const o of r.overhead) {
      lines.push(row(o.echo), row(o.customVars), `| **ratio (target ≥ 0.75)** | **${o.ratio}** | | | | | |`);
      if (o.before) lines.push(row(o.before), `| ratio before the change | ${o.beforeRatio} | | | | | |`);
      if (o.cruise) lines.push(row(o.cruise), `| ratio of the cruise read | ${o.cruiseRatio} | | | | | |`);
      if (o.cruiseBefore)
        lines.push(
          row(o.cruiseBefore),
          `| ratio of the cruise read before the change | ${o.cruiseBeforeRatio} | | | | | |`,
        );
    }
    for (const w of r.writes)
      lines.push(
        row(w.insert),
        row(w.events),
        `| **ratio (target ≥ 0.6)** | **${w.ratio}** | | | | | |`,
        ...(w.echoRatio === null
          ? []
          : [`| **ratio to the echo GET (target ≥ 0.5)** | **${w.echoRatio}** | | | | | |`]),
        ...(w.before
          ? [row(w.before), `| ratio to the echo GET before the change | ${w.beforeEchoRatio} | | | | | |`]
          : []),
      );
    lines.push('', `Events acknowledged (2xx) ${r.eventsAcknowledged}, stored ${r.eventsStored}.`, '');
  }
  return lines.join('\n');
}

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
  const results: EngineResult[] = [];
  for (const engine of engines) {
    if (engine === 'postgres' && !process.env.BENCH_DATABASE_URL) continue;
    results.push(await benchEngine(engine));
  }
  const meta = { date: new Date().toISOString(), cpus: os.cpus().length, node: process.version, connections, duration };
  writeFileSync(path.join(resultsDir, 'throughput.json'), JSON.stringify({ meta, results }, null, 2) + '\n');
  writeFileSync(path.join(resultsDir, 'throughput.md'), markdown(results, meta));
  log('results in bench/results/throughput.{json,md}');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
