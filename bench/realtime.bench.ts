/**
 * Realtime benchmark (docs/realtime.md#benchmark): latency from POST /events to the `pub` frame on the sockets.
 *
 * Starts the real server in a child process (SQLite in a fresh data folder; with
 * BENCH_DATABASE_URL also PostgreSQL, in one process and across two processes — sockets on one,
 * POSTs to the other — which is the LISTEN/NOTIFY path), opens 200 websockets that say hello as
 * the Python scripts do and subscribe to /ws/status/newEvents, then POSTs events at a steady rate.
 * For every (event, socket) pair it records the time from just before the POST to the arrival of
 * that event's pub; it also reports the POST's own response time and the time until the LAST
 * socket had the event (fan-out complete).
 * Writes bench/results/realtime.json and .md.
 *
 * Env: BENCH_SOCKETS (200), BENCH_RATE (events/s, 20), BENCH_SECONDS (15),
 *      BENCH_DATABASE_URL (postgres://… to include PostgreSQL), BENCH_PORT (first port, 8790).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import pg from 'pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const resultsDir = path.join(here, 'results');
const sockets = Number(process.env.BENCH_SOCKETS ?? 200);
const rate = Number(process.env.BENCH_RATE ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const firstPort = Number(process.env.BENCH_PORT ?? 8790);
const pgUrl = process.env.BENCH_DATABASE_URL;
const secret = 'realtime-bench-secret';
const path_ = '/ws/status/newEvents';

interface Stats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  return {
    n: s.length,
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    p99: round(at(0.99)),
    max: round(s[s.length - 1] ?? 0),
  };
}

const round = (x: number) => Math.round(x * 100) / 100;
const log = (m: string) => process.stdout.write(`[bench] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Server {
  child: ChildProcess;
  base: string;
  port: number;
  dataDir: string;
}

async function startServer(port: number, env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-rtbench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BATHYLOG_DATA: dataDir,
      BATHYLOG_MODE: 'production',
      BATHYLOG_ADMIN_PASSWORD: 'demo',
      SEALOG_SERVER_SECRET: secret,
      BATHYLOG_ASNAP_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited`);
    try {
      if ((await fetch(`${base}/sealog-server`)).ok) return { child, base, port, dataDir };
    } catch {
      // starting
    }
    if (Date.now() > deadline) throw new Error(`server on ${port} did not start`);
    await sleep(200);
  }
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode === null) {
    const exited = new Promise<void>((r) => s.child.once('exit', () => r()));
    s.child.kill('SIGTERM');
    await exited;
  }
  rmSync(s.dataDir, { recursive: true, force: true });
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/sealog-server/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'demo' }),
  });
  if (!res.ok) throw new Error(`login ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** Opens the sockets; each records when it received each event's pub (by event_value). */
async function openSockets(port: number, token: string, arrivals: Map<string, number[]>): Promise<WebSocket[]> {
  const list: WebSocket[] = [];
  for (let i = 0; i < sockets; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => {
        ws.send(
          JSON.stringify({
            type: 'hello',
            id: `bench${i}`,
            auth: { headers: { Authorization: `Bearer ${token}` } },
            version: '2',
            subs: [path_],
          }),
        );
      });
      ws.on('message', (data) => {
        const now = performance.now();
        const frame = JSON.parse(data.toString()) as {
          type: string;
          id?: string;
          path?: string;
          message?: { event_value?: string };
          statusCode?: number;
        };
        if (frame.type === 'hello') resolve();
        else if (frame.statusCode) reject(new Error(JSON.stringify(frame)));
        else if (frame.type === 'ping') ws.send(JSON.stringify({ type: 'ping', id: `bench${i}` }));
        else if (frame.type === 'pub' && frame.path === path_ && frame.message?.event_value) {
          const list = arrivals.get(frame.message.event_value);
          if (list) list.push(now);
        }
      });
    });
    list.push(ws);
  }
  return list;
}

interface RunResult {
  scenario: string;
  sockets: number;
  events: number;
  ratePerSecond: number;
  delivered: number;
  expected: number;
  postToPubMs: Stats;
  postToLastSocketMs: Stats;
  postResponseMs: Stats;
  serverCpuPercent: number;
}

async function run(scenario: string, postTo: Server, subscribeTo: Server, watch: Server[]): Promise<RunResult> {
  const token = await login(postTo.base);
  const arrivals = new Map<string, number[]>();
  const ws = await openSockets(subscribeTo.port, token, arrivals);
  log(`${scenario}: ${ws.length} sockets subscribed; posting ${rate}/s for ${seconds} s`);
  // Warm up the route and the JIT: a few events not counted.
  for (let i = 0; i < 10; i++) {
    await fetch(`${postTo.base}/sealog-server/api/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_value: `WARMUP_${i}` }),
    });
  }
  await sleep(500);
  const cpuStart = watch.map((s) => cpuSeconds(s.child.pid!));
  const wallStart = performance.now();
  const total = Math.round(rate * seconds);
  const sent: Array<{ value: string; at: number; responseMs: number }> = [];
  const posts: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    const due = wallStart + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const value = `BENCH_${i}`;
    arrivals.set(value, []);
    const at = performance.now();
    posts.push(
      fetch(`${postTo.base}/sealog-server/api/v1/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          event_value: value,
          event_free_text: 'realtime benchmark',
          event_options: [{ event_option_name: 'n', event_option_value: String(i) }],
        }),
      }).then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`POST ${res.status}`);
        sent.push({ value, at, responseMs: performance.now() - at });
      }),
    );
  }
  await Promise.all(posts);
  // Let the last pubs arrive.
  const expected = total * sockets;
  for (let waited = 0; waited < 10_000; waited += 100) {
    let got = 0;
    for (const v of arrivals.values()) got += v.length;
    if (got >= expected) break;
    await sleep(100);
  }
  const wall = (performance.now() - wallStart) / 1000;
  const cpu = watch.reduce((sum, s, i) => sum + cpuSeconds(s.child.pid!) - cpuStart[i]!, 0);
  const all: number[] = [];
  const last: number[] = [];
  let delivered = 0;
  for (const s of sent) {
    const times = arrivals.get(s.value)!;
    delivered += times.length;
    for (const t of times) all.push(t - s.at);
    if (times.length === sockets) last.push(Math.max(...times) - s.at);
  }
  for (const w of ws) w.close();
  return {
    scenario,
    sockets,
    events: total,
    ratePerSecond: rate,
    delivered,
    expected,
    postToPubMs: stats(all),
    postToLastSocketMs: stats(last),
    postResponseMs: stats(sent.map((s) => s.responseMs)),
    serverCpuPercent: round((cpu / wall) * 100),
  };
}

function markdown(results: RunResult[], meta: Record<string, unknown>): string {
  const lines = [
    '# Realtime benchmark',
    '',
    `${meta.date} · ${meta.cpus} × ${meta.cpu} · Node ${meta.node} · ${sockets} sockets subscribed to newEvents · ${rate} events/s for ${seconds} s`,
    '',
    'Latency in ms from just before `POST /events` to the `pub` frame on a socket (all event × socket pairs), to the last socket having it, and of the POST itself. Client and server share the machine.',
    '',
    '| scenario | delivered | POST→pub p50 | p90 | p99 | max | POST→last socket p50 | p99 | POST p50 | POST p99 | server CPU |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.scenario} | ${r.delivered}/${r.expected} | ${r.postToPubMs.p50} | ${r.postToPubMs.p90} | ${r.postToPubMs.p99} | ${r.postToPubMs.max} | ${r.postToLastSocketMs.p50} | ${r.postToLastSocketMs.p99} | ${r.postResponseMs.p50} | ${r.postResponseMs.p99} | ${r.serverCpuPercent} % |`,
    );
  }
  lines.push(
    '',
    'Run: `npx tsx bench/realtime.bench.ts` (BENCH_DATABASE_URL=postgres://… adds the PostgreSQL rows).',
    '',
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const results: RunResult[] = [];
  let port = firstPort;

  const sqlite = await startServer(port++, {});
  try {
    results.push(await run('SQLite, one process', sqlite, sqlite, [sqlite]));
  } finally {
    await stopServer(sqlite);
  }

  if (pgUrl) {
    const schema = `rtbench_${Date.now().toString(36)}`;
    const env = { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema };
    const a = await startServer(port++, env);
    let b: Server | null = null;
    try {
      results.push(await run('PostgreSQL, one process', a, a, [a]));
      b = await startServer(port++, env);
      results.push(await run('PostgreSQL, POST on A, sockets on B (LISTEN/NOTIFY)', a, b, [a, b]));
    } finally {
      if (b) await stopServer(b);
      await stopServer(a);
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }

  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    sockets,
    rate,
    seconds,
  };
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, 'realtime.json'), JSON.stringify({ meta, results }, null, 2) + '\n');
  writeFileSync(path.join(resultsDir, 'realtime.md'), markdown(results, meta));
  for (const r of results) {
    log(
      `${r.scenario}: POST→pub p50 ${r.postToPubMs.p50} ms, p99 ${r.postToPubMs.p99} ms; last socket p99 ${r.postToLastSocketMs.p99} ms; ${r.delivered}/${r.expected} delivered`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
