/**
 * Server start (docs/performance.md#compiled-server): the compiled server (`node
 * apps/server/dist/main.js`, what `npm start` runs) beside the server run from its TypeScript
 * sources through tsx (what `npm start` ran before), on fresh data folders in production mode: time
 * from spawn to the first HTTP answer, and the resident memory once idle (after BENCH_IDLE_MS,
 * default 5 s). BENCH_RUNS (default 3) alternating runs of each. Writes
 * bench/results/server-start.json and .md.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, serverBuild } from '../scripts/build-server.mjs';
import { log, repoRoot, resultsDir, sleep, stats, type Stats } from './support.js';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const idleMs = Number(process.env.BENCH_IDLE_MS ?? 5000);
const port = Number(process.env.BENCH_PORT ?? 8650);

const variants = {
  compiled: ['--enable-source-maps', serverBuild.outfile],
  'tsx (sources)': ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')],
} as const;
type Variant = keyof typeof variants;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 102.4) / 10;
}

async function once(variant: Variant): Promise<{ startMs: number; idleRssMb: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-start-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [...variants[variant]], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BATHYLOG_MODE: 'production',
      BATHYLOG_DATA: dir,
      BATHYLOG_ADMIN_PASSWORD: 'bench-admin',
      BATHYLOG_ASNAP_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/sealog-server`)).ok) break;
      } catch {
        // not up yet
      }
      if (child.exitCode !== null) throw new Error(`${variant} exited with ${child.exitCode}`);
      await sleep(20);
    }
    const startMs = Math.round(performance.now() - t0);
    await sleep(idleMs);
    return { startMs, idleRssMb: rssMb(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  await buildServer();
  const samples: Record<Variant, { start: number[]; rss: number[] }> = {
    compiled: { start: [], rss: [] },
    'tsx (sources)': { start: [], rss: [] },
  };
  const loads: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const variant of Object.keys(variants) as Variant[]) {
      const r = await once(variant);
      samples[variant].start.push(r.startMs);
      samples[variant].rss.push(r.idleRssMb);
      loads.push(os.loadavg()[0]!);
      log(`${variant}: up in ${r.startMs} ms, idle RSS ${r.idleRssMb} MB (load ${os.loadavg()[0]!.toFixed(2)})`);
    }
  }
  const results = Object.fromEntries(
    (Object.keys(samples) as Variant[]).map((v) => [
      v,
      { startMs: stats(samples[v].start), idleRssMb: stats(samples[v].rss) } as { startMs: Stats; idleRssMb: Stats },
    ]),
  ) as Record<Variant, { startMs: Stats; idleRssMb: Stats }>;
  const meta = {
    date: new Date().toISOString(),
    cpus: os.cpus().length,
    node: process.version,
    runs,
    idleMs,
    loadAverage: { min: Math.min(...loads), max: Math.max(...loads) },
  };
  writeFileSync(path.join(resultsDir, 'server-start.json'), JSON.stringify({ meta, results, samples }, null, 2) + '\n');
  const lines = [
    '# Server start: compiled build vs TypeScript sources through tsx',
    '',
    `Run ${meta.date}, ${meta.cpus} cores, Node ${meta.node}; production mode, fresh data folder each run, ${runs} runs of each alternating; 1-minute load average ${meta.loadAverage.min.toFixed(2)}–${meta.loadAverage.max.toFixed(2)} (a shared machine).`,
    '',
    '| server | start to first answer p50 (ms) | max (ms) | idle RSS p50 (MB) | max (MB) |',
    '|---|---|---|---|---|',
    ...(Object.keys(results) as Variant[]).map(
      (v) =>
        `| ${v} | ${results[v].startMs.p50} | ${results[v].startMs.max} | ${results[v].idleRssMb.p50} | ${results[v].idleRssMb.max} |`,
    ),
    '',
  ];
  writeFileSync(path.join(resultsDir, 'server-start.md'), lines.join('\n'));
  log('results in bench/results/server-start.{json,md}');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
