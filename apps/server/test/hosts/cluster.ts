import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensureServerBuild, serverBuild } from '../../../../scripts/build-server.mjs';
import { processControls, repoRoot } from '../server-process.js';
import { freePortOn, Network, type NetHost } from './network.js';

/**
 * Several Bathylog hosts as an operator runs them (docs/deployment.md): each server process in a
 * network namespace of its own with its own address, all on one PostgreSQL database and one file
 * store, behind HAProxy from Debian, which balances HTTP and passes the websocket upgrade. The
 * machine's PostgreSQL listens on 127.0.0.1 only, so the same HAProxy relays it (TCP) on the
 * bridge address, where the hosts reach it.
 */
export const hostPort = 8000;
/** The secret every host shares (docs/deployment.md#what-every-host-needs). */
export const clusterSecret = 'several-hosts-test-secret';

export interface HostProcess {
  name: string;
  net: NetHost;
  /** http://<address>:8000, reachable from the root namespace. */
  url: string;
  logFile: string;
  child: ChildProcess;
  alive(): boolean;
  /** SIGKILL: what a crashed machine leaves. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Where logs, the balancer's config and (without a bucket) the shared data folder go. */
  workDir: string;
  /** postgres:// URL of the database as this machine reaches it (TEST_DATABASE_URL). */
  databaseUrl: string;
  /** The schema the hosts share. */
  schema: string;
  haproxy: string;
  hosts: number;
  /** Environment of every host (on top of the cluster's). */
  env?: Record<string, string>;
  /**
   * The bucket every host keeps its files in (an S3 server listening on 127.0.0.1, relayed on the
   * bridge like the database). Each host then has a data folder of its own, as on separate
   * machines. Without it the hosts share one data folder (`<workDir>/shared-data`), as they would
   * share a mounted folder.
   */
  s3?: { port: number; bucket: string; accessKeyId: string; secretAccessKey: string };
  /** Extra namespaces without a server (a load generator). */
  extraNamespaces?: string[];
}

export interface Cluster {
  network: Network;
  hosts: HostProcess[];
  /** The balancer's address, reachable from the root namespace and every namespace. */
  balancerUrl: string;
  /** The database URL as the hosts reach it (through the relay on the bridge). */
  hostDatabaseUrl: string;
  extra: Map<string, NetHost>;
  /** Where the leading host writes scheduled backups (a folder every host reaches). */
  backupDir: string;
  /** Starts (again) the host of that name; it keeps its address. */
  startHost(host: HostProcess): Promise<HostProcess>;
  close(): Promise<void>;
}

function haproxyConfig(opts: {
  gateway: string;
  webPort: number;
  pgPort: number;
  pg: { host: string; port: number };
  s3: { port: number; relay: number } | null;
  hosts: Array<{ name: string; address: string }>;
}): string {
  return `global
  # Each connection holds two descriptors; stay within the usual limit of 20000 open files.
  maxconn 9000
  log stdout format raw local0
defaults
  mode http
  log global
  option httplog
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # A websocket is a tunnel once upgraded: idle up to the client's heartbeat and beyond.
  timeout tunnel 1h
  timeout client-fin 5s
  # A connection refused by a dead host is tried on another (never a request already sent).
  retries 2
  option redispatch 1
frontend web
  bind ${opts.gateway}:${opts.webPort}
  # Which host answered: tests and the bench read it (never needed by clients).
  http-response set-header X-Bathylog-Host %[srv_name]
  default_backend hosts
backend hosts
  balance roundrobin
  option httpchk GET /sealog-server/api/v1/health
  http-check expect status 200
  # Not too eager: a host starved of CPU for a second is slow, not dead (a dead one refuses
  # connections at once, and those are tried on another host meanwhile).
  timeout check 6s
  default-server inter 2s fall 3 rise 2 on-marked-down shutdown-sessions
${opts.hosts.map((h) => `  server ${h.name} ${h.address}:${hostPort} check`).join('\n')}
listen postgres
  mode tcp
  no log
  bind ${opts.gateway}:${opts.pgPort}
  timeout client 1h
  timeout server 1h
  server pg ${opts.pg.host}:${opts.pg.port}
${
  opts.s3
    ? `listen s3
  mode tcp
  no log
  bind ${opts.gateway}:${opts.s3.relay}
  timeout client 5m
  timeout server 5m
  server s3 127.0.0.1:${opts.s3.port}
`
    : ''
}`;
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  mkdirSync(opts.workDir, { recursive: true });
  const network = Network.create();
  const sharedDataDir = path.join(opts.workDir, 'shared-data');
  const dataDirOf = (name: string) => (opts.s3 ? path.join(opts.workDir, `data-${name}`) : sharedDataDir);
  const backupDir = path.join(opts.workDir, 'backups');
  let balancer: ChildProcess | null = null;
  const hosts: HostProcess[] = [];
  const close = async () => {
    await Promise.all(hosts.map((h) => h.stop()));
    balancer?.kill('SIGKILL');
    network.destroy();
  };
  try {
    const names = Array.from({ length: opts.hosts }, (_, i) => String.fromCharCode(97 + i));
    const nets = names.map((name) => network.addHost(name));
    const extra = new Map((opts.extraNamespaces ?? []).map((name) => [name, network.addHost(name)]));
    const webPort = await freePortOn(network.gateway);
    const pgPort = await freePortOn(network.gateway);
    const s3Relay = opts.s3 ? await freePortOn(network.gateway) : 0;
    const pg = new URL(opts.databaseUrl);
    const cfg = path.join(opts.workDir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      haproxyConfig({
        gateway: network.gateway,
        webPort,
        pgPort,
        pg: { host: pg.hostname, port: Number(pg.port || 5432) },
        s3: opts.s3 ? { port: opts.s3.port, relay: s3Relay } : null,
        hosts: names.map((name, i) => ({ name, address: nets[i]!.address })),
      }),
    );
    const balancerLog = path.join(opts.workDir, 'haproxy.log');
    balancer = spawn(opts.haproxy, ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    balancer.stdout?.on('data', (d: Buffer) => appendFileSync(balancerLog, d));
    balancer.stderr?.on('data', (d: Buffer) => appendFileSync(balancerLog, d));
    // The relay answers before any host is started.
    const listening = Date.now() + 10_000;
    while (!(await portOpen(network.gateway, pgPort))) {
      if (balancer.exitCode !== null || Date.now() > listening)
        throw new Error(`the balancer did not start; see ${balancerLog}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const hostDb = new URL(opts.databaseUrl);
    hostDb.hostname = network.gateway;
    hostDb.port = String(pgPort);
    const hostDatabaseUrl = hostDb.toString();
    const storageEnv: Record<string, string> = opts.s3
      ? {
          BATHYLOG_STORAGE: 's3',
          BATHYLOG_S3_ENDPOINT: `http://${network.gateway}:${s3Relay}`,
          BATHYLOG_S3_REGION: 'us-east-1',
          BATHYLOG_S3_BUCKET: opts.s3.bucket,
          BATHYLOG_S3_PATH_STYLE: 'true',
          BATHYLOG_S3_ACCESS_KEY_ID: opts.s3.accessKeyId,
          BATHYLOG_S3_SECRET_ACCESS_KEY: opts.s3.secretAccessKey,
        }
      : { BATHYLOG_STORAGE: 'local' };

    const starts = new Map<string, number>();
    const startHost = async (host: HostProcess | { name: string; net: NetHost }): Promise<HostProcess> => {
      // A log per start: a restarted host's log says only what this start did.
      const start = (starts.get(host.name) ?? 0) + 1;
      starts.set(host.name, start);
      const logFile = path.join(opts.workDir, `host-${host.name}${start > 1 ? `-${start}` : ''}.log`);
      await ensureServerBuild();
      const child = network.spawn(host.net, process.execPath, ['--enable-source-maps', serverBuild.outfile], {
        cwd: repoRoot,
        env: {
          ...process.env,
          PORT: String(hostPort),
          HOST: host.net.address,
          DATABASE_URL: hostDatabaseUrl,
          DATABASE_SCHEMA: opts.schema,
          BATHYLOG_DATA: dataDirOf(host.name),
          BATHYLOG_BACKUP_FOLDER: backupDir,
          ...storageEnv,
          BATHYLOG_MODE: 'production',
          BATHYLOG_ADMIN_PASSWORD: 'demo',
          BATHYLOG_SECRET: clusterSecret,
          BATHYLOG_CONFIG: '',
          BATHYLOG_RATE_LIMIT_PER_KEY: '0',
          BATHYLOG_RATE_LIMIT_PER_ADDRESS: '0',
          BATHYLOG_TRUST_PROXY: network.gateway,
          LOG_LEVEL: 'info',
          ...opts.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (d: Buffer) => appendFileSync(logFile, d));
      child.stderr?.on('data', (d: Buffer) => appendFileSync(logFile, d));
      const exited = new Promise<void>((resolve) =>
        child.once('exit', (code, signal) => {
          appendFileSync(logFile, `\n[cluster] exited: code ${code}, signal ${signal}\n`);
          resolve();
        }),
      );
      const alive = () => child.exitCode === null && child.signalCode === null;
      const proc: HostProcess = {
        name: host.name,
        net: host.net,
        url: `http://${host.net.address}:${hostPort}`,
        logFile,
        child,
        alive,
        ...processControls(child, exited),
      };
      const index = hosts.findIndex((h) => h.name === host.name);
      if (index >= 0) hosts[index] = proc;
      else hosts.push(proc);
      const deadline = Date.now() + 150_000;
      for (;;) {
        if (!alive()) throw new Error(`host ${host.name} exited during start-up; see ${logFile}`);
        if (Date.now() > deadline) throw new Error(`host ${host.name} did not answer in time; see ${logFile}`);
        try {
          if ((await fetch(`${proc.url}/sealog-server/api/v1/health`)).ok) return proc;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    };

    // All at once, as an operator's service manager starts them on a fresh database.
    await Promise.all(names.map((name, i) => startHost({ name, net: nets[i]! })));
    hosts.sort((x, y) => x.name.localeCompare(y.name));
    const balancerUrl = `http://${network.gateway}:${webPort}`;
    // The balancer sees every host up (two health checks in a row) before the cluster is handed out.
    const until = Date.now() + 30_000;
    const seen = new Set<string>();
    while (seen.size < hosts.length) {
      if (Date.now() > until) throw new Error(`the balancer did not reach every host; see ${balancerLog}`);
      try {
        const res = await fetch(`${balancerUrl}/sealog-server/server_time`);
        const by = res.headers.get('x-bathylog-host');
        if (res.ok && by) seen.add(by);
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return { network, hosts, balancerUrl, hostDatabaseUrl, extra, backupDir, startHost, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
