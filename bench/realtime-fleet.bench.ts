/**
 * Realtime at fleet scale (docs/realtime.md#fleet-scale): 5,000 websocket subscribers spread over
 * two server processes that share one PostgreSQL (LISTEN/NOTIFY carries each event from the
 * process that stored it to the other), events POSTed to the first at 20 per second, and the time
 * from each POST to each subscriber's `pub` frame.
 *
 * The load generator runs in a network namespace of its own (`ip netns` and a veth pair; needs
 * root and iproute2), as a remote client would: its sockets cross a link into the servers'
 * namespace instead of the loopback shortcut. It runs as BENCH_GENERATORS processes
 * (realtime-fleet-load.ts), each holding its share of the sockets, so that reading 100,000
 * frames a second is not itself the bottleneck, and one more that only posts. The servers run at the default log level.
 * Writes bench/results/realtime-fleet.json and .md.
 *
 * Every server and generator process starts in a session of its own (`setsid`), as separate
 * services and a remote host would be: with the kernel's autogroup scheduling on (the default of
 * most distributions), processes of one session share one group's CPU, so a bench whose servers
 * and generators all sat in the shell's session got one share of the machine between them while
 * every other session on it got one each. BENCH_SESSIONS=shared keeps them in the bench's session.
 *
 * Env: BENCH_DATABASE_URL (PostgreSQL, required), BENCH_SOCKETS (5000), BENCH_RATE (20), BENCH_RUNS
 * (several runs: `5000x20,1000x20`, overriding the two before), BENCH_REPEAT (each run so often; the
 * median of repeated runs is reported),
 * BENCH_SECONDS (15), BENCH_PROCESSES (2), BENCH_GENERATORS (2), BENCH_PORT (8840),
 * BENCH_LOG_LEVEL (the server's default, info), BENCH_BASELINE_ROOT (a checkout of the code before a
 * change, this checkout's node_modules: its servers are measured instead, for an A/B; with
 * BENCH_AB=1 every run is made twice, this checkout's servers then the baseline's, one after the
 * other, so both meet the same load on a shared machine; the generator is always this checkout's),
 * BENCH_WATCHERS (20: users with the event_watcher role made for the run; the sockets say hello
 * round robin with the admin's token and theirs, so most are not admins and the channel rule runs),
 * BENCH_SESSIONS (own | shared), BENCH_PROFILE_DIR (a folder: every server and generator writes
 * a `--cpu-prof` profile there, and the servers' log is kept there), BENCH_RESULT_NAME
 * (realtime-fleet: the results' file name).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchDir, log, repoRoot, resultsDir, sleep } from './support.js';

const pgUrl = process.env.BENCH_DATABASE_URL;
const baselineRoot = process.env.BENCH_BASELINE_ROOT;
const alternate = process.env.BENCH_AB === '1' && baselineRoot !== undefined;
const socketsDefault = Number(process.env.BENCH_SOCKETS ?? 5000);
const rateDefault = Number(process.env.BENCH_RATE ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const processes = Number(process.env.BENCH_PROCESSES ?? 2);
const generators = Number(process.env.BENCH_GENERATORS ?? 2);
const firstPort = Number(process.env.BENCH_PORT ?? 8840);
const ownSessions = process.env.BENCH_SESSIONS !== 'shared';
const watchers = Number(process.env.BENCH_WATCHERS ?? 20);
const profileDir = process.env.BENCH_PROFILE_DIR ? path.resolve(process.env.BENCH_PROFILE_DIR) : null;
const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const secret = 'realtime-fleet-bench-secret';

interface Stats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

function stats(samples: ArrayLike<number>): Stats {
  const s = Float64Array.from(samples).sort();
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: s.length, p50: r(at(0.5)), p90: r(at(0.9)), p99: r(at(0.99)), max: r(s[s.length - 1] ?? 0) };
}

/** A network namespace joined to this one by a veth pair: the generator's "remote" host. */
class Namespace {
  readonly name = `blfleet${process.pid % 100000}`;
  private readonly hostDev = `blfh${process.pid % 100000}`;
  private readonly nsDev = `blfn${process.pid % 100000}`;
  private readonly net = `10.231.${process.pid % 250}`;
  readonly hostAddress = `${this.net}.1`;

  up(): void {
    const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
    ip('netns', 'add', this.name);
    ip('link', 'add', this.hostDev, 'type', 'veth', 'peer', 'name', this.nsDev);
    ip('link', 'set', this.nsDev, 'netns', this.name);
    ip('addr', 'add', `${this.hostAddress}/24`, 'dev', this.hostDev);
    ip('link', 'set', this.hostDev, 'up');
    ip('netns', 'exec', this.name, 'ip', 'addr', 'add', `${this.net}.2/24`, 'dev', this.nsDev);
    ip('netns', 'exec', this.name, 'ip', 'link', 'set', this.nsDev, 'up');
    ip('netns', 'exec', this.name, 'ip', 'link', 'set', 'lo', 'up');
  }

  down(): void {
    try {
      // Deleting the namespace deletes its end of the pair, and with it the other end.
      execFileSync('ip', ['netns', 'del', this.name], { stdio: 'pipe' });
    } catch {
      // already gone
    }
  }
}

interface Server {
  child: ChildProcess;
  base: string;
}

async function startServer(
  root: string,
  host: string,
  port: number,
  env: Record<string, string>,
  logFd: number,
): Promise<Server> {
  const child = spawn(process.execPath, [...profileArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    detached: ownSessions,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: host,
      BATHYLOG_MODE: 'production',
      BATHYLOG_ADMIN_PASSWORD: 'demo',
      SEALOG_SERVER_SECRET: secret,
      BATHYLOG_ASNAP_ENABLED: 'false',
      BATHYLOG_RATE_LIMIT_PER_ADDRESS: '0',
      BATHYLOG_RATE_LIMIT_PER_KEY: '0',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      ...env,
    },
    stdio: ['ignore', logFd, 'inherit'],
  });
  const base = `http://${host}:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited`);
    try {
      if ((await fetch(`${base}/sealog-server`)).ok) return { child, base };
    } catch {
      // starting
    }
    if (Date.now() > deadline) throw new Error(`server on ${port} did not start`);
    await sleep(250);
  }
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise<void>((r) => s.child.once('exit', () => r()));
  s.child.kill('SIGTERM');
  await exited;
}

/** User and system CPU time of a process so far, seconds. */
function cpuTimes(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const tick = 100;
  return { user: Number(fields[11]) / tick, system: Number(fields[12]) / tick };
}

interface LoadResult {
  sockets: number;
  pubs: number;
  closed: number;
  postMs: number[];
  failedPosts: number;
  cpuMs: number;
  wallMs: number;
  arrivals: Record<string, [number, number]>;
  samples: string;
}

function runGenerator(ns: Namespace, env: Record<string, string>): Promise<LoadResult> {
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      ns.name,
      process.execPath,
      ...profileArgs,
      '--import',
      'tsx',
      path.join(benchDir, 'realtime-fleet-load.ts'),
    ],
    { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], detached: ownSessions },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

interface RunResult {
  scenario: string;
  processes: number;
  sockets: number;
  ratePerSecond: number;
  events: number;
  delivered: number;
  expected: number;
  deliveryMs: Stats;
  postMs: Stats;
  failedPosts: number;
  socketsClosedEarly: number;
  /**
   * Server CPU (all processes) from the moment every socket was subscribed to the end of the
   * run, as % of one core, split into user and system (the kernel's work for the sockets).
   */
  serverCpuPercent: number;
  serverUserPercent: number;
  serverSystemPercent: number;
  /** The same server CPU per frame delivered, µs. */
  serverCpuUsPerFrame: number;
  /**
   * Per server process (the first is the one POSTed to), over events: the time from the POST to
   * the first of its subscribers' frames, and from that to the last (the fan-out).
   */
  perServer: Array<{ firstMs: Stats; spreadMs: Stats }>;
  /** The socket-holding generators' own CPU while events flowed, % of one core (all of them). */
  generatorCpuPercent: number;
  /** 1-minute load average: before the servers started, when posting started, at the end. */
  loadAverage: { before: number[]; during: number; after: number };
  sessions: 'own' | 'shared';
  /** Measured on the servers of BENCH_BASELINE_ROOT (the code before a change). */
  before: boolean;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const loadNow = () => Math.round(os.loadavg()[0]! * 100) / 100;

async function runOnce(sockets: number, rate: number, before: boolean): Promise<RunResult> {
  const ns = new Namespace();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-fleet-'));
  const logFd = openSync(path.join(profileDir ?? dir, 'servers.log'), 'a');
  const schema = `fleetbench_${Date.now().toString(36)}`;
  const servers: Server[] = [];
  const loadBefore = os.loadavg().map((x) => Math.round(x * 100) / 100);
  try {
    ns.up();
    const env = { DATABASE_URL: pgUrl!, DATABASE_SCHEMA: schema };
    // The first migrates the schema; the others start on it.
    for (let i = 0; i < processes; i++) {
      servers.push(
        await startServer(
          before ? baselineRoot! : repoRoot,
          ns.hostAddress,
          firstPort + i,
          { ...env, BATHYLOG_DATA: path.join(dir, `host${i}`) },
          logFd,
        ),
      );
    }
    const login = await fetch(`${servers[0]!.base}/sealog-server/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'demo' }),
    });
    if (!login.ok) throw new Error(`login ${login.status}`);
    const token = ((await login.json()) as { token: string }).token;
    // Most of a fleet's subscribers are not admins: the channel rule runs for them (once per
    // publication and caller), and the publication's visibility is looked up.
    const socketTokens = [token];
    for (let w = 0; w < watchers; w++) {
      const username = `watcher_${w}`;
      const password = `fleet-watcher-${w}-pass`;
      const created = await fetch(`${servers[0]!.base}/sealog-server/api/v1/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          username,
          fullname: `Fleet watcher ${w}`,
          email: `${username}@example.org`,
          password,
          roles: ['event_watcher'],
        }),
      });
      if (!created.ok) throw new Error(`creating ${username}: ${created.status} ${await created.text()}`);
      const res = await fetch(`${servers[0]!.base}/sealog-server/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
      socketTokens.push(((await res.json()) as { token: string }).token);
    }
    log(
      `${processes} processes on one PostgreSQL, ${sockets} sockets (the admin and ${watchers} event watchers) from ${generators} generators in namespace ${ns.name}, ${rate} events/s for ${seconds} s (load average ${loadBefore.join(', ')})`,
    );
    // Posting starts once every generator has its sockets (opening 5,000 takes a while).
    const readyDir = path.join(dir, 'ready');
    mkdirSync(readyDir);
    const share = (g: number) => Math.floor(sockets / generators) + (g < sockets % generators ? 1 : 0);
    // One more process posts and holds no socket: its POSTs are never queued behind frames.
    const running = Promise.all(
      Array.from({ length: generators + 1 }, (_, g) =>
        runGenerator(ns, {
          FLEET_SERVERS: servers.map((s) => s.base).join(','),
          FLEET_SOCKETS: String(g === generators ? 0 : share(g)),
          FLEET_TOKEN: token,
          FLEET_SOCKET_TOKENS: socketTokens.join(','),
          FLEET_POST: g === generators ? '1' : '0',
          FLEET_RATE: String(rate),
          FLEET_SECONDS: String(seconds),
          FLEET_READY_DIR: readyDir,
          FLEET_PROCESSES: String(generators + 1),
        }),
      ),
    );
    let done = false;
    void running.finally(() => (done = true)).catch(() => undefined);
    // The servers' CPU is counted from when every socket is subscribed (opening them is not the measure).
    while (!done && readdirSync(readyDir).length < generators + 1) await sleep(100);
    const cpuStart = servers.map((s) => cpuTimes(s.child.pid!));
    const wallStart = Date.now();
    let loadDuring = loadNow();
    void sleep(2000 + (seconds * 1000) / 2).then(() => (loadDuring = loadNow()));
    const loads = await running;
    const wall = (Date.now() - wallStart) / 1000;
    const cpuEnd = servers.map((s) => cpuTimes(s.child.pid!));
    const user = cpuEnd.reduce((sum, t, i) => sum + t.user - cpuStart[i]!.user, 0);
    const system = cpuEnd.reduce((sum, t, i) => sum + t.system - cpuStart[i]!.system, 0);
    const samples: number[] = [];
    for (const l of loads) {
      const buf = Buffer.from(l.samples, 'base64');
      for (const x of new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4)) samples.push(x);
    }
    const events = Math.round(rate * seconds);
    const opened = loads.reduce((n, l) => n + l.sockets, 0);
    const delivered = loads.reduce((n, l) => n + l.pubs, 0);
    const holders = loads.slice(0, generators);
    const firstLast = new Map<string, [number, number]>();
    for (const l of holders) {
      for (const [key, [first, last]] of Object.entries(l.arrivals)) {
        const seen = firstLast.get(key);
        firstLast.set(key, seen ? [Math.min(seen[0], first), Math.max(seen[1], last)] : [first, last]);
      }
    }
    const perServer = servers.map((_, i) => {
      const firsts: number[] = [];
      const spreads: number[] = [];
      for (const [key, [first, last]] of firstLast) {
        const [sent, server] = key.split('/').map(Number);
        if (server !== i) continue;
        firsts.push(first - sent!);
        spreads.push(last - first);
      }
      return { firstMs: stats(firsts), spreadMs: stats(spreads) };
    });
    return {
      scenario: `PostgreSQL, ${processes} processes, POSTs on the first (LISTEN/NOTIFY)${before ? ', code before the change' : ''}`,
      processes,
      sockets: opened,
      ratePerSecond: rate,
      events,
      delivered,
      expected: events * opened,
      deliveryMs: stats(samples),
      postMs: stats(loads[generators]!.postMs),
      failedPosts: loads[generators]!.failedPosts,
      socketsClosedEarly: loads.reduce((n, l) => n + l.closed, 0),
      serverCpuPercent: round1(((user + system) / wall) * 100),
      serverUserPercent: round1((user / wall) * 100),
      serverSystemPercent: round1((system / wall) * 100),
      serverCpuUsPerFrame: round1(((user + system) * 1e6) / Math.max(1, delivered)),
      perServer,
      generatorCpuPercent: round1(holders.reduce((sum, l) => sum + (l.cpuMs / l.wallMs) * 100, 0)),
      loadAverage: { before: loadBefore, during: loadDuring, after: loadNow() },
      sessions: ownSessions ? 'own' : 'shared',
      before,
    };
  } finally {
    for (const s of servers) await stopServer(s);
    ns.down();
    closeSync(logFd);
    rmSync(dir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

/**
 * BENCH_RUNS: comma-separated `<sockets>x<events/s>`, each run BENCH_REPEAT times (default: one
 * run); with BENCH_AB=1 each run on this checkout's servers, then at once on the baseline's.
 */
function plannedRuns(): Array<{ sockets: number; rate: number; before: boolean }> {
  const repeat = Number(process.env.BENCH_REPEAT ?? 1);
  const spec = process.env.BENCH_RUNS ?? `${socketsDefault}x${rateDefault}`;
  const runs: Array<{ sockets: number; rate: number; before: boolean }> = [];
  for (const item of spec.split(',').filter(Boolean)) {
    const [n, r] = item.split('x').map(Number);
    if (!Number.isFinite(n) || !Number.isFinite(r) || n! <= 0 || r! <= 0)
      throw new Error(`bad BENCH_RUNS item ${item}`);
    for (let i = 0; i < repeat; i++) {
      runs.push({ sockets: n!, rate: r!, before: !alternate && baselineRoot !== undefined });
      if (alternate) runs.push({ sockets: n!, rate: r!, before: true });
    }
  }
  return runs;
}

const label = (r: RunResult) => (alternate && r.before ? 'before: ' : '');

function row(r: RunResult): string {
  const load = `${r.loadAverage.before[0]} / ${r.loadAverage.during} / ${r.loadAverage.after}`;
  return `| ${label(r)}${r.sockets} | ${r.ratePerSecond} | ${r.delivered}/${r.expected} | ${r.deliveryMs.p50} | ${r.deliveryMs.p90} | ${r.deliveryMs.p99} | ${r.deliveryMs.max} | ${r.postMs.p50} | ${r.postMs.p99} | ${r.serverCpuPercent} % (${r.serverUserPercent} + ${r.serverSystemPercent}) | ${r.serverCpuUsPerFrame} | ${r.generatorCpuPercent} % | ${load} |`;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

async function main(): Promise<void> {
  if (!pgUrl) {
    log('BENCH_DATABASE_URL (PostgreSQL) is required: the processes share realtime through LISTEN/NOTIFY');
    process.exit(2);
  }
  if (process.getuid?.() !== 0) {
    log('needs root for `ip netns` (the load generator runs in a namespace of its own)');
    process.exit(2);
  }
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const results: RunResult[] = [];
  for (const run of plannedRuns()) {
    const r = await runOnce(run.sockets, run.rate, run.before);
    results.push(r);
    log(
      `${label(r)}${r.sockets} sockets × ${r.ratePerSecond}/s: delivered ${r.delivered}/${r.expected}: p50 ${r.deliveryMs.p50} ms, p90 ${r.deliveryMs.p90} ms, p99 ${r.deliveryMs.p99} ms, max ${r.deliveryMs.max} ms; POST p99 ${r.postMs.p99} ms; server CPU ${r.serverCpuPercent} % (system ${r.serverSystemPercent} %), generators ${r.generatorCpuPercent} %; load ${r.loadAverage.before[0]} / ${r.loadAverage.during} / ${r.loadAverage.after}; ${r.perServer.map((p, i) => `process ${i + 1}: first frame p50 ${p.firstMs.p50} / p99 ${p.firstMs.p99} ms, fan-out p50 ${p.spreadMs.p50} / p99 ${p.spreadMs.p99} ms`).join('; ')}`,
    );
  }
  // Repeated scenarios: the run with the median p99 stands for them.
  const groups = new Map<string, RunResult[]>();
  for (const r of results) {
    const key = `${label(r)}${r.sockets}x${r.ratePerSecond}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const medians = [...groups.entries()]
    .filter(([, rs]) => rs.length > 1)
    .map(([key, rs]) => ({
      scenario: key,
      runs: rs.length,
      p99: median(rs.map((r) => r.deliveryMs.p99)),
      p50: median(rs.map((r) => r.deliveryMs.p50)),
      loadAverage: rs.map((r) => r.loadAverage.during),
    }));
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    seconds,
    generators,
    sessions: ownSessions ? 'own' : 'shared',
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = process.env.BENCH_RESULT_NAME ?? 'realtime-fleet';
  writeFileSync(path.join(resultsDir, `${file}.json`), JSON.stringify({ meta, results, medians }, null, 2) + '\n');
  writeFileSync(
    path.join(resultsDir, `${file}.md`),
    [
      '# Realtime at fleet scale',
      '',
      `${meta.date} · ${meta.cpus} cores · Node ${meta.node} · ${seconds} s of events per run · ${results[0]?.scenario ?? ''}`,
      '',
      ...(alternate
        ? [
            'Rows marked `before:` ran the servers of the code before the change (BENCH_BASELINE_ROOT, the same generator), each right after the same run on this code, so both met about the same load.',
            '',
          ]
        : []),
      `Time from just before \`POST /events\` (on the first process) to the \`pub\` frame on each subscriber's socket, every event × socket pair; sockets spread evenly over the processes, saying hello round robin as the admin and ${watchers} users with the event_watcher role (so the channel rule runs for most); the load generator (${generators} processes holding the sockets, one more posting) in its own network namespace behind a veth link; servers at the default log level; every process in ${ownSessions ? 'a session of its own (as separate services)' : "the bench's session"}. Generators and servers share the machine's 2 cores with whatever else runs on it: the load average (1 min: before the run / while events flowed / after) is given for each run. Server CPU is both processes' from the moment every socket was subscribed (user + system), per frame delivered; generator CPU is the socket-holding generators' own while events flowed.`,
      '',
      '| sockets | events/s | delivered | p50 ms | p90 ms | p99 ms | max ms | POST p50 | POST p99 | server CPU (user + sys) | CPU µs per frame | generator CPU | load average |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...results.map((r) => row(r)),
      '',
      "Where the time goes, per event (median / p99 over the events of a run): from the POST to the first frame on a subscriber of each process (process 1 is POSTed to and publishes at once; process 2 hears of it through NOTIFY), and from that first frame to the last (the fan-out to that process's sockets).",
      '',
      '| sockets | events/s | process 1 first frame ms | process 1 fan-out ms | process 2 first frame ms | process 2 fan-out ms |',
      '|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${label(r)}${r.sockets} | ${r.ratePerSecond} | ${r.perServer.map((p) => `${p.firstMs.p50} / ${p.firstMs.p99} | ${p.spreadMs.p50} / ${p.spreadMs.p99}`).join(' | ')} |`,
      ),
      '',
      ...(medians.length
        ? [
            '| repeated scenario | runs | median p50 ms | median p99 ms | load average while events flowed |',
            '|---|---|---|---|---|',
            ...medians.map((m) => `| ${m.scenario} | ${m.runs} | ${m.p50} | ${m.p99} | ${m.loadAverage.join(', ')} |`),
            '',
          ]
        : []),
      'Run (as root): `BENCH_DATABASE_URL=postgres://… npx tsx bench/realtime-fleet.bench.ts` (BENCH_RUNS=5000x20,1000x20 …, BENCH_REPEAT=3).',
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
