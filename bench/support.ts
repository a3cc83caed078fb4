/**
 * Pieces every browser benchmark shares: logging, percentiles, the built client, and Debian's
 * Chromium launched headless with the project's flags (never a downloaded browser).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import autocannon from 'autocannon';
import { chromiumArgs, chromiumPath } from '../scripts/chromium-args.mjs';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(benchDir, '..');
export const resultsDir = path.join(benchDir, 'results');

export const log = (m: string) => process.stdout.write(`[bench] ${m}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

/** User plus system CPU time of a process so far (all its threads), in µs: Linux /proc; null elsewhere. */
export function processCpu(pid: number | undefined): number | null {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return null;
  // Fields after the command name (which may hold spaces) start at the state, field 3: utime is 14, stime 15.
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks;
}
/** Kernel clock ticks per second (USER_HZ), 100 on Linux. */
const clockTicks = 100;

/** What one autocannon run measured, with the server process's CPU per answered request. */
export interface CannonFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  /** Answers with a 2xx status. */
  total: number;
  /** µs of the server's CPU (all its threads) per answered request; null without /proc. */
  cpuPerRequest: number | null;
}

/** One autocannon run against the server process `pid`, its CPU read from /proc before and after. */
export async function cannonWithCpu(options: autocannon.Options, pid: number | undefined): Promise<CannonFigures> {
  const before = processCpu(pid);
  const result = await autocannon(options);
  const after = processCpu(pid);
  const answered = result['2xx'] + result.non2xx;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result['2xx'],
    cpuPerRequest:
      before === null || after === null || answered === 0 ? null : Math.round(((after - before) / answered) * 10) / 10,
  };
}

/** Nearest-rank percentiles of the samples (ms), rounded to 0.1. */
export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    n: s.length,
    p50: r(at(0.5)),
    p95: r(at(0.95)),
    max: r(s[s.length - 1] ?? 0),
    mean: r(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
  };
}

/** The built client: BENCH_WEB_DIR, else apps/web/dist, else a fresh build in a temp folder. */
export function webDir(): { dir: string; temp: boolean } {
  const given = process.env.BENCH_WEB_DIR;
  if (given) return { dir: given, temp: false };
  const dist = path.join(repoRoot, 'apps/web/dist');
  if (existsSync(path.join(dist, 'index.html'))) return { dir: dist, temp: false };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-web-'));
  log(`building the client into ${dir}`);
  const r = spawnSync('npx', ['vite', 'build', 'apps/web', '--outDir', dir, '--emptyOutDir'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('client build failed');
  return { dir, temp: true };
}

/** Debian's Chromium (CHROMIUM_PATH to override), headless, as the browser suite starts it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

/**
 * The server from its sources on 127.0.0.1:`port`, SQLite in `dataDir`, serving the built client
 * `web`; `env` adds or overrides settings (BATHYLOG_MODE, passwords, config file). Resolves once it
 * answers; refuses to measure another server already on the port.
 */
export async function startBenchServer(opts: {
  port: number;
  web: string;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<{ url: string; child: ChildProcess }> {
  const url = `http://127.0.0.1:${opts.port}`;
  const busy = await fetch(url).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${opts.port} is in use: set BENCH_PORT`);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      BATHYLOG_DATA: opts.dataDir,
      BATHYLOG_MODE: 'demo',
      BATHYLOG_ADMIN_PASSWORD: 'demo',
      BATHYLOG_WEB_DIR: opts.web,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...opts.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/sealog-server/client_settings`)).ok) return { url, child };
    } catch {
      // not up yet
    }
    await sleep(500);
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}
