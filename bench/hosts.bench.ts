/**
 * Several hosts (docs/deployment.md#tested-and-measured): two, then three server processes, each
 * in a network namespace of its own, on one PostgreSQL database behind HAProxy, as the several-hosts
 * test starts them (apps/server/test/hosts/cluster.ts). The load generator (hosts-load.ts) runs in a
 * namespace of its own and reaches the hosts only through the balancer: events/s accepted with
 * writers posting back to back, then websocket delivery p50/p99 at a steady rate, for sockets on
 * the host that took the POST and on the others (the LISTEN/NOTIFY path).
 * Writes bench/results/hosts.json and .md.
 *
 * Needs root (`ip netns`), Debian's haproxy and PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL.
 * Env: BENCH_HOSTS ("1,2,3"), BENCH_SOCKETS (60), BENCH_WRITERS (16), BENCH_SECONDS (10), BENCH_RATE (20).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster } from '../apps/server/test/hosts/cluster.js';
import { networkUnavailable } from '../apps/server/test/hosts/network.js';
import { peer } from '../apps/server/test/peers.js';
import { log, repoRoot, resultsDir } from './support.js';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const hostCounts = (process.env.BENCH_HOSTS ?? '1,2,3').split(',').map(Number);
const sockets = Number(process.env.BENCH_SOCKETS ?? 60);
const writers = Number(process.env.BENCH_WRITERS ?? 16);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rate = Number(process.env.BENCH_RATE ?? 20);

interface LoadResult {
  socketsPerHost: Record<string, number>;
  throughput: { writers: number; seconds: number; accepted: number; refused: number; eventsPerSecond: number };
  delivery: {
    rate: number;
    events: number;
    missing: number;
    sameHost: { n: number; p50: number; p99: number };
    otherHost: { n: number; p50: number; p99: number };
    all: { n: number; p50: number; p99: number };
  };
}

async function runWith(hosts: number, haproxy: string): Promise<LoadResult> {
  const schema = `bench_hosts_${process.pid}_${hosts}`;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-hosts-bench-'));
  const cluster = await startCluster({
    workDir,
    databaseUrl: databaseUrl!,
    schema,
    haproxy,
    hosts,
    env: { LOG_LEVEL: 'warn', BATHYLOG_ASNAP_ENABLED: 'false' },
    extraNamespaces: ['load'],
  });
  try {
    log(`${hosts} hosts up; load from its own namespace through ${cluster.balancerUrl}`);
    const child = cluster.network.spawn(
      cluster.extra.get('load')!,
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repoRoot, 'bench/hosts-load.ts'),
        JSON.stringify({ balancer: cluster.balancerUrl, sockets, writers, seconds, rate }),
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the load generator failed (exit ${code})`);
    return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
  } finally {
    await cluster.close();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    if (process.env.BATHYLOG_KEEP_TEST_FILES) log(`logs kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

function markdown(
  rows: Array<{ hosts: number; result: LoadResult; load: number }>,
  meta: Record<string, unknown>,
): string {
  const lines = [
    '# Several hosts benchmark',
    '',
    `${String(meta.at)} · ${String(meta.cpu)} · Node ${process.version} · ${sockets} websockets through the balancer · ` +
      `${writers} writers back to back for ${seconds} s, then ${rate} events/s for ${seconds} s`,
    '',
    'Each host a server process in a network namespace of its own, on one PostgreSQL database (relayed on the',
    'bridge) behind HAProxy (round robin, websocket passed); the load generator in another namespace reaches',
    'them only through the balancer. Delivery: ms from just before `POST /events` to the `pub` frame, for',
    'sockets on the host that took the POST and on the others (PostgreSQL LISTEN/NOTIFY). Every process',
    'shares the same two cores, so more hosts add no CPU here: the figures show the layout works and what',
    'crossing hosts costs, not how it scales on separate machines. The machine was shared with other',
    'work: the load average (1 min) during each run is in the last column.',
    '',
    '| hosts | sockets per host | events/s accepted | refused | delivered | same host p50 / p99 | other host p50 / p99 | all p50 / p99 | load average |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { hosts, result: r, load } of rows) {
    const d = r.delivery;
    lines.push(
      `| ${hosts} | ${Object.values(r.socketsPerHost).join(' / ')} | ${r.throughput.eventsPerSecond} | ${r.throughput.refused} | ` +
        `${d.all.n}/${d.all.n + d.missing} | ${d.sameHost.p50} / ${d.sameHost.p99} | ${d.otherHost.p50} / ${d.otherHost.p99} | ${d.all.p50} / ${d.all.p99} | ${load} |`,
    );
  }
  lines.push('', 'Run (as root): `TEST_DATABASE_URL=postgres://… npx tsx bench/hosts.bench.ts`.', '');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const unavailable = networkUnavailable();
  const haproxy = peer('haproxy');
  if (!databaseUrl || unavailable || !haproxy) {
    log(
      `skipped: ${!databaseUrl ? 'needs BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL)' : (unavailable ?? 'haproxy is missing')}`,
    );
    return;
  }
  const rows: Array<{ hosts: number; result: LoadResult; load: number }> = [];
  for (const hosts of hostCounts) {
    const loadBefore = os.loadavg()[0]!;
    const result = await runWith(hosts, haproxy);
    log(`${hosts} hosts: ${JSON.stringify(result)}`);
    rows.push({ hosts, result, load: Math.round(((loadBefore + os.loadavg()[0]!) / 2) * 10) / 10 });
  }
  const meta = { at: new Date().toISOString(), cpu: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}` };
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, 'hosts.json'), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
  writeFileSync(path.join(resultsDir, 'hosts.md'), markdown(rows, meta));
  log('wrote bench/results/hosts.md');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
