import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild, serverBuild } from '../../../scripts/build-server.mjs';

/**
 * The real server as a child process (the compiled server, `node apps/server/dist/main.js`, as `npm
 * start` and the browser tests run it; built first when older than the sources), on a data folder that outlives it: the crash, disk-full and
 * backup suites kill it, restart it and look at what it kept. They talk to it over HTTP only.
 */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const apiBase = '/sealog-server/api/v1';

export interface ServerProcessOptions {
  dataDir: string;
  /** A postgres:// URL; SQLite in the data folder when absent. */
  databaseUrl?: string;
  databaseSchema?: string;
  env?: Record<string, string>;
  /** The server's output; default beside the data folder. */
  logFile?: string;
  /** Start-up time allowed (migrations on a loaded machine). Default 120 s. */
  timeoutMs?: number;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  logFile: string;
  /** SIGKILL: no shutdown hooks, no flush; what a power cut leaves of the process. */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function startServerProcess(opts: ServerProcessOptions): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = opts.logFile ?? path.join(opts.dataDir, '..', `${path.basename(opts.dataDir)}-server.log`);
  await ensureServerBuild();
  const child = spawn(process.execPath, ['--enable-source-maps', serverBuild.outfile], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BATHYLOG_DATA: opts.dataDir,
      BATHYLOG_MODE: 'production',
      BATHYLOG_ADMIN_PASSWORD: 'demo',
      BATHYLOG_SECRET: 'server-process-secret',
      BATHYLOG_RATE_LIMIT_PER_KEY: '0',
      BATHYLOG_RATE_LIMIT_PER_ADDRESS: '0',
      BATHYLOG_ASNAP_ENABLED: 'false',
      BATHYLOG_CONFIG: '',
      LOG_LEVEL: 'warn',
      DATABASE_URL: opts.databaseUrl ?? '',
      DATABASE_SCHEMA: opts.databaseSchema ?? '',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = (chunk: Buffer) => appendFileSync(logFile, chunk);
  child.stdout?.on('data', log);
  child.stderr?.on('data', log);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      appendFileSync(logFile, `\n[server-process] exited: code ${code}, signal ${signal}\n`);
      resolve();
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;

  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    if (!alive()) throw new Error(`The server exited during start-up (${child.exitCode}); see ${logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not answer in time; see ${logFile}`);
    }
    try {
      if ((await fetch(`${url}/sealog-server/client_settings`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return { url, child, logFile, ...processControls(child, exited) };
}

/** How a test ends a server process it started: killed at once, or stopped (SIGKILL after 15 s). */
export function processControls(
  child: ChildProcess,
  exited: Promise<void>,
): { kill(): Promise<void>; stop(): Promise<void> } {
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A small JSON client for one server: admin token, typed answers, the status kept. */
export class ApiClient {
  constructor(
    readonly base: string,
    private token = '',
  ) {}

  async login(username = 'admin', password = 'demo'): Promise<void> {
    const res = await this.call('POST', '/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.token = (res.body as { token: string }).token;
  }

  async call(
    method: string,
    route: string,
    body?: unknown,
    opts: { signal?: AbortSignal } = {},
  ): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${this.base}${apiBase}${route}`, {
      method,
      headers: {
        ...(this.token ? { authorization: this.token } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  }

  async json<T>(method: string, route: string, body?: unknown): Promise<T> {
    const res = await this.call(method, route, body);
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  }
}

/** A cruise and a lowering around now (± a day), so every event logged during a test is in both. */
export async function createCruiseAndLowering(
  api: ApiClient,
  tag: string,
): Promise<{ cruiseId: string; loweringId: string }> {
  const start = new Date(Date.now() - 86_400_000).toISOString();
  const stop = new Date(Date.now() + 86_400_000).toISOString();
  const cruise = await api.json<{ insertedId: string }>('POST', '/cruises', {
    cruise_id: `SOAK-${tag}`,
    start_ts: start,
    stop_ts: stop,
    cruise_location: 'test',
    cruise_tags: [],
    cruise_hidden: false,
    cruise_additional_meta: { cruise_vessel: 'R/V Test', cruise_pi: 'Tester', cruise_description: '' },
  });
  const lowering = await api.json<{ insertedId: string }>('POST', '/lowerings', {
    lowering_id: `L-${tag}`,
    start_ts: start,
    stop_ts: stop,
    lowering_location: 'test',
    lowering_tags: [],
    lowering_hidden: false,
    lowering_additional_meta: { lowering_description: '' },
  });
  return { cruiseId: cruise.insertedId, loweringId: lowering.insertedId };
}

/** An event as the exports answer it (the fields these suites compare). */
export interface ExportedEvent {
  id: string;
  ts: string;
  event_value: string;
  event_free_text: string;
  aux_data?: Array<{ id: string; data_source: string; data_array: Array<{ data_name: string; data_value: string }> }>;
}

/** GET event_exports/bylowering/:id (every event of the lowering with its aux data). */
export async function exportLowering(api: ApiClient, loweringId: string): Promise<ExportedEvent[]> {
  const res = await api.call('GET', `/event_exports/bylowering/${loweringId}`);
  if (res.status === 404) return [];
  if (res.status !== 200) throw new Error(`export: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ExportedEvent[];
}
