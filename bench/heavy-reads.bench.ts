/**
 * Heavy reads benchmark: does the console stay quick while exports and full lists run?
 *
 * The real server (from its sources, demo data: dive S0492 with 4,540 events and their aux data)
 * is measured twice over HTTP on the same data folder: with the heavy-read queue as shipped, and
 * with it opened wide (BATHYLOG_HEAVY_READS far above the load: every export runs at once, as
 * before the queue existed). Three scenes:
 *  - the console's POST /events (one every 50 ms) while 20 full-lowering exports run;
 *  - a normal GET (the console history page: newest 20 events) while 100 full-lowering exports run;
 *  - the same GET while 1,000 full event lists (GET /events, every event) run.
 * Each heavy request is counted as answered 200, refused 503 (queue full) or failed.
 * Writes bench/results/heavy-reads.json and .md. Not a test: it asserts nothing.
 *
 * Env: BENCH_PORT (8970), BENCH_CONSOLE_EXPORTS (20), BENCH_EXPORTS (100), BENCH_LISTS (1000).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log, resultsDir, sleep, startBenchServer } from './support';

const port = Number(process.env.BENCH_PORT ?? 8970);
const consoleExports = Number(process.env.BENCH_CONSOLE_EXPORTS ?? 20);
const exportsCount = Number(process.env.BENCH_EXPORTS ?? 100);
const listsCount = Number(process.env.BENCH_LISTS ?? 1000);

interface Latency {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function latency(samples: number[]): Latency {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: s.length, p50: r(at(0.5)), p95: r(at(0.95)), p99: r(at(0.99)), max: r(s.at(-1) ?? 0) };
}

interface HeavyOutcome {
  ok: number;
  refused: number;
  failed: number;
  /** Seconds from the first heavy request to the last answer. */
  seconds: number;
}

interface Scene {
  name: string;
  light: Latency;
  /** Light requests that failed (a connect timeout: the server did not accept within 10 s). */
  lightFailed: number;
  heavy: HeavyOutcome;
}

interface Round {
  label: string;
  heavyReads: string;
  idleGet: Latency;
  idlePost: Latency;
  scenes: Scene[];
}

const api = (url: string) => `${url}/sealog-server/api/v1`;

async function login(url: string): Promise<string> {
  const res = await fetch(`${api(url)}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'demo' }),
  });
  if (!res.ok) throw new Error(`login: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** `count` heavy GETs at once, each body read to the end. */
function heavyLoad(url: string, token: string, target: string, count: number): Promise<HeavyOutcome> {
  const started = performance.now();
  const out: HeavyOutcome = { ok: 0, refused: 0, failed: 0, seconds: 0 };
  const one = async () => {
    try {
      const res = await fetch(`${api(url)}/${target}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
      });
      await res.arrayBuffer();
      if (res.status === 200) out.ok++;
      else if (res.status === 503) out.refused++;
      else out.failed++;
    } catch {
      out.failed++;
    }
  };
  return Promise.all(Array.from({ length: count }, one)).then(() => {
    out.seconds = Math.round((performance.now() - started) / 100) / 10;
    return out;
  });
}

/** Times `request` every `gapMs` until `until` settles (at least `min` times). */
async function sampleWhile(until: Promise<unknown>, request: () => Promise<void>, gapMs: number, min = 5) {
  let done = false;
  void until.then(() => (done = true));
  const samples: number[] = [];
  let failed = 0;
  while (!done || samples.length < min) {
    const t0 = performance.now();
    try {
      await request();
    } catch {
      failed++;
    }
    samples.push(performance.now() - t0);
    await sleep(gapMs);
  }
  return { samples, failed };
}

async function round(label: string, heavyReads: string, dataDir: string): Promise<Round> {
  log(`${label}: starting the server (BATHYLOG_HEAVY_READS=${heavyReads})`);
  let child: ChildProcess | undefined;
  try {
    const started = await startBenchServer({
      port,
      web: path.join(dataDir, 'no-client'),
      dataDir,
      env: {
        BATHYLOG_HEAVY_READS: heavyReads,
        BATHYLOG_HEAVY_READ_QUEUE: '100000',
        BATHYLOG_HEAVY_READ_QUEUE_TOTAL: '100000',
        BATHYLOG_RATE_LIMIT_PER_ADDRESS: '0',
        BATHYLOG_ASNAP_ENABLED: 'false',
      },
    });
    child = started.child;
    const { url } = started;
    const token = await login(url);
    const consoleToken = await login(url);
    const lowerings = (await (
      await fetch(`${api(url)}/lowerings`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as Array<{ id: string; lowering_id: string }>;
    const dive = lowerings.find((l) => l.lowering_id === 'S0492');
    if (!dive) throw new Error('no lowering S0492');
    const exportPath = `event_exports/bylowering/${dive.id}`;

    const historyGet = async () => {
      const res = await fetch(`${api(url)}/events?sort=newest&limit=20`, {
        headers: { authorization: `Bearer ${consoleToken}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`history: ${res.status}`);
    };
    let posted = 0;
    const consolePost = async () => {
      const res = await fetch(`${api(url)}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${consoleToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event_value: 'BENCH', event_free_text: `post ${posted++}` }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`post: ${res.status}`);
    };

    // Warm: the first export and list load the read thread and the caches.
    await heavyLoad(url, token, exportPath, 1);
    await heavyLoad(url, token, 'events', 1);
    const idleGet = latency((await sampleWhile(sleep(2000), historyGet, 50, 20)).samples);
    log(`  idle GET: p50 ${idleGet.p50} ms, p99 ${idleGet.p99} ms`);
    const idlePost = latency((await sampleWhile(sleep(2000), consolePost, 50, 20)).samples);
    log(`  idle POST: p50 ${idlePost.p50} ms, p99 ${idlePost.p99} ms`);

    const scenes: Scene[] = [];
    const scene = async (name: string, target: string, count: number, light: () => Promise<void>) => {
      const load = heavyLoad(url, token, target, count);
      await sleep(100);
      const { samples, failed } = await sampleWhile(load, light, 50);
      const s: Scene = { name, light: latency(samples), lightFailed: failed, heavy: await load };
      log(
        `  ${name}: p50 ${s.light.p50} ms, p95 ${s.light.p95} ms, p99 ${s.light.p99} ms, max ${s.light.max} ms` +
          ` (n ${s.light.n}, ${s.lightFailed} failed); heavy ${s.heavy.ok} ok, ${s.heavy.refused} refused, ${s.heavy.failed} failed in ${s.heavy.seconds} s`,
      );
      scenes.push(s);
    };
    await scene(
      `console POST /events during ${consoleExports} full-lowering exports`,
      exportPath,
      consoleExports,
      consolePost,
    );
    await scene(`GET history page during ${exportsCount} full-lowering exports`, exportPath, exportsCount, historyGet);
    await scene(`GET history page during ${listsCount} full event lists`, 'events', listsCount, historyGet);
    return { label, heavyReads, idleGet, idlePost, scenes };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-heavy-'));
  try {
    const rounds = [
      await round('before: no queue', '100000', dataDir),
      await round('after: the queue as shipped', '2', dataDir),
      await round('after, one at a time (BATHYLOG_HEAVY_READS=1)', '1', dataDir),
    ];
    const date = new Date().toISOString();
    const load = os.loadavg().map((x) => Math.round(x * 10) / 10);
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, 'heavy-reads.json'),
      `${JSON.stringify({ date, cpus: os.cpus().length, node: process.version, loadAverage: load, rounds }, null, 2)}\n`,
    );
    const rows = rounds.flatMap((r) => [
      `| ${r.label} | idle GET history page | ${r.idleGet.n} | ${r.idleGet.p50} | ${r.idleGet.p95} | ${r.idleGet.p99} | ${r.idleGet.max} | |`,
      `| ${r.label} | idle console POST /events | ${r.idlePost.n} | ${r.idlePost.p50} | ${r.idlePost.p95} | ${r.idlePost.p99} | ${r.idlePost.max} | |`,
      ...r.scenes.map(
        (s) =>
          `| ${r.label} | ${s.name} | ${s.light.n}${s.lightFailed ? ` (${s.lightFailed} failed)` : ''} | ${s.light.p50} | ${s.light.p95} | ${s.light.p99} | ${s.light.max} | ` +
          `${s.heavy.ok} ok, ${s.heavy.refused} refused, ${s.heavy.failed} failed, ${s.heavy.seconds} s |`,
      ),
    ]);
    const md = [
      '# Heavy reads benchmark',
      '',
      `${date} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'} · Node ${process.version} · demo data (dive S0492: 4,540 events with aux data), SQLite · load average at the end ${load.join(' / ')}`,
      '',
      'Milliseconds for the light request (sent one at a time, 50 ms apart, while the heavy ones run; a failed one is a connect timeout after 10 s, counted with its time), and what became of the heavy ones. ' +
        '*before*: every export and full list runs at once; *after*: the heavy-read queue as shipped (2 at a time, fair between callers), and with 1 at a time. ' +
        'Server, bench client and the heavy downloads share the machine.',
      '',
      '| server | scene | n | p50 | p95 | p99 | max | heavy requests |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      'Run: `npx tsx bench/heavy-reads.bench.ts` (BENCH_PORT, BENCH_CONSOLE_EXPORTS, BENCH_EXPORTS, BENCH_LISTS).',
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'heavy-reads.md'), md);
    log('wrote bench/results/heavy-reads.json and .md');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
