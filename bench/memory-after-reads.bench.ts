/**
 * Memory after a burst of heavy reads (docs/performance.md#memory-after-a-burst): the real server
 * (from its sources, demo data: dive S0492 with 4,540 events and their aux data, SQLite, default
 * log level) is warmed up, its resident memory read (the baseline), then BENCH_READS (1,000) full
 * event lists (GET /events, every event, gzip accepted as a browser does) are sent at once. The
 * server's RSS (anonymous and file-backed parts, from /proc/<pid>/status) is sampled every second
 * for BENCH_WATCH_SECONDS (60) after the last answer: the target is RSS back within 15% of the
 * baseline within 60 s. Writes bench/results/memory-after-reads.json and .md.
 *
 * Env: BENCH_PORT (8975), BENCH_READS (1000), BENCH_WATCH_SECONDS (60), BENCH_RESULT_NAME.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log, resultsDir, sleep, startBenchServer, webDir } from './support.js';

const port = Number(process.env.BENCH_PORT ?? 8975);
const reads = Number(process.env.BENCH_READS ?? 1000);
const watchSeconds = Number(process.env.BENCH_WATCH_SECONDS ?? 60);

interface Memory {
  rss: number;
  anon: number;
  file: number;
}

/** The process's resident memory in MB: total, anonymous (heap, buffers) and file-backed (mapped files). */
function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  const mb = (x: number) => Math.round(x / 102.4) / 10;
  return { rss: mb(kb('VmRSS')), anon: mb(kb('RssAnon')), file: mb(kb('RssFile') + kb('RssShmem')) };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-memory-'));
  const web = webDir();
  const { url, child } = await startBenchServer({
    port,
    web: web.dir,
    dataDir,
    env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' },
  });
  const pid = child.pid!;
  try {
    const login = await fetch(`${url}/sealog-server/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'demo' }),
    });
    const token = ((await login.json()) as { token: string }).token;
    const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
    const fullList = () =>
      fetch(`${url}/sealog-server/api/v1/events`, { headers }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      });
    // Warm-up: a few full reads one after another (code loaded, caches filled), then settle.
    for (let i = 0; i < 5; i++) await fullList();
    await sleep(5000);
    const baseline = memoryOf(pid);
    log(`baseline RSS ${baseline.rss} MB (anonymous ${baseline.anon}, files ${baseline.file})`);
    const t0 = Date.now();
    let peak = baseline;
    const sampler = setInterval(() => {
      const m = memoryOf(pid);
      if (m.rss > peak.rss) peak = m;
    }, 250);
    const statuses = await Promise.all(Array.from({ length: reads }, () => fullList().catch(() => 0)));
    clearInterval(sampler);
    const burstSeconds = Math.round((Date.now() - t0) / 100) / 10;
    const ok = statuses.filter((s) => s === 200).length;
    log(`${reads} full reads in ${burstSeconds} s: ${ok} answered 200; peak RSS ${peak.rss} MB`);
    const after: Array<{ second: number } & Memory> = [];
    let within: number | null = null;
    for (let s = 0; s <= watchSeconds; s++) {
      const m = memoryOf(pid);
      after.push({ second: s, ...m });
      if (within === null && m.rss <= baseline.rss * 1.15) within = s;
      if (s < watchSeconds) await sleep(1000);
    }
    const last = after[after.length - 1]!;
    log(
      `after ${watchSeconds} s: RSS ${last.rss} MB (${Math.round((last.rss / baseline.rss - 1) * 100)}% over baseline), back within 15% after ${within ?? 'more than ' + watchSeconds} s`,
    );
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
      reads,
      answered200: ok,
      burstSeconds,
      baseline,
      peak,
      afterWatch: last,
      overBaselinePercent: Math.round((last.rss / baseline.rss - 1) * 1000) / 10,
      backWithin15PercentAfterSeconds: within,
      samples: after,
    };
    mkdirSync(resultsDir, { recursive: true });
    const name = process.env.BENCH_RESULT_NAME ?? 'memory-after-reads';
    writeFileSync(path.join(resultsDir, `${name}.json`), JSON.stringify(result, null, 2) + '\n');
    const row = (label: string, m: Memory) => `| ${label} | ${m.rss} | ${m.anon} | ${m.file} |`;
    writeFileSync(
      path.join(resultsDir, `${name}.md`),
      [
        '# Memory after a burst of full reads',
        '',
        `${result.date} · ${result.cpus} cores · Node ${result.node} · demo data (4,540 events with aux data), SQLite, default log level · load average at the end ${result.loadAverage.join(' / ')}`,
        '',
        `${reads} full event lists (GET /events, gzip accepted) sent at once: ${ok} answered 200 in ${burstSeconds} s. Resident memory of the server process in MB (anonymous: heap and buffers; files: mapped database pages and code).`,
        '',
        '| moment | RSS | anonymous | files |',
        '|---|---|---|---|',
        row('baseline (warm, idle)', baseline),
        row('peak during the burst', peak),
        ...after.filter((m) => m.second % 10 === 0).map((m) => row(`${m.second} s after the last answer`, m)),
        '',
        `**RSS ${result.overBaselinePercent}% over the baseline ${watchSeconds} s after the burst; within 15% after ${within ?? `more than ${watchSeconds}`} s** (target: within 15% within 60 s).`,
        '',
        'Run: `npx tsx bench/memory-after-reads.bench.ts` (BENCH_READS, BENCH_WATCH_SECONDS).',
        '',
      ].join('\n'),
    );
  } finally {
    child.kill('SIGTERM');
    await sleep(1000);
    rmSync(dataDir, { recursive: true, force: true });
    if (web.temp) rmSync(web.dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
