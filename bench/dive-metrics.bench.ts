/**
 * Dive metrics benchmark (docs/review-and-gis.md#dive-metrics): the demo dive S0492 (4,540
 * events, each with navigation, frame grabs on its photo and sample events) on the real server,
 * demo mode, SQLite. Times `GET lowerings/{id}/metrics` (JSON and CSV) and `GET cruises/{id}/metrics`
 * over HTTP on the loopback, one request at a time, after two warm-up reads. Writes
 * bench/results/dive-metrics.json and .md. Not a test: it asserts nothing.
 *
 * Env: BENCH_RUNS (30), BENCH_PORT (8962).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log, resultsDir, startBenchServer, stats, webDir } from './support';

const runs = Number(process.env.BENCH_RUNS ?? 30);
const port = Number(process.env.BENCH_PORT ?? 8962);
const loweringId = '6410e4e06594c9977675e47a';

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-metrics-'));
  const web = webDir();
  const { url, child } = await startBenchServer({
    port,
    web: web.dir,
    dataDir,
    env: { BATHYLOG_ASNAP_ENABLED: 'false' },
  });
  try {
    const apiUrl = `${url}/sealog-server/api/v1`;
    const login = (await (
      await fetch(`${apiUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'demo' }),
      })
    ).json()) as { token: string };
    const headers = { authorization: `Bearer ${login.token}` };
    const cruises = (await (await fetch(`${apiUrl}/cruises`, { headers })).json()) as Array<{ id: string }>;
    const time = async (p: string) => {
      const samples: number[] = [];
      let bytes = 0;
      for (let i = 0; i < runs + 2; i++) {
        const t0 = performance.now();
        const res = await fetch(`${apiUrl}/${p}`, { headers });
        const body = await res.text();
        if (!res.ok) throw new Error(`${p} → ${res.status} ${body}`);
        if (i >= 2) samples.push(performance.now() - t0);
        bytes = body.length;
      }
      return { ...stats(samples), bytes };
    };
    const result = {
      date: new Date().toISOString(),
      dive: 'S0492 (4,540 events with nav)',
      runs,
      loweringJson: await time(`lowerings/${loweringId}/metrics`),
      loweringCsv: await time(`lowerings/${loweringId}/metrics?format=csv`),
      cruiseJson: await time(`cruises/${cruises[0]!.id}/metrics`),
    };
    writeFileSync(path.join(resultsDir, 'dive-metrics.json'), `${JSON.stringify(result, null, 2)}\n`);
    const row = (name: string, s: typeof result.loweringJson) =>
      `| ${name} | ${s.p50} | ${s.p95} | ${s.max} | ${s.bytes.toLocaleString('en')} |`;
    const md = [
      '# Dive metrics',
      '',
      `${result.date}: ${result.dive}, SQLite, demo server on the loopback, ${runs} reads each after two warm-up reads.`,
      '',
      '| read | p50 ms | p95 ms | max ms | bytes |',
      '|---|---|---|---|---|',
      row('GET lowerings/{id}/metrics', result.loweringJson),
      row('GET lowerings/{id}/metrics?format=csv', result.loweringCsv),
      row('GET cruises/{id}/metrics (one dive)', result.cruiseJson),
      '',
      'Computed on every read (counts grouped in SQL, one pass over the nav records): no cache is needed at this size.',
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'dive-metrics.md'), md);
    log(`p50 ${result.loweringJson.p50} ms; results in bench/results/dive-metrics.{json,md}`);
  } finally {
    child.kill('SIGTERM');
    if (web.temp) rmSync(web.dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
