/**
 * What `synchronous = FULL` costs (docs/storage.md#durability-what-a-2xx-promises): POST /events
 * from 4 concurrent clients against the real server process on SQLite, once with FULL (the default)
 * and once with NORMAL. Writes bench/results/durability.{json,md}.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient, startServerProcess } from '../apps/server/test/server-process.js';
import { log, resultsDir, stats, type Stats } from './support.js';

const perClient = 250;
const clients = 4;

async function run(mode: 'full' | 'normal'): Promise<{ mode: string; eventsPerSecond: number; latency: Stats }> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-durability-'));
  const server = await startServerProcess({
    dataDir: path.join(root, 'data'),
    env: { BATHYLOG_SQLITE_SYNCHRONOUS: mode, BATHYLOG_FREE_SPACE_INTERVAL: '0' },
  });
  try {
    const api = new ApiClient(server.url);
    await api.login();
    for (let i = 0; i < 20; i++) await api.call('POST', '/events', { event_value: 'WARMUP' });
    const samples: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; i < perClient; i++) {
          const t = performance.now();
          const res = await api.call('POST', '/events', { event_value: 'BENCH', event_free_text: `${c}-${i}` });
          if (res.status !== 201) throw new Error(`POST /events: ${res.status}`);
          samples.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { mode, eventsPerSecond: Math.round((clients * perClient) / seconds), latency: stats(samples) };
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

const load = os.loadavg()[0]!.toFixed(1);
const results = [await run('full'), await run('normal'), await run('full'), await run('normal')];
for (const r of results)
  log(`${r.mode}: ${r.eventsPerSecond} events/s, p50 ${r.latency.p50} ms, p95 ${r.latency.p95} ms`);
const at = new Date().toISOString();
writeFileSync(
  path.join(resultsDir, 'durability.json'),
  JSON.stringify({ at, loadAverage: load, clients, perClient, results }, null, 2),
);
writeFileSync(
  path.join(resultsDir, 'durability.md'),
  [
    `# SQLite synchronous FULL vs NORMAL (POST /events, ${clients} clients × ${perClient})`,
    '',
    `${at}, load average at start ${load} (2 cores shared).`,
    '',
    '| synchronous | events/s | p50 ms | p95 ms |',
    '|---|---|---|---|',
    ...results.map((r) => `| ${r.mode} | ${r.eventsPerSecond} | ${r.latency.p50} | ${r.latency.p95} |`),
    '',
  ].join('\n'),
);
