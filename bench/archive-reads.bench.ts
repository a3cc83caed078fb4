/**
 * The public archive read by anonymous visitors at fleet scale (docs/public-archive.md): a shore that
 * gathered many cruises and dives, each visitor request deciding what it may see from the archive
 * state of every cruise and lowering. The real server (from its sources, archive on) holds
 * BENCH_CRUISES cruises of BENCH_LOWERINGS dives each, every other cruise public; autocannon then
 * reads, without a token, one public cruise, the cruise list, one public dive and its events (the
 * event routes also apply the access lists), and the same cruise as the admin (who reads no archive)
 * as the anchor. Reports rate, latency and the server's CPU per
 * request. SQLite by default; PostgreSQL with BENCH_DATABASE_URL (a schema of its own, dropped after).
 * Writes bench/results/archive-reads[-BENCH_LABEL].json and .md. Not a test: it asserts nothing.
 *
 * Env: BENCH_CRUISES (100), BENCH_LOWERINGS (20), BENCH_DURATION (s, 6), BENCH_CONNECTIONS (10),
 * BENCH_PORT (8990), BENCH_DATABASE_URL, BENCH_LABEL.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cannonWithCpu, log, resultsDir, startBenchServer, webDir, type CannonFigures } from './support';

const cruises = Number(process.env.BENCH_CRUISES ?? 100);
const loweringsPerCruise = Number(process.env.BENCH_LOWERINGS ?? 20);
const duration = Number(process.env.BENCH_DURATION ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 8990);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
const label = process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : '';
const api = '/sealog-server/api/v1';

interface Run extends CannonFigures {
  name: string;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-archive-'));
  const schema = `bench_archive_${process.pid}`;
  const { dir: web } = webDir();
  const { url, child } = await startBenchServer({
    port,
    web,
    dataDir,
    env: {
      BATHYLOG_PUBLIC_ARCHIVE: 'true',
      BATHYLOG_ASNAP_ENABLED: 'false',
      BATHYLOG_RATE_LIMIT_PER_ADDRESS: '0',
      BATHYLOG_RATE_LIMIT_PER_KEY: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    },
  });
  const runs: Run[] = [];
  try {
    const login = await fetch(`${url}${api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'demo' }),
    });
    const token = ((await login.json()) as { token: string }).token;
    const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = async (route: string, body: unknown): Promise<string> => {
      const res = await fetch(`${url}${api}${route}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`POST ${route}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { insertedId: string }).insertedId;
    };
    log(`seeding ${cruises} cruises of ${loweringsPerCruise} dives (${databaseUrl ? 'PostgreSQL' : 'SQLite'})`);
    let publicCruise = '';
    let publicDive = '';
    const day = 86_400_000;
    const t0 = Date.parse('2020-01-01T00:00:00Z');
    for (let c = 0; c < cruises; c++) {
      const start = t0 + c * 30 * day;
      const cruiseId = await post('/cruises', {
        cruise_id: `FLEET${String(c).padStart(4, '0')}`,
        start_ts: new Date(start).toISOString(),
        stop_ts: new Date(start + 25 * day).toISOString(),
        cruise_location: 'bench',
        cruise_tags: [],
        cruise_hidden: false,
        cruise_public: c % 2 === 0,
        cruise_additional_meta: { cruise_vessel: 'R/V Bench', cruise_pi: 'Bench', cruise_description: '' },
      });
      for (let l = 0; l < loweringsPerCruise; l++) {
        const diveStart = start + l * day;
        const diveId = await post('/lowerings', {
          lowering_id: `F${c}-D${l}`,
          start_ts: new Date(diveStart).toISOString(),
          stop_ts: new Date(diveStart + day / 2).toISOString(),
          lowering_location: 'bench',
          lowering_tags: [],
          lowering_hidden: false,
          lowering_additional_meta: { lowering_description: '' },
        });
        if (c === 0 && l === 0) {
          publicDive = diveId;
          for (let e = 0; e < 20; e++)
            await post('/events', {
              ts: new Date(diveStart + (e + 1) * 60_000).toISOString(),
              event_value: 'OBSERVATION',
              event_free_text: `event ${e}`,
            });
        }
      }
      if (c === 0) publicCruise = cruiseId;
    }
    const cannon = async (name: string, route: string, headers: Record<string, string> = {}) => {
      const check = await fetch(`${url}${api}${route}`, { headers });
      if (check.status !== 200) throw new Error(`${name}: ${check.status} ${await check.text()}`);
      const figures = await cannonWithCpu({ url: `${url}${api}${route}`, connections, duration, headers }, child.pid);
      const cpuPerRequest = figures.cpuPerRequest === null ? null : Math.round(figures.cpuPerRequest);
      const run: Run = { name, ...figures, cpuPerRequest };
      log(
        `  ${name}: ${run.requestsPerSecond} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.cpuPerRequest} µs CPU/request`,
      );
      runs.push(run);
    };
    await cannon('visitor: one public cruise', `/cruises/${publicCruise}`);
    await cannon('visitor: the cruise list', '/cruises');
    await cannon('visitor: one public dive', `/lowerings/${publicDive}`);
    await cannon("visitor: a public dive's events", `/events/bylowering/${publicDive}?limit=20`);
    await cannon('admin: one public cruise (no archive rule)', `/cruises/${publicCruise}`, {
      authorization: `Bearer ${token}`,
    });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  }
  const result = {
    date: new Date().toISOString(),
    engine: databaseUrl ? 'postgres' : 'sqlite',
    cruises,
    lowerings: cruises * loweringsPerCruise,
    connections,
    duration,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    runs,
  };
  mkdirSync(resultsDir, { recursive: true });
  const base = path.join(resultsDir, `archive-reads${label}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    `${base}.md`,
    [
      '# The public archive read by visitors',
      '',
      `${result.date} · ${result.engine} · ${cruises} cruises, ${result.lowerings} dives (every other cruise public) · autocannon ${connections} connections, ${duration} s per run · load average ${result.loadAverage.join(' / ')}`,
      '',
      '| request | req/s | p50 ms | p99 ms | non-2xx | server CPU µs/request |',
      '|---|---|---|---|---|---|',
      ...runs.map(
        (r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.cpuPerRequest ?? '?'} |`,
      ),
      '',
      'Run: `npx tsx bench/archive-reads.bench.ts` (BENCH_DATABASE_URL=postgres://… for PostgreSQL).',
      '',
    ].join('\n'),
  );
  log(`wrote ${base}.md`);
}

await main();
