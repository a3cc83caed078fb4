/**
 * What a SQLite write thread and an operator CLI command cost to start (docs/performance.md#compiled-server),
 * on the compiled build (apps/server/dist, built first when out of date):
 * - the write thread alone: a worker started from dist/write-worker-thread.js until it says it is
 *   ready, CPU of the whole process (the thread and the worker machinery);
 * - `bathylog check`, `bathylog export cruises` and `bathylog user create` on a data folder made by
 *   the first run: wall time and the command's CPU (user + system, from the child's rusage).
 * BENCH_RUNS (default 5) runs of each. Writes bench/results/cli-start.json and .md (BENCH_LABEL
 * names the variant in both, e.g. "before").
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { log, repoRoot, resultsDir, stats, type Stats } from './support.js';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const label = process.env.BENCH_LABEL ?? 'current';
const suffix = label === 'current' ? '' : `-${label.replace(/[^a-z0-9]+/gi, '-')}`;

interface Timed {
  wallMs: number;
  cpuMs: number;
}

/** Runs a node script to its end: wall time and its CPU (the child's rusage, threads included). */
function runNode(args: string[], env: Record<string, string>): Promise<Timed> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    // `time` reports the child's own rusage; Node's process API gives none for a child.
    const child = spawn('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${args.join(' ')}: exit ${code}: ${stderr}`));
      const last = stderr.trim().split('\n').at(-1) ?? '';
      const [user, system] = last.split(' ').map(Number);
      if (user === undefined || system === undefined || Number.isNaN(user + system))
        return reject(new Error(`exit ${code}: ${stderr}`));
      resolve({ wallMs, cpuMs: (user + system) * 1000 });
    });
  });
}

// The worker gets no exec arguments: it would inherit `--input-type`, which it refuses.
const threadScript = `
import { Worker } from 'node:worker_threads';
const w = new Worker(new URL(${JSON.stringify(`file://${path.join(repoRoot, 'apps/server/dist/write-worker-thread.js')}`)}),
  { execArgv: [], workerData: { sqlitePath: process.argv[1], sqliteSynchronous: 'full', role: 'sqlite-write-thread' } });
w.once('message', (m) => { if (m !== 'ready') process.exitCode = 1; w.terminate(); });
w.once('error', (e) => { console.error(e); process.exit(1); });
`;

async function main() {
  await ensureServerBuild();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-cli-start-'));
  const env = { BATHYLOG_DATA: path.join(dir, 'data'), BATHYLOG_ADMIN_PASSWORD: 'bench-password-1' };
  const bin = path.join(repoRoot, 'bin/bathylog.mjs');
  const cases: Array<[string, () => Promise<Timed>]> = [
    // Node alone, the floor every command stands on.
    ['node -e ""', () => runNode(['-e', ''], {})],
    [
      'write thread until ready',
      () => runNode(['--input-type=module', '-e', threadScript, path.join(dir, 'thread.sqlite')], {}),
    ],
    ['bathylog check', () => runNode([bin, 'check'], env)],
    ['bathylog export cruises', () => runNode([bin, 'export', 'cruises'], env)],
  ];
  let users = 0;
  cases.push([
    'bathylog user create',
    () => runNode([bin, 'user', 'create', '--username', `u${++users}`, '--password', 'sea-state-4'], env),
  ]);
  try {
    await runNode([bin, 'export', 'cruises'], env); // makes the data folder and its database
    const results: Record<string, { wallMs: Stats; cpuMs: Stats }> = {};
    for (const [name, run] of cases) {
      const samples: Timed[] = [];
      for (let i = 0; i < runs; i++) samples.push(await run());
      results[name] = { wallMs: stats(samples.map((s) => s.wallMs)), cpuMs: stats(samples.map((s) => s.cpuMs)) };
      log(`${name}: wall p50 ${results[name].wallMs.p50} ms, CPU p50 ${results[name].cpuMs.p50} ms`);
    }
    const meta = {
      date: new Date().toISOString(),
      label,
      cpus: os.cpus().length,
      node: process.version,
      loadAverage: os.loadavg(),
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, `cli-start${suffix}.json`), JSON.stringify({ meta, results }, null, 2) + '\n');
    const lines = [
      `# Start-up of the write thread and of CLI commands (${label})`,
      '',
      `Run ${meta.date} on ${meta.cpus} cores, Node ${meta.node}, load average ${meta.loadAverage.map((x) => x.toFixed(2)).join(' / ')}; ${runs} runs of each, compiled build.`,
      '',
      '| what | wall p50 ms | wall max ms | CPU p50 ms | CPU max ms |',
      '|---|---|---|---|---|',
      ...Object.entries(results).map(
        ([name, r]) => `| ${name} | ${r.wallMs.p50} | ${r.wallMs.max} | ${r.cpuMs.p50} | ${r.cpuMs.max} |`,
      ),
      '',
    ];
    writeFileSync(path.join(resultsDir, `cli-start${suffix}.md`), lines.join('\n'));
    log(`results in bench/results/cli-start${suffix}.{json,md}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
