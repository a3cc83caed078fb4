import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild, serverBuild } from '../../scripts/build-server.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Ports for servers started by the browser tests. E2E_PORT_FIRST / E2E_PORT_LAST move the range,
 * so engineers running the suite at the same time on one machine keep to their own ports.
 */
export const portRange = {
  first: Number(process.env.E2E_PORT_FIRST ?? 8300),
  last: Number(
    process.env.E2E_PORT_LAST ?? (process.env.E2E_PORT_FIRST ? Number(process.env.E2E_PORT_FIRST) + 99 : 8399),
  ),
} as const;

export interface StartServerOptions {
  /** 'demo' (default) loads the FKt230303 cruise; 'production' seeds only the system users (fast). */
  mode?: 'demo' | 'production';
  /** Merged into the server's JSON config file (BATHYLOG_CONFIG), e.g. `{ client: { disableEventLogging: true } }`. */
  config?: Record<string, unknown>;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** How long start-up (migrations, demo loading) may take. Default 180 s. */
  timeoutMs?: number;
}

export interface StartedServer {
  url: string;
  port: number;
  /** The server's data folder (database, files, outbox/). */
  dataDir: string;
  logFile: string;
  stop: (opts?: { keepData?: boolean }) => Promise<void>;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A free port in 8300-8399, starting at a random place so parallel runs rarely collide. */
export async function findFreePort(): Promise<number> {
  const size = portRange.last - portRange.first + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = portRange.first + ((start + i) % size);
    if (await portIsFree(port)) return port;
  }
  throw new Error(`No free port in ${portRange.first}-${portRange.last}`);
}

async function waitUntilUp(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`The server exited with code ${exited} during start-up; see ${logFile}`);
    try {
      const res = await fetch(`${url}/sealog-server/client_settings`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not answer within ${timeoutMs} ms; see ${logFile}`);
}

/**
 * Starts the REAL server (compiled, `node apps/server/dist/main.js`, built first when older than its
 * sources) on a fresh data folder and
 * a free port in 8300-8399, serving the built client from apps/web/dist. Used by the global setup,
 * and by specs that need a server of their own (other configuration, destructive tasks).
 */
export async function startServer(opts: StartServerOptions = {}): Promise<StartedServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-e2e-'));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const configFile = path.join(dataDir, 'e2e-config.json');
  // Many logins with wrong passwords happen in the tests: keep the limiter out of their way.
  writeFileSync(configFile, JSON.stringify({ loginRateLimit: { max: 1000 }, ...opts.config }, null, 2));
  const logFile = path.join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  await ensureServerBuild();
  const child = spawn(process.execPath, ['--enable-source-maps', serverBuild.outfile], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BATHYLOG_DATA: dataDir,
      BATHYLOG_MODE: opts.mode ?? 'demo',
      BATHYLOG_ADMIN_PASSWORD: 'demo',
      // Every test seeds from 127.0.0.1: the per-address write limit would throttle the suite.
      BATHYLOG_RATE_LIMIT_PER_ADDRESS: '0',
      // Ship and shore both listen on 127.0.0.1, an address a shore refuses for a ship by default.
      BATHYLOG_SYNC_ALLOW_PRIVATE_HOSTS: 'true',
      BATHYLOG_CONFIG: configFile,
      // As in production: reset links point at the public URL (never at the Host a request names).
      BATHYLOG_PUBLIC_URL: url,
      LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'warn',
      DATABASE_URL: '',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const stop = async ({ keepData = false } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    if (!keepData) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilUp(url, child, logFile, opts.timeoutMs ?? 180_000);
  } catch (err) {
    await stop({ keepData: true });
    throw err;
  }
  return { url, port, dataDir, logFile, stop };
}
