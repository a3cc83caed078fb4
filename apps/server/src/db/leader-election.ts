import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { loadPg, type Database } from './database.js';
import { withSessionOptions } from './session-options.js';

/**
 * Which server process runs the singleton jobs (built-in ASNAP, free-space monitor). With SQLite
 * there is one process, so it always leads. With PostgreSQL several processes may share the
 * database: the one holding a session advisory lock leads; the others retry now and then and
 * take over when the leader's connection goes away (the lock dies with the session).
 */
export class LeaderElection {
  private leader = false;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly listeners = new Set<(leader: boolean) => void>();
  private readonly log: FastifyBaseLogger;

  constructor(
    private readonly database: Database,
    log: FastifyBaseLogger,
    private readonly retryMs = 5000,
  ) {
    this.log = log.child({ module: 'leader' });
  }

  get isLeader(): boolean {
    return this.leader;
  }

  onChange(listener: (leader: boolean) => void): void {
    this.listeners.add(listener);
  }

  private set(leader: boolean): void {
    if (this.leader === leader) return;
    this.leader = leader;
    for (const listener of this.listeners) listener(leader);
  }

  /** Resolves after the first attempt, so a single process leads by the time start-up ends. */
  async start(): Promise<void> {
    if (this.database.dialect !== 'postgres' || !this.database.url) {
      this.set(true);
      return;
    }
    await this.attempt();
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.attempt();
    }, this.retryMs);
    this.timer.unref();
  }

  private async attempt(): Promise<void> {
    if (this.stopped || this.leader) return;
    const client = new (loadPg().Client)({
      // A leader whose machine vanished without closing its connection (power cut, cable) must not
      // hold the lock for the hours TCP would take to notice: the database probes the session
      // and ends it (and so the lock) within about 15 s; this process probes too (heartbeat()).
      connectionString: withSessionOptions(this.database.url!, [
        'tcp_keepalives_idle=5',
        'tcp_keepalives_interval=3',
        'tcp_keepalives_count=3',
      ]),
      keepAlive: true,
      keepAliveInitialDelayMillis: 5000,
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'leader connection lost');
      this.lose(client);
    });
    try {
      await client.connect();
      const [ns, key] = advisoryLockKey('leader', this.database.schema);
      const res = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [ns, key]);
      if (!this.stopped && res.rows[0]?.locked) {
        this.client = client;
        this.log.info('this process runs the singleton jobs (ASNAP, free-space monitor)');
        this.set(true);
        this.heartbeat(client);
        return;
      }
      await client.end();
    } catch (err) {
      this.log.warn({ err }, 'leader election attempt failed');
      await client.end().catch(() => undefined);
    }
    this.schedule();
  }

  /**
   * While leading, asks the lock's session every retryMs whether it is still there: a session the
   * database ended (its keepalive gave up on us, an administrator terminated it) no longer holds
   * the lock, and another process may lead already, so this one stops its jobs at once rather
   * than when TCP finally reports the loss.
   */
  private heartbeat(client: pg.Client): void {
    const beat = setTimeout(() => {
      if (this.client !== client) return;
      let answered = false;
      const deadline = setTimeout(() => {
        if (answered) return;
        this.log.warn('leader connection does not answer: giving up the singleton jobs');
        this.lose(client);
      }, this.retryMs);
      deadline.unref();
      client.query('SELECT 1').then(
        () => {
          answered = true;
          clearTimeout(deadline);
          this.heartbeat(client);
        },
        (err: unknown) => {
          answered = true;
          clearTimeout(deadline);
          this.log.warn({ err }, 'leader connection lost');
          this.lose(client);
        },
      );
    }, this.retryMs);
    beat.unref();
  }

  private lose(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.set(false);
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.set(false);
    const client = this.client;
    this.client = null;
    // Ending the session releases the advisory lock for the next process.
    if (client) await client.end().catch(() => undefined);
  }
}

/**
 * A PostgreSQL advisory lock key: a fixed namespace ("BATH") and a hash of the purpose and the
 * schema, so servers of different schemas (tests, several installations) never share a lock.
 */
export function advisoryLockKey(purpose: string, schema: string | null): [number, number] {
  let hash = 0;
  for (const ch of `bathylog:${purpose}:${schema ?? 'public'}`) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return [0x42_41_54_48, hash];
}
