import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A real InfluxDB 1.x (Debian's influxd) in a temporary folder on free ports, for tests and benches. `stop()`
 * and `start()` again keep its data (a peer going down and coming back); `close()` removes the folder.
 */
export class Influxd {
  readonly url: string;
  private child: ChildProcess | null = null;

  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  static async create(bin: string, opts: { auth?: { user: string; password: string } } = {}): Promise<Influxd> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-influxd-'));
    const [port, rpc] = [await freePort(), await freePort()];
    writeFileSync(
      path.join(dir, 'influxdb.conf'),
      [
        'reporting-disabled = true',
        `bind-address = "127.0.0.1:${rpc}"`,
        '[meta]',
        `  dir = "${dir}/meta"`,
        '[data]',
        `  dir = "${dir}/data"`,
        `  wal-dir = "${dir}/wal"`,
        '  query-log-enabled = false',
        '[http]',
        `  bind-address = "127.0.0.1:${port}"`,
        `  auth-enabled = ${opts.auth ? 'true' : 'false'}`,
        '  log-enabled = false',
        '[monitor]',
        '  store-enabled = false',
        '[continuous_queries]',
        '  enabled = false',
        '',
      ].join('\n'),
    );
    const influxd = new Influxd(bin, dir, port);
    await influxd.start();
    if (opts.auth) {
      await influxd.query(`CREATE USER "${opts.auth.user}" WITH PASSWORD '${opts.auth.password}' WITH ALL PRIVILEGES`);
    }
    return influxd;
  }

  async start(): Promise<void> {
    this.child = spawn(this.bin, ['-config', path.join(this.dir, 'influxdb.conf')], { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const res = await fetch(`${this.url}/ping`);
        if (res.status === 204) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('influxd did not start within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private auth(creds?: { user: string; password: string }): Record<string, string> {
    return creds ? { authorization: `Basic ${Buffer.from(`${creds.user}:${creds.password}`).toString('base64')}` } : {};
  }

  async query(q: string, creds?: { user: string; password: string }): Promise<unknown> {
    const res = await fetch(`${this.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.auth(creds) },
      body: new URLSearchParams({ q }),
    });
    if (!res.ok) throw new Error(`influx query ${res.status}: ${await res.text()}`);
    return res.json();
  }

  /** Writes line-protocol points (ms precision) through the HTTP write API. */
  async write(db: string, lines: string[], creds?: { user: string; password: string }): Promise<void> {
    const res = await fetch(`${this.url}/write?db=${encodeURIComponent(db)}&precision=ms`, {
      method: 'POST',
      headers: this.auth(creds),
      body: lines.join('\n'),
    });
    if (res.status !== 204) throw new Error(`influx write ${res.status}: ${await res.text()}`);
  }
}
